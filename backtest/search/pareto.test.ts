import { describe, expect, it } from 'vitest';
import type { OptimizeRow } from '../optimize/optimize.js';
import { paretoFront } from './pareto.js';

const row = (rank: number, x: number, ret: number, dd: number): OptimizeRow => ({
  rank,
  params: { x },
  score: ret,
  metrics: { return_pct: ret, max_drawdown_pct: dd },
});

describe('paretoFront', () => {
  it('keeps the trials no other beats on every objective, drawdown lower as better', () => {
    const rows = [
      row(1, 1, 30, 20),
      row(2, 2, 20, 10),
      row(3, 3, 20, 15),
      row(4, 4, 10, 5),
      row(5, 5, 5, 5),
      { rank: null, params: { x: 6 }, score: null, failed: true as const },
    ];
    expect(paretoFront(rows, ['return', 'max_drawdown']).map((p) => p.params.x)).toEqual([1, 2, 4]);
    expect(paretoFront(rows, ['return', 'max_drawdown'])[1]!.values).toEqual({ return: 20, max_drawdown: 10 });
    // one objective: the best alone (ties kept)
    expect(paretoFront(rows, ['return']).map((p) => p.params.x)).toEqual([1]);
  });
});
