/**
 * The files `tradeloop init` and `tradeloop new-strategy` write: a strategy plugin that imports
 * `tradeloop` only, its test on the test kit, and a bot project around them.
 */

/** Which test runner a generated test is written for. */
export type TestRunner = 'node' | 'vitest';

export function pluginTemplate(name: string): string {
  return `/**
 * ${name}: describe what it trades and why. This example buys when the price rises above its EMA and
 * sells the whole position when it falls below it, or earlier at an optional stop-loss. Handlers are
 * synchronous and pure: read the context, keep indicator state in closures, return intents (or nothing).
 */
import { defineStrategy, Ema, Position, z } from 'tradeloop';

export default defineStrategy({
  name: '${name}',
  description: 'buy above the EMA, sell below it or at the stop-loss',
  params: z.object({
    market: z.string().default('BTCUSD'),
    period: z.number().int().min(2).default(20),
    size_pct: z.number().gt(0).max(100).default(50),
    stop_loss_pct: z.number().min(0).lt(100).default(0).describe('exit this many percent below the entry price; 0 = off'),
  }),
  markets: (p) => [p.market],
  create(p) {
    const ema = new Ema(p.period);
    // sizes the entry, sells everything on exit, watches the stop-loss, and never has two orders in
    // flight (it learns its entry and when its order is done from the execution reports)
    const position = new Position(p.market, { sizePct: p.size_pct, ...(p.stop_loss_pct > 0 && { stopLossPct: p.stop_loss_pct }) });
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== p.market) return undefined;
        const stop = position.onEvent(e, ctx); // the stop-loss, reached at this price
        const average = ema.update(e.price); // on warm-up history only the EMA learns
        if (stop) return stop;
        if (average === undefined) return undefined;
        if (e.price > average) return position.enter(ctx); // nothing when held, busy or warming up
        if (e.price < average) return position.exitAll(ctx); // nothing when flat
        return undefined;
      },
      onReport(r, ctx) {
        position.onReport(r, ctx); // accepted, filled, cancelled, denied (risk gate), rejected (venue), failed
      },
    };
  },
});
`;
}

export function testTemplate(name: string, runner: TestRunner): string {
  const head =
    runner === 'vitest'
      ? `import { describe, expect, it } from 'vitest';\nimport { backtestStrategy, StrategyTestKit, verifyStrategy } from 'tradeloop/testkit';\nimport plugin from './${name}.js';\n`
      : `import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\nimport { backtestStrategy, StrategyTestKit, verifyStrategy } from 'tradeloop/testkit';\nimport plugin from './${name}.js';\n`;
  const equal = (actual: string, expected: string): string =>
    runner === 'vitest' ? `expect(${actual}).toEqual(${expected});` : `assert.deepEqual(${actual}, ${expected});`;
  return `${head}
describe('${name}', () => {
  it('buys when the price rises above its EMA while flat', () => {
    const kit = new StrategyTestKit(plugin, { period: 3, size_pct: 50 }, { USD: '1000' });
    ${equal(`kit.prices('BTCUSD', [100, 100, 100])`, '[]')}
    ${equal(`kit.prices('BTCUSD', [110])`, `[{ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' }]`)}
  });

  it('sells the whole position at the stop-loss', () => {
    const kit = new StrategyTestKit(plugin, { period: 3, size_pct: 50, stop_loss_pct: 2 }, { USD: '1000' });
    kit.prices('BTCUSD', [100, 100, 100]);
    const [buy] = kit.prices('BTCUSD', [110]);
    kit.fill(buy, { price: '110' }); // the venue's answer: accepted, then filled
    ${equal(`kit.prices('BTCUSD', [108])`, '[]')}
    ${equal(`kit.prices('BTCUSD', [107.5])`, `[{ kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '4.54545454', exitReason: 'stop-loss' }]`)}
  });

  it('does nothing on warm-up history', () => {
    const kit = new StrategyTestKit(plugin, { period: 3 }, { USD: '1000' });
    kit.warmingUp = true;
    ${equal(`kit.prices('BTCUSD', [100, 100, 100, 110])`, '[]')}
  });

  it('trades through the whole engine in a backtest', async () => {
    const run = await backtestStrategy(plugin, { params: { period: 3 }, prices: [100, 100, 100, 104, 108, 103, 99, 99] });
    ${equal('run.trades.length', '1')}
    ${equal('run.orders.openAtEnd', '0')}
  });

  it('passes tradeloop verify: deterministic, no look-ahead, enough warm-up, a sound params schema', async () => {
    const prices = Array.from({ length: 120 }, (_, i) => Number((100 + 10 * Math.sin(i / 6) + 3 * Math.sin(i / 2.3)).toFixed(2)));
    const report = await verifyStrategy(plugin, { params: { period: 5 }, prices });
    ${equal("report.checks.filter((c) => c.verdict === 'fail')", '[]')}
  });
});
`;
}

export interface ProjectFiles {
  readonly name: string;
  /** The package.json dependency spec of tradeloop (\`file:...\`). */
  readonly dependency: string;
  readonly tradeloopVersion: string;
  readonly strategy: string;
}

/** Every file of a new bot project, path → content. */
export function projectFiles(p: ProjectFiles): Record<string, string> {
  const pkg = {
    name: p.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: 'a trading bot on tradeloop',
    engines: { node: '>=20.19' },
    scripts: {
      test: 'tradeloop test',
      typecheck: 'tsc --noEmit',
      start: 'tradeloop run',
      // works on a new project as it is: the embedded sandbox serves the prices, cached in data/history
      backtest: `tradeloop ${backtestArgs(p)}`,
    },
    dependencies: { tradeloop: p.dependency },
    devDependencies: { '@types/node': '^20.19.0', typescript: '^5.9.0' },
    // npm runs no install scripts it was not told to: better-sqlite3 (the journal) builds its native
    // module in one, and tsx's esbuild checks its binary in another
    allowScripts: { 'better-sqlite3': true, esbuild: true, tradeloop: false, 'msgpackr-extract': false },
  };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          verbatimModuleSyntax: true,
          types: ['node'],
        },
        include: ['strategies'],
      },
      null,
      2,
    )}\n`,
    '.gitignore': ['node_modules/', '.tradeloop/', 'data/history/', '*.sqlite', '*.sqlite-wal', '*.sqlite-shm', 'out/', ''].join('\n'),
    'config/default.yaml': defaultConfig(p.strategy),
    'config/sandbox.example.yaml': sandboxConfig(p.strategy),
    [`strategies/${p.strategy}.ts`]: pluginTemplate(p.strategy),
    [`strategies/${p.strategy}.test.ts`]: testTemplate(p.strategy, 'node'),
    'README.md': readme(p),
  };
}

