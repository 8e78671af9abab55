/**
 * The divergence report replays a run's strategies together, on one account as they ran: a real
 * paper run (`tradeloop run --paper` on the embedded sandbox, 127.0.0.1) of two plugins on BTCUSD and
 * ETHUSD, prices only (the point model), with too little USD for all their buys, so the later ones
 * are denied on balance because the other strategy spent it. Replayed together, every decision and
 * every denial is the run's; replayed alone, the second strategy's buys would have found the USD free.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import { tradeloop } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-divergence-portfolio-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A plugin that buys 100 USD of `market` at its `start`-th price and every `every` prices after, `count` times (counted after the warm-up). */
function plugin(name: string, market: string): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};

export default defineStrategy({
  name: '${name}',
  description: 'buys 100 USD at a few prices, blind to its fills and balance',
  params: z.object({ start: z.number().int(), every: z.number().int(), count: z.number().int() }),
  markets: ['${market}'],
  create: (p) => {
    let seen = 0;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== '${market}' || ctx.warmingUp) return undefined;
        seen++;
        const k = seen - p.start;
        return k >= 0 && k % p.every === 0 && k / p.every < p.count ? [{ kind: 'place-order', market: '${market}', side: 'BUY', type: 'MARKET', quoteAmount: '100' }] : undefined;
      },
    };
  },
});
`,
  );
  return file;
}

interface Report {
  differences: { kind: string; strategy: string; cause: string }[];
  strategies: {
    name: string;
    paired: number;
    live: { decisions: number; denials: number };
    replay: { decisions: number; denials: number };
  }[];
  notes: string[];
}

const recording = join(dir, 'run.jsonl');
const journal = join(dir, 'journal.sqlite');

beforeAll(async () => {
  const btc = plugin('btc-buyer', 'BTCUSD');
  const eth = plugin('eth-buyer', 'ETHUSD');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'bot.yaml'),
    [
      'environment: local',
      'local: { funding: { USD: "250" } }',
      'paper: { funding: { USD: "250" } }',
      'strategies:',
      `  - plugin: ${btc}`,
      '    params: { start: 2, every: 2, count: 3 }',
      `  - plugin: ${eth}`,
      '    params: { start: 3, every: 2, count: 2 }',
      `streams: { prices_ms: 250, balances_ms: 100, record: ${recording} }`,
      `journal: { path: ${journal} }`,
    ].join('\n'),
  );
  const run = tradeloop(['run', '--paper', '--config', join(dir, 'bot.yaml'), '--duration', '6s', '--json'], dir);
  expect(await run.exit, run.err().slice(-2000)).toBe(0);
}, 90_000);

describe('tradeloop divergence on a two-market paper run', () => {
  it('replays both strategies on one account: the same decisions and the same denials on balance', async () => {
    const r = await runCli(['divergence', '--recording', recording, '--journal', journal, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.notes).toContain('the 2 strategies are replayed together on one account, as they ran');
    expect(report.strategies.map((s) => [s.name, s.live.decisions])).toEqual([
      ['btc-buyer', 3],
      ['eth-buyer', 2],
    ]);
    // 250 USD pays for two buys of 100 (and their fees): btc's at its 2nd price and eth's at its 3rd;
    // the three after them are denied live, and so in the replay, where each alone would have had the USD
    const denials = report.strategies.map((s) => [s.name, s.live.denials, s.replay.denials]);
    expect(denials).toEqual([
      ['btc-buyer', 2, 2],
      ['eth-buyer', 1, 1],
    ]);
    for (const s of report.strategies) expect(s.paired).toBe(s.live.decisions);
    expect(report.differences.filter((d) => d.kind !== 'fill')).toEqual([]);
  });

  it('backtests the config on the recording alone (--data run.jsonl gives every market it holds), on one account', async () => {
    const r = await runCli(['backtest', '--config', join(dir, 'bot.yaml'), '--data', recording, '--initial', 'USD=250', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      strategies: { name: string; intents: number; denials: Record<string, number> }[];
      markets: { market: string; points: number }[];
    };
    expect(j.markets.map((m) => m.market)).toEqual(['BTCUSD', 'ETHUSD']);
    for (const m of j.markets) expect(m.points).toBeGreaterThan(6);
    expect(j.strategies.map((s) => [s.name, s.intents, s.denials.INSUFFICIENT_BALANCE ?? 0])).toEqual([
      ['btc-buyer', 3, 2],
      ['eth-buyer', 2, 1],
    ]);
  });
});
