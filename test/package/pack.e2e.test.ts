/**
 * tradeloop as a user gets it: the package is packed (npm pack, which builds dist/), a project is made
 * with `tradeloop init --from TARBALL`, the tarball is installed there (prefer-offline: from the
 * npm cache the repository's own install filled), and from that folder a plugin that imports
 * `tradeloop` and uses the stop-loss helper is tested with `npm test`, type-checked, backtested, and
 * run live for 20 seconds on the embedded sandbox.
 *
 * better-sqlite3 installs the way a user's machine on the network does, from a prebuilt binary: with
 * no network its install script would compile SQLite from source instead, most of this file's time
 * (255 s of the install on the shared 2-core machine). The prebuilt binary is the one
 * the repository's own install made, packed as the release asset prebuild-install looks for and
 * offered through a `.prebuild-installrc` in the folder above the project (`local-prebuilds`), so
 * the project itself is left as `tradeloop init` made it. Another better-sqlite3 version in the
 * project, or another Node ABI, finds no asset there and builds from source as before.
 *
 * Budgets are generous multiples of the time each step takes (measured on the 2-core machine, itself
 * shared with other work: setup 99 s, of which the install 10 s where building from source took
 * 255 s; each test under 35 s), so the file passes on a machine under other load.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MINUTE = 60_000;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(cmd: string, args: readonly string[], cwd: string, timeoutMs = 8 * MINUTE): Promise<Ran> {
  return new Promise((done) => {
    // the project's own environment: no TRADELOOP_* from the test's, no vitest variables
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('TRADELOOP_') && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'),
    );
    execFile(
      cmd,
      args,
      {
        cwd,
        env: { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
        timeout: timeoutMs,
        maxBuffer: 32 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

const why = (r: Ran): string => `exit ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

const PLUGIN = `import { defineStrategy, Position, z } from 'tradeloop';

/** Buys once with a share of the USD balance and leaves on a stop-loss (or never). */
export default defineStrategy({
  name: 'dip-stop',
  description: 'enter once, exit on the stop-loss',
  params: z.object({ market: z.string().default('BTCUSD'), stop_pct: z.number().gt(0).default(1), size_pct: z.number().default(10) }),
  markets: (p) => [p.market],
  create(p) {
    const position = new Position(p.market, { sizePct: p.size_pct, stopLossPct: p.stop_pct });
    let entered = false;
    return {
      onEvent(event, ctx) {
        const exit = position.onEvent(event, ctx);
        if (exit !== undefined) return exit;
        if (event.kind !== 'price' || entered || ctx.warmingUp || position.busy) return undefined;
        const entry = position.enter(ctx);
        if (entry !== undefined) entered = true;
        return entry;
      },
      onReport(report, ctx) {
        position.onReport(report, ctx);
      },
    };
  },
});
`;

const PLUGIN_TEST = `import assert from 'node:assert/strict';
import { it } from 'node:test';
import { backtestStrategy, StrategyTestKit } from 'tradeloop/testkit';
import plugin from './dip-stop.js';

it('leaves on the stop-loss in a backtest through the whole engine', async () => {
  const r = await backtestStrategy(plugin, { params: { stop_pct: 2 }, prices: [100, 100, 101, 100, 98.5, 97, 96, 96] });
  assert.equal(r.trades.length, 1);
  assert.equal(r.orders.fills, 2);
});

