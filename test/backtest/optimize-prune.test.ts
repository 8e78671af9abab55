/**
 * Early stopping of a --search under walk-forward folds: after 5 trials have run every fold, a trial
 * whose first fold's in-sample score is below the median of the finished ones is stopped, kept
 * unranked with that score and median, and counted; the first look runs the same segment as the
 * full run, so a stopped trial's recorded score equals its first fold in a full walk-forward run.
 */
import { describe, expect, it } from 'vitest';
import { runOptimize } from '../../backtest/optimize/optimize.js';
import { searchSpace } from '../../backtest/search/space.js';
import { runSearch } from '../../backtest/search/run.js';
import smaCross from '../../strategies/sma-cross.js';
import { randomWalk } from '../support/walk.js';

describe('runSearch early stopping', () => {
  it('stops trials whose first fold is below the median of the finished ones, and counts them', { timeout: 240_000 }, async () => {
    const series = randomWalk(900, 21);
    const space = searchSpace(smaCross.params, 'fast=2..20,slow=21..80');
    const r = await runSearch({
      strategy: 'sma-cross',
      series,
      metric: 'return',
      walkForward: 2,
      workers: 1,
      space,
      method: 'random',
      trials: 24,
      seed: 3,
    });
    const pruned = r.rows.filter((x) => x.pruned);
    expect(r.search.pruned).toBe(pruned.length);
    expect(pruned.length).toBeGreaterThan(0);
    expect(r.rows.filter((x) => x.rank !== null).length).toBe(24 - pruned.length);
    for (const p of pruned) {
      expect(p.rank).toBeNull();
      expect(p.trial!).toBeGreaterThanOrEqual(8); // the first batch of 8 has no 5 finished trials to compare with
      expect(p.pruned!.score!).toBeLessThan(p.pruned!.median);
    }
    // the recorded first-fold scores are those of a full walk-forward run of the same params
    const full = await runOptimize({
      strategy: 'sma-cross',
      series,
      metric: 'return',
      walkForward: 2,
      workers: 1,
      grid: { names: ['fast', 'slow'], combinations: pruned.map((p) => p.params) },
    });
    for (const p of pruned) expect(full.rows.find((x) => x.params === p.params)!.folds![0]!.inSample.return_pct).toBe(p.pruned!.score);
  });
});
