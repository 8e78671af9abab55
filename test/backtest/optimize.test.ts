/**
 * The optimizer: grid parsing, worker threads that load TypeScript, ranking, bad combinations as
 * rows with their reason, and walk-forward folds whose out-of-sample figures equal a plain backtest
 * of the chosen parameters on the next segment.
 */
import { describe, expect, it } from 'vitest';
import { parseGrid } from '../../backtest/optimize/grid.js';
import { runOptimize, segmentBounds } from '../../backtest/optimize/optimize.js';
import { runBacktest } from '../../backtest/run.js';
import { metricsToJson } from '../../backtest/metrics.js';
import { randomWalk } from '../support/walk.js';
import { resolveParams } from '../../src/strategy/index.js';
import smaCross from '../../strategies/sma-cross.js';

const walk = (n: number, seed: number) => randomWalk(n, seed);

describe('parseGrid', () => {
  it('expands ranges, lists and fixed values, first name slowest', () => {
    const g = parseGrid('fast=5..15:5,slow=20|40,size_pct=50');
    expect(g.names).toEqual(['fast', 'slow', 'size_pct']);
    expect(g.combinations).toEqual([
      { fast: 5, slow: 20, size_pct: 50 },
      { fast: 5, slow: 40, size_pct: 50 },
      { fast: 10, slow: 20, size_pct: 50 },
      { fast: 10, slow: 40, size_pct: 50 },
      { fast: 15, slow: 20, size_pct: 50 },
      { fast: 15, slow: 40, size_pct: 50 },
    ]);
    expect(parseGrid('x=0.1..0.3:0.1').combinations.map((c) => c.x)).toEqual([0.1, 0.2, 0.3]);
  });

  it('names the flag and the fix for bad entries', () => {
    expect(() => parseGrid('fast')).toThrow(/--grid: entry "fast" is not name=values/);
    expect(() => parseGrid('fast=30..5:5')).toThrow(/runs backwards; write 5..30/);
    expect(() => parseGrid('fast=5..30:0')).toThrow(/step must be greater than 0/);
    expect(() => parseGrid('fast=1,fast=2')).toThrow(/appears twice/);
  });
});

describe('runOptimize', () => {
  const series = walk(600, 3);

  it('runs every combination on worker threads and ranks by the metric, matching in-thread backtests', async () => {
    const grid = parseGrid('fast=4..8:4,slow=8|20');
    const result = await runOptimize({ strategy: 'sma-cross', series, grid, metric: 'return', workers: 2 });
    expect(result.workers).toBe(2);
    expect(result.rows).toHaveLength(4);
    const bad = result.rows.find((r) => r.params.fast === 8 && r.params.slow === 8);
    expect(bad?.error).toMatch(/fast must be smaller than slow/);
    expect(result.rows.at(-1)).toBe(bad);
    const scores = result.rows.filter((r) => r.score !== null).map((r) => r.score!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const top = result.rows[0]!;
    const direct = await runBacktest({ definition: smaCross, params: resolveParams(smaCross, top.params), series });
    expect(top.metrics).toEqual({ ...metricsToJson(direct.metrics), fees: Number(direct.feesPaid) });
  });

  it('walk-forward: picks on the in-sample segment and scores the next, unseen one', async () => {
    const grid = parseGrid('fast=3|5,slow=10|30');
    const result = await runOptimize({ strategy: 'sma-cross', series, grid, metric: 'sharpe', workers: 2, walkForward: 2 });
    const bounds = segmentBounds(series.length, 2);
    expect(bounds).toEqual([
      [0, 200],
      [200, 400],
      [400, 600],
    ]);
    expect(result.walkForward).toHaveLength(2);
    const pick = result.walkForward![1]!;
    const oos = await runBacktest({
      definition: smaCross,
      params: resolveParams(smaCross, pick.params),
      series,
      range: { start: 400, end: 600 },
    });
    expect(pick.outOfSample.return_pct).toBe(metricsToJson(oos.metrics).return_pct);
    const best = Math.max(...result.rows.map((r) => r.folds![1]!.inSample.sharpe as number));
    expect(pick.inSampleScore).toBe(best);
  });
});
