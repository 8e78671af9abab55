/**
 * `tradeloop backtest --robustness N` and `optimize --out` through the real command: the Monte Carlo
 * repeats for a seed, the manifest is in every report, the break-even fee is where separate runs at
 * that fee change the sign of the return, and optimize's stability map reaches --json and the page.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-robustness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A rising sine: sma-cross 3/8 makes money on it before fees; two missing days make a gap. */
const csv = join(dir, 'sine.csv');
const T0 = Date.UTC(2024, 0, 1);
writeFileSync(
  csv,
  `timestamp,price\n${Array.from({ length: 400 }, (_, i) => `${T0 + i * 3_600_000 + (i >= 200 ? 48 * 3_600_000 : 0)},${(100 + 10 * Math.sin(i / 6) + 0.1 * i).toFixed(2)}`).join('\n')}\n`,
);
const BASE = ['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'fast=3,slow=8'];

async function json(argv: string[]): Promise<ReturnType<typeof JSON.parse>> {
  const r = await runCli(argv);
  // nothing on stderr but the trap warnings a limit that bites prints (also in the JSON's warnings)
  expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('warning: limit '))).toEqual([]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('tradeloop backtest --robustness', () => {
  it('repeats its Monte Carlo for a seed, states its assumptions, and finds the fee where the return turns', async () => {
    const out = join(dir, 'out');
    const a = await json([...BASE, '--robustness', '300', '--json', '--out', out]);
    const b = await json([...BASE, '--robustness', '300', '--json']);
    const c = await json([...BASE, '--robustness', '300', '--seed', '2', '--json']);
    expect(a.robustness).toEqual(b.robustness);
    expect(c.robustness.monte_carlo.methods[1]).not.toEqual(a.robustness.monte_carlo.methods[1]);
    const mc = a.robustness.monte_carlo;
    expect(mc).toMatchObject({ runs: 300, seed: 1, ruin_pct: 50 });
    expect(mc.methods.map((m: { method: string }) => m.method)).toEqual(['trade-shuffle', 'trade-bootstrap', 'return-block-bootstrap']);
    // reshuffling trips cannot change where they compound to: the run's own closed-trip equity
    expect(mc.methods[0].final_equity.p5).toBeCloseTo(mc.methods[0].final_equity.p95, 6);
    const costs = a.robustness.cost_sensitivity;
    expect(costs.rows).toHaveLength(12);
    expect(costs.rows[0]).toMatchObject({ varied: 'fee', multiple: 0, fee_bps: 0, fees_paid: '0' });
    expect(costs.rows[2]).toMatchObject({ fee_bps: 10, return_pct: a.return_pct, fees_paid: String(a.fees) });
    const be = costs.break_even_fee_bps as number;
    expect(be).toBeGreaterThan(30);
    const below = await json([...BASE, '--fee-bps', String(be - 0.2), '--json']);
    const above = await json([...BASE, '--fee-bps', String(be + 0.2), '--json']);
    expect(below.return_pct).toBeGreaterThan(0);
    expect(above.return_pct).toBeLessThanOrEqual(0);
    expect(a.manifest).toMatchObject({
      fill_model: 'points',
      fee_bps: 10,
      slippage_bps: 0,
      latency_ms: null,
      data: { points: 400, gaps: { count: 1, largest: { ms: 49 * 3_600_000 } } },
    });
    expect(a.manifest.risk_rules.find((r: { rule: string }) => r.rule === 'max open orders')).toEqual({
      rule: 'max open orders',
      value: '50',
      active: true,
      key: 'risk.max_open_orders',
      from: 'default',
    });
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<th scope="row">Data gaps</th><td>1 interval longer than 3h');
    expect(html).toContain('id="hist-trade-bootstrap-finalEquity"');
    expect(html).toContain('id="cost-sweep"');
  });

  it('prints the percentile table, the sweep and the manifest without --json', async () => {
    const r = await runCli([...BASE, '--robustness', '100', '--ruin-pct', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Monte Carlo: 100 paths per method, seed 1, blocks of \d+ points, ruin at a 5 % drawdown/);
    expect(r.stdout).toMatch(/round trips resampled\s+final equity/);
    expect(r.stdout).toMatch(/break-even fee: \d+(\.\d)? bps ±0\.1/);
    expect(r.stdout).toMatch(/Warm-up\s+9 points/);
    expect(r.stdout).toMatch(/Risk rules off\s+allowed markets; max position; kill switch/);
  });

  it('resamples nothing of a strategy that stopped, and says so', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const file = join(dir, 'thrower.ts');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      file,
      `import { z } from ${JSON.stringify(join(root, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(root, 'src/strategy/index.ts'))};
export default defineStrategy({
  name: 'thrower', description: 'throws at its tenth price', params: z.object({}), markets: ['BTCUSD'],
  create: () => { let n = 0; return { onEvent(e) { if (e.kind === 'price' && ++n === 10) throw new Error('boom'); return undefined; } }; },
});
`,
    );
    const r = await runCli(['backtest', '--strategy', file, '--data', csv, '--robustness', '50', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('note: no robustness figures: the strategy stopped');
    const j = JSON.parse(r.stdout);
    expect(j.robustness).toBeUndefined();
    expect(j.manifest.fill_model).toBe('points');
  });

  it('refuses the Monte Carlo flags without --robustness, and bad values, naming the flag', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[...BASE, '--ruin-pct', '40'], /--ruin-pct: applies to the Monte Carlo of --robustness N/],
      [[...BASE, '--robustness', '0'], /--robustness: expected a whole number ≥ 1/],
      [[...BASE, '--robustness', '10', '--ruin-pct', '150'], /--ruin-pct: expected a drawdown percent/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('tradeloop optimize: stability and walk-forward efficiency', () => {
  it('puts the map and the efficiency in --json and writes the heat map page', async () => {
    const out = join(dir, 'opt');
    const j = await json([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--grid',
      'fast=2..4:1,slow=8..12:2',
      '--walk-forward',
      '1',
      '--workers',
      '1',
      '--json',
      '--out',
      out,
    ]);
    expect(j.stability.x).toEqual({ param: 'fast', values: [2, 3, 4] });
    expect(j.stability.y).toEqual({ param: 'slow', values: [8, 10, 12] });
    expect(j.stability.cells).toHaveLength(3);
    const best = j.rows[0];
    expect(j.stability.best).toEqual({ params: best.params, score: best.score });
    expect(j.stability.cells[[8, 10, 12].indexOf(best.params.slow)][[2, 3, 4].indexOf(best.params.fast)]).toBe(best.score);
    const wfe = j.walk_forward_efficiency;
    const pick = j.walkForward[0];
    if (pick.inSampleScore > 0) expect(wfe.efficiency).toBeCloseTo(pick.outOfSample.sharpe / pick.inSampleScore, 9);
    else expect(wfe.efficiency).toBeNull();
    expect(j.manifest).toMatchObject({ fill_model: 'points', fee_bps: 10, warm_up: { points: 13 }, data: { points: 400 } });
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('id="heat-map"');
    expect(html).toContain('<th scope="row">Warm-up</th><td>13 points');
    expect(readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(10);
  });
});
