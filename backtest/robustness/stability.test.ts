import { describe, expect, it } from 'vitest';
import { parseGrid } from '../optimize/grid.js';
import type { FoldPick, OptimizeRow } from '../optimize/optimize.js';
import { stabilityMap, walkForwardEfficiency } from './stability.js';

/** Rows as the optimizer returns them: ranked by score (higher first), a failed one unranked. */
function rows(scores: Record<string, number | null>, names: string[]): OptimizeRow[] {
  const entries = Object.entries(scores).map(([k, score]) => ({
    params: Object.fromEntries(k.split(',').map((v, i) => [names[i]!, Number(v)])),
    score,
  }));
  const ok = entries.filter((e) => e.score !== null).sort((a, b) => b.score! - a.score!);
  return [
    ...ok.map((e, i) => ({ rank: i + 1, ...e })),
    ...entries
      .filter((e) => e.score === null)
      .map((e) => ({ rank: null, ...e, failed: true as const, error: 'fast must be smaller than slow' })),
  ];
}

describe('stabilityMap', () => {
  const grid = parseGrid('fast=5..15:5,slow=20..40:10');
  const scores = {
    '5,20': 0.2,
    '5,30': 0.5,
    '5,40': 0.4,
    '10,20': 0.3,
    '10,30': 1.2,
    '10,40': 0.9,
    '15,20': null,
    '15,30': 0.6,
    '15,40': 0.7,
  };

  it('maps the metric over the grid and measures how far the best falls one step away', () => {
    const map = stabilityMap(grid, rows(scores, ['fast', 'slow']), 'sharpe')!;
    expect(map.x).toEqual({ param: 'fast', values: [5, 10, 15] });
    expect(map.y).toEqual({ param: 'slow', values: [20, 30, 40] });
    expect(map.cells).toEqual([
      [0.2, 0.3, null],
      [0.5, 1.2, 0.6],
      [0.4, 0.9, 0.7],
    ]);
    expect(map.best).toEqual({ params: { fast: 10, slow: 30 }, score: 1.2 });
    const [fast, slow] = map.neighbours;
    expect(fast).toMatchObject({
      param: 'fast',
      value: 10,
      neighbours: [
        { value: 5, score: 0.5 },
        { value: 15, score: 0.6 },
      ],
    });
    expect(fast!.fall).toBeCloseTo(0.7, 12);
    expect(fast!.fallPct).toBeCloseTo(58.333, 3);
    expect(slow!.fall).toBeCloseTo(0.9, 12); // slow=20 gives 0.3
  });

  it('counts a rise in drawdown as the fall when lower is better', () => {
    const dd = { '5,20': 30, '5,30': 12, '5,40': 20, '10,20': 25, '10,30': 10, '10,40': 11, '15,20': 40, '15,30': 18, '15,40': 19 };
    const r = rows(dd, ['fast', 'slow'])
      .reverse()
      .map((row, i) => ({ ...row, rank: i + 1 }));
    const map = stabilityMap(grid, r, 'max_drawdown')!;
    expect(map.best).toEqual({ params: { fast: 10, slow: 30 }, score: 10 });
    expect(map.neighbours.map((n) => n.fall)).toEqual([8, 15]);
  });

  it('holds the best over a third varied parameter in each cell, and has no map when nothing varies', () => {
    const g3 = parseGrid('fast=5|10,slow=30,band=1|2');
    const r = rows({ '5,30,1': 0.1, '5,30,2': 0.4, '10,30,1': 0.8, '10,30,2': 0.3 }, ['fast', 'slow', 'band']);
    const map = stabilityMap(g3, r, 'sharpe')!;
    expect(map.x.param).toBe('fast');
    expect(map.y?.param).toBe('band');
    expect(map.bestOver).toEqual([]);
    const g4 = parseGrid('fast=5|10,slow=30|40,band=1|2');
    const r4 = rows(
      { '5,30,1': 0.1, '5,30,2': 0.4, '5,40,1': 0.2, '5,40,2': 0.9, '10,30,1': 0.8, '10,30,2': 0.3, '10,40,1': 0.5, '10,40,2': 0.6 },
      ['fast', 'slow', 'band'],
    );
    const m4 = stabilityMap(g4, r4, 'sharpe')!;
    expect(m4.bestOver).toEqual(['band']);
    expect(m4.cells).toEqual([
      [0.4, 0.8],
      [0.9, 0.6],
    ]);
    expect(stabilityMap(parseGrid('fast=5,slow=30'), rows({ '5,30': 1 }, ['fast', 'slow']), 'sharpe')).toBeUndefined();
  });
});

describe('walkForwardEfficiency', () => {
  const pick = (fold: number, is: number | null, oos: number | null): FoldPick => ({
    fold,
    params: { fast: 5 },
    inSampleScore: is,
    outOfSample: { sharpe: oos },
  });

  it('divides the mean out-of-sample metric of the choices by their mean in-sample metric', () => {
    const w = walkForwardEfficiency([pick(1, 2, 1), pick(2, 1, 0.5), pick(3, null, 3)], 'sharpe', 'sharpe');
    expect(w.efficiency).toBeCloseTo(0.75 / 1.5, 12);
    expect(w.folds).toHaveLength(3);
    expect(w.note).toMatch(/2 of 3 folds/);
  });

  it('is undefined when the in-sample mean is not above 0', () => {
    const w = walkForwardEfficiency([pick(1, -1, 0.5)], 'sharpe', 'sharpe');
    expect(w.efficiency).toBeNull();
    expect(w.note).toMatch(/not above 0/);
  });
});
