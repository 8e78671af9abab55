import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStrategy, resolveParams } from '../src/strategy/index.js';
import { randomWalk } from '../test/support/walk.js';
import { writeBacktestReport } from './report/report.js';
import { runBacktest } from './run.js';

describe('exit reasons in a backtest', () => {
  it('names why each round trip closed (a stop-loss or the strategy signal), in the run and in trades.csv', async () => {
    const definition = await loadStrategy('sma-cross');
    const series = randomWalk(3_000, 11, { start: 30_000, vol: 0.015, from: Date.UTC(2023, 0, 1), source: 'walk-11' });
    const run = await runBacktest({ definition, params: resolveParams(definition, { fast: 5, slow: 20, stop_loss_pct: 1 }), series });
    expect(run.trades.length).toBeGreaterThan(5);
    expect(run.exitReasons).toHaveLength(run.trades.length);
    expect(new Set(run.exitReasons)).toEqual(new Set(['stop-loss', 'signal']));
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-exits-'));
    const files = writeBacktestReport(dir, {
      strategy: 'sma-cross',
      market: run.market,
      times: run.times,
      prices: run.prices,
      equity: run.equity,
      trades: run.trades,
      exitReasons: run.exitReasons!,
      metrics: run.metrics,
      units: run.units,
      assumptions: { initial: 'USD=10000', feeBps: 10, slippageBps: 0, fillRule: 'next point' },
    });
    const rows = readFileSync(files.trades, 'utf8').trimEnd().split('\n');
    expect(rows[0]!.endsWith(',exit_reason')).toBe(true);
    expect(rows.slice(1).map((r) => r.split(',').at(-1))).toEqual(run.exitReasons);
  });
});