it('sells everything when the price falls through the stop-loss', () => {
  const kit = new StrategyTestKit(plugin, { stop_pct: 2, size_pct: 50 }, { USD: '1000' });
  const [buy] = kit.prices('BTCUSD', [100]);
  assert.equal(buy?.kind, 'place-order');
  assert.equal(buy.side, 'BUY');
  kit.fill(buy, { price: '100' }); // 500 USD at 100: 5 BTC
  assert.deepEqual(kit.prices('BTCUSD', [99.5]), []);
  const [sell] = kit.prices('BTCUSD', [97.9]);
  assert.equal(sell?.kind, 'place-order');
  assert.equal(sell.side, 'SELL');
  assert.equal(sell.baseAmount, '5');
});
`;

/** Rises 1 % over 20 hours, then falls 6 % over 20 more. */
function pricesCsv(): string {
  const lines = ['timestamp,price'];
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < 40; i++) {
    const price = i < 20 ? 30_000 + i * 15 : 30_300 - (i - 19) * 90;
    lines.push(`${new Date(start + i * 3_600_000).toISOString()},${price.toFixed(2)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Offers the repository's own better-sqlite3 binary to the project's install as the prebuilt release
 * asset prebuild-install downloads (`<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz` holding
 * `build/Release/better_sqlite3.node`), through a `.prebuild-installrc` in `work`, above the project.
 */
function offerPrebuiltSqlite(work: string): void {
  const pkg = join(ROOT, 'node_modules/better-sqlite3');
  if (!existsSync(join(pkg, 'build/Release/better_sqlite3.node'))) return; // nothing built here: the install builds it
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const dir = join(work, 'prebuilds');
  mkdirSync(dir, { recursive: true });
  const asset = join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  execFileSync('tar', ['-czf', asset, '-C', pkg, 'build/Release/better_sqlite3.node']);
  writeFileSync(join(work, '.prebuild-installrc'), `local-prebuilds=${dir}\n`);
}

describe('tradeloop as an installed package', () => {
  let work: string;
  let project: string;
  let tarball: string;
  let tradeloop: (args: readonly string[], timeoutMs?: number) => Promise<Ran>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tradeloop-pack-'));
    const built = statSync(join(ROOT, 'dist/src/index.js')).mtimeMs;
    const packed = await run(NPM, ['pack', '--pack-destination', work], ROOT);
    expect(packed.code, why(packed)).toBe(0);
    // vitest's global setup built dist/: packing (its prepare) does not build it again
    expect(statSync(join(ROOT, 'dist/src/index.js')).mtimeMs).toBe(built);
    const file = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(file, 'npm pack wrote no tarball').toBeDefined();
    tarball = join(work, file ?? '');
    project = join(work, 'my-bot');
    const init = await run(process.execPath, [join(ROOT, 'bin/tradeloop.js'), 'init', project, '--from', tarball], work);
    expect(init.code, why(init)).toBe(0);
    writeFileSync(join(project, 'strategies/dip-stop.ts'), PLUGIN);
    writeFileSync(join(project, 'strategies/dip-stop.test.ts'), PLUGIN_TEST);
    mkdirSync(join(project, 'data'), { recursive: true });
    writeFileSync(join(project, 'data/prices.csv'), pricesCsv());
    offerPrebuiltSqlite(work);
    const install = await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund'], project);
    expect(install.code, why(install)).toBe(0);
    // the project's own tradeloop command, from its node_modules
    const bin = join(project, 'node_modules/tradeloop/bin/tradeloop.js');
    tradeloop = (args, timeoutMs) => run(process.execPath, [bin, ...args], project, timeoutMs);
  }, 15 * MINUTE);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('ships the compiled entry with its types, and not the tests', () => {
    const pkg = join(project, 'node_modules/tradeloop');
    for (const f of [
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/testkit.js',
      'dist/src/testkit.d.ts',
      'bin/tradeloop.js',
      'config/default.yaml',
    ]) {
      expect(existsSync(join(pkg, f)), f).toBe(true);
    }
    expect(readdirSync(join(pkg, 'strategies')).filter((f) => f.includes('.test.'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies.tradeloop).toBe(`file:${tarball}`);
  });

  it(
    "runs the plugin's test-kit tests with npm test, and the types check",
    async () => {
      const test = await run(NPM, ['test'], project);
      expect(test.code, why(test)).toBe(0);
      expect(test.stdout).toMatch(/sells everything when the price falls through the stop-loss/);
      expect(test.stdout).toMatch(/leaves on the stop-loss in a backtest through the whole engine/);
      expect(test.stdout).toMatch(/buys when the price rises above its EMA while flat/);
      const types = await run(NPM, ['run', 'typecheck'], project);
      expect(types.code, why(types)).toBe(0);
    },
    5 * MINUTE,
  );

  it('imports the compiled entry without a TypeScript loader', async () => {
    const plain = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { defineStrategy, Position, z, D } from 'tradeloop'; import { StrategyTestKit } from 'tradeloop/testkit'; console.log(typeof defineStrategy, typeof Position, typeof z.object, D.name, typeof StrategyTestKit);",
      ],
      project,
    );
    expect(plain.code, why(plain)).toBe(0);
    expect(plain.stdout.trim()).toBe('function function function Decimal function');
  });

  it(
    'backtests the plugin from the project folder: the stop-loss closes the position',
    async () => {
      const bt = await tradeloop(['backtest', '--strategy', './strategies/dip-stop.ts', '--data', 'data/prices.csv', '--json']);
      expect(bt.code, why(bt)).toBe(0);
      // the installed package's compiled command: its build stamp holds for the unpacked sources
      expect(bt.stderr).not.toContain('running from the TypeScript sources');
      const report = JSON.parse(bt.stdout) as { trades: number; orders: { fills: number; openAtEnd: number } };
      expect(report.trades).toBe(1);
      expect(report.orders.fills).toBe(2);
      expect(report.orders.openAtEnd).toBe(0);
      const opt = await tradeloop([
        'optimize',
        '--strategy',
        './strategies/dip-stop.ts',
        '--data',
        'data/prices.csv',
        '--grid',
        'stop_pct=1|2|3',
        '--workers',
        '2',
      ]);
      expect(opt.code, why(opt)).toBe(0);
      expect(opt.stdout).toMatch(/3 combinations/);
    },
    5 * MINUTE,
  );

  it(
    'runs live for 20 seconds on the embedded sandbox with the project config, then lists its order',
    async () => {
      const config = readFileSync(join(project, 'config/default.yaml'), 'utf8');
      const strategies = 'strategies:\n  - plugin: ./strategies/dip-stop.ts\n    name: dip-btc\n    params:\n      market: BTCUSD\n\n';
      writeFileSync(join(project, 'config/default.yaml'), config.replace(/^strategies:\n[\s\S]*?\n(?=risk:)/m, strategies));
      expect(readFileSync(join(project, 'config/default.yaml'), 'utf8')).toContain('dip-stop.ts');
      const live = await tradeloop(['run', '--duration', '20s', '--json'], 4 * MINUTE);
      expect(live.code, why(live)).toBe(0);
      expect(live.stderr).toMatch(/config\/default\.yaml/);
      const orders = await tradeloop(['orders', '--json']);
      expect(orders.code, why(orders)).toBe(0);
      const rows = JSON.parse(orders.stdout) as { side?: string; strategy?: string }[];
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(rows)).toMatch(/BUY/);
    },
    5 * MINUTE,
  );
});
