/**
 * `tradeloop optimize --config FILE --strategy NAME`: one strategy tuned inside a two-strategy config
 * over two markets. Every trial replays the whole config on one account; the ranking by the tuned
 * strategy's own P&L equals separate portfolio backtests of the config with each combination written
 * into it, and the best is the combination those backtests make best. Errors name their flag.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-optimize-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;
function priceFile(name: string, prices: number[]): string {
  const file = join(dir, name);
  writeFileSync(file, `timestamp,price\n${prices.map((p, i) => `${T0 + i * H},${p.toFixed(2)}`).join('\n')}\n`);
  return file;
}
const wave = (base: number, n: number, period: number) => Array.from({ length: n }, (_, i) => base * (1 + 0.2 * Math.sin(i / period)));
const btc = priceFile('btc.csv', wave(20_000, 150, 5));
const eth = priceFile('eth.csv', wave(1_000, 150, 7));

/** The config, with eth-trend's fast and slow as given. */
function config(name: string, fast: number, slow: number): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `environment: local
strategies:
  - plugin: sma-cross
    name: btc-trend
    params: { market: BTCUSD, fast: 2, slow: 5, size_pct: 40 }
  - plugin: sma-cross
    name: eth-trend
    params: { market: ETHUSD, fast: ${fast}, slow: ${slow}, size_pct: 40 }
risk:
  max_order_notional: "20000"
`,
  );
  return file;
}
const data = ['--data', `BTCUSD=${btc}`, '--data', `ETHUSD=${eth}`];
const GRID = 'fast=2|3|4,slow=6|9';
/** `optimize` of eth-trend inside the config with `grid` and more flags. */
const tune = (grid: string, ...more: string[]) =>
  runCli(['optimize', '--config', config('bot.yaml', 2, 5), '--strategy', 'eth-trend', '--grid', grid, ...data, ...more]);

describe('tradeloop optimize --config FILE --strategy NAME', () => {
  it("ranks the tuned strategy's own P&L from whole-config replays; the best is the best of the config's backtests", async () => {
    const r = await tune(GRID, '--workers', '2', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout.trim());
    expect(j).toMatchObject({ metric: 'return', config_strategy: 'eth-trend', objective: 'strategy', markets: ['BTCUSD', 'ETHUSD'] });
    expect(j.rows).toHaveLength(6);
    // each combination written into the config and backtested as a whole: eth-trend's own P&L
    const expected: Array<{ fast: number; slow: number; pnl: number; btc: number }> = [];
    for (const fast of [2, 3, 4])
      for (const slow of [6, 9]) {
        const b = await runCli(['backtest', '--config', config(`c-${fast}-${slow}.yaml`, fast, slow), ...data, '--json']);
        expect(b.code).toBe(0);
        const s = JSON.parse(b.stdout.trim()).strategies as Array<{ name: string; pnl: number }>;
        expected.push({ fast, slow, pnl: s.find((x) => x.name === 'eth-trend')!.pnl, btc: s.find((x) => x.name === 'btc-trend')!.pnl });
      }
    for (const row of j.rows) {
      const e = expected.find((x) => x.fast === row.params.fast && x.slow === row.params.slow)!;
      expect(row.metrics.pnl).toBeCloseTo(e.pnl, 6);
      expect(row.metrics.return_pct).toBeCloseTo((e.pnl / 10_000) * 100, 8);
    }
    const best = [...expected].sort((a, b) => b.pnl - a.pnl)[0]!;
    expect(j.rows[0].params).toEqual({ fast: best.fast, slow: best.slow });
    // btc-trend keeps its params but sizes on the shared account, so eth-trend's trades move its P&L
    // too: what the trials rank is the strategy inside the whole config, not alone
    expect(new Set(expected.map((e) => e.btc.toFixed(6))).size).toBeGreaterThan(1);
    // the P&L differs across the grid, so the ranking is not a tie that any order would pass
    expect(new Set(expected.map((e) => e.pnl.toFixed(6))).size).toBeGreaterThan(1);
  });

  it('ranks by the whole account with --objective portfolio', async () => {
    const r = await tune('fast=2|3', '--objective', 'portfolio', '--metric', 'final_equity', '--workers', '1', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout.trim());
    for (const row of j.rows) {
      const b = await runCli(['backtest', '--config', config(`p-${row.params.fast}.yaml`, row.params.fast, 5), ...data, '--json']);
      expect(row.metrics.final_equity).toBeCloseTo(JSON.parse(b.stdout.trim()).total.final_equity, 6);
    }
  });

  it("prints the tuned strategy's P&L, and says why there is no deflated Sharpe ratio", async () => {
    const r = await tune('fast=2|3', '--workers', '1');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rank\s+fast\s+return_pct\s+pnl\s+trades/);
    expect(r.stdout).toMatch(/deflated Sharpe ratio: n\/a \(a strategy's own figures inside a config have no equity curve/);
  });

  it('names the flag: a strategy not in the config, a grid key not in its params, a metric the objective lacks', async () => {
    const base = config('bot.yaml', 2, 5);
    const nope = await runCli(['optimize', '--config', base, '--strategy', 'eth-nope', '--grid', 'fast=2|3', ...data]);
    expect(nope.code).not.toBe(0);
    expect(nope.stderr).toMatch(/--strategy: "eth-nope" is not a strategy of .*bot\.yaml \(its strategies: btc-trend, eth-trend\)/);
    expect((await tune('fats=2|3')).stderr).toMatch(/--grid: fats: not a param of eth-trend \(plugin sma-cross, params: .*fast/);
    expect((await tune('fast=2|3', '--metric', 'sharpe')).stderr).toMatch(
      /--metric: sharpe is a figure of an equity curve.*--objective portfolio/,
    );
    expect((await tune('fast=2|3', '--walk-forward', '2')).stderr).toMatch(/--walk-forward: applies to one strategy on one series/);
    expect((await tune('fast=2|3', '--objective', 'both')).stderr).toMatch(/--objective: unknown objective "both"/);
  });
});