function strategiesBlock(strategy: string): string {
  return `strategies:
  - plugin: ./strategies/${strategy}.ts   # a path from this folder, or a built-in name (sma-cross)
    name: ${strategy}-btc
    params:
      market: BTCUSD
      period: 20
      size_pct: 20
`;
}

function defaultConfig(strategy: string): string {
  return `# The bot's configuration. \`npx tradeloop run\` reads this file (or the one --config names).
# environment: local runs on the embedded sandbox: a simulated platform on this machine, no account and
# no network. Secrets never go in a file: see sandbox.example.yaml.
environment: local

local:
  port: 0          # 0 = a free port
  seed: 42
  funding:
    USD: "100000"

${strategiesBlock(strategy)}
risk:
  max_order_notional: "25000"
  max_position:
    BTC: "1"
  max_intents_per_minute: 30
  daily_loss_limit: "5000"

streams:
  prices_ms: 1000
  warmup_points: 60

journal:
  path: .tradeloop/journal.sqlite
`;
}

function sandboxConfig(strategy: string): string {
  return `# The platform's sandbox. Export TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET (never in a file),
# then: npx tradeloop run --config config/sandbox.example.yaml
environment: sandbox

${strategiesBlock(strategy)}
risk:
  max_order_notional: "1000"
  max_position:
    BTC: "0.05"
  daily_loss_limit: "200"

journal:
  path: .tradeloop/sandbox-journal.sqlite
`;
}

/** The new project's backtest: its strategy on two months of BTCUSD, fetched from the config's environment on first use. */
function backtestArgs(p: ProjectFiles): string {
  return `backtest --strategy ./strategies/${p.strategy}.ts --market BTCUSD --from 2024-01-01 --to 2024-03-01`;
}

function readme(p: ProjectFiles): string {
  return `# ${p.name}

A trading bot on tradeloop ${p.tradeloopVersion}.

\`\`\`sh
npm install                  # once
npm test                     # the strategies' tests (tradeloop test: node's test runner, TypeScript as is)
npx tradeloop ${backtestArgs(p)}   # or npm run backtest
npx tradeloop run            # live on the embedded sandbox (config/default.yaml); Ctrl-C stops it cleanly
\`\`\`

- \`strategies/\`: plugins. Each imports \`tradeloop\` only; \`npx tradeloop new-strategy NAME\` adds one
  with its test.
- \`config/default.yaml\`: what \`npx tradeloop run\` runs; \`config/sandbox.example.yaml\` runs on the
  platform's sandbox with credentials from the environment.
- Price data: \`npx tradeloop backtest --strategy ... --market BTCUSD --from 2024-01-01 --to 2024-02-01\`
  fetches what is missing into \`data/history\` (from the config's environment; \`history fetch\` does it ahead).
  A CSV of \`timestamp,price\` (or OHLCV, \`--price-column close\`) works with \`--data FILE\`.
- \`npx tradeloop optimize --strategy ./strategies/${p.strategy}.ts --market BTCUSD --from 2024-01-01 --to 2024-03-01 --grid period=10..40:10\`
  searches parameters.
- \`.tradeloop/\` holds the journal of every run: \`npx tradeloop orders\`, \`npx tradeloop trades\`.
`;
}
