/**
 * Is an optimizer's best result a plateau or a spike? (`tradeloop optimize`, issue 25.)
 *
 * - **Parameter-stability map**: the ranking metric over the grid, as a heat map of the first two
 *   varied parameters (x the first, y the second; one row when only one varies). With more than two
 *   varied parameters each cell holds the best value over the others, which the map names.
 * - **Neighbour fall**: for the best combination and each varied parameter, the metric one step
 *   below and above it in the grid (the other parameters unchanged), and the fall to the worse of
 *   the two: best − neighbour (neighbour − best for max_drawdown, where lower is better), so a
 *   positive fall is always "worse", and as a percent of |best|. A large fall means the best result
 *   depends on that exact value.
 * - **Walk-forward efficiency** (with `--walk-forward K`): the mean out-of-sample metric of each fold's
 *   choice over its mean in-sample metric. Near 1 the choice held on unseen data; near 0 or negative
 *   it was fitted to noise. Undefined (null) when the in-sample mean is not above 0; for
 *   max_drawdown above 1 means the drawdown grew out of sample.
 */
import type { Grid, GridValue } from '../optimize/grid.js';
import type { FoldPick, OptimizeMetric, OptimizeRow } from '../optimize/optimize.js';

export interface StabilityAxis {
  readonly param: string;
  readonly values: readonly GridValue[];
}

export interface NeighbourFall {
  readonly param: string;
  readonly value: GridValue;
  /** The grid's values one step below and above (absent at an edge), with their metric. */
  readonly neighbours: ReadonlyArray<{ readonly value: GridValue; readonly score: number | null }>;
  /** How much worse the worse neighbour is (≥ 0 is worse; null without a neighbour that ran). */
  readonly fall: number | null;
  readonly fallPct: number | null;
}

export interface StabilityMap {
  readonly metric: OptimizeMetric;
  readonly x: StabilityAxis;
  readonly y?: StabilityAxis;
  /** cells[yi][xi]: the metric (null: failed or undefined). One row without y. */
  readonly cells: ReadonlyArray<ReadonlyArray<number | null>>;
  /** Varied parameters beyond x and y, over which each cell holds the best value. */
  readonly bestOver: readonly string[];
  readonly best?: { readonly params: Readonly<Record<string, GridValue>>; readonly score: number };
  readonly neighbours: readonly NeighbourFall[];
}

export interface WalkForwardEfficiency {
  readonly efficiency: number | null;
  readonly inSampleMean: number | null;
  readonly outOfSampleMean: number | null;
  readonly folds: ReadonlyArray<{ readonly fold: number; readonly inSample: number | null; readonly outOfSample: number | null }>;
  readonly note: string;
}

/** Builds the map from the optimizer's rows; undefined when no parameter varies. */
export function stabilityMap(grid: Grid, rows: readonly OptimizeRow[], metric: OptimizeMetric): StabilityMap | undefined {
  const axes = grid.names
    .map((param) => ({ param, values: distinct(grid.combinations.map((c) => c[param]!)) }))
    .filter((a) => a.values.length > 1);
  const [x, y, ...rest] = axes;
  if (x === undefined) return undefined;
  const lowerBetter = metric === 'max_drawdown';
  const better = (a: number, b: number): boolean => (lowerBetter ? a < b : a > b);
  const scores = new Map(rows.map((r) => [keyOf(grid.names, r.params), r.failed ? null : r.score]));
  const ys = y?.values ?? [undefined];
  const cells = ys.map(() => x.values.map((): number | null => null));
  for (const c of grid.combinations) {
    const s = scores.get(keyOf(grid.names, c)) ?? null;
    const yi = y === undefined ? 0 : y.values.indexOf(c[y.param]!);
    const xi = x.values.indexOf(c[x.param]!);
    const cur = cells[yi]![xi]!;
    if (s !== null && (cur === null || better(s, cur))) cells[yi]![xi] = s;
  }
  const top = rows.find((r) => r.rank === 1 && r.score !== null);
  const best = top ? { params: top.params, score: top.score! } : undefined;
  const neighbours = best ? axes.map((a) => neighbourFall(grid.names, a, best, scores, lowerBetter)) : [];
  return { metric, x, ...(y && { y }), cells, bestOver: rest.map((a) => a.param), ...(best && { best }), neighbours };
}

function neighbourFall(
  names: readonly string[],
  axis: StabilityAxis,
  best: { params: Readonly<Record<string, GridValue>>; score: number },
  scores: ReadonlyMap<string, number | null>,
  lowerBetter: boolean,
): NeighbourFall {
  const value = best.params[axis.param]!;
  const i = axis.values.indexOf(value);
  const neighbours = [i - 1, i + 1]
    .filter((j) => j >= 0 && j < axis.values.length)
    .map((j) => {
      const v = axis.values[j]!;
      return { value: v, score: scores.get(keyOf(names, { ...best.params, [axis.param]: v })) ?? null };
    });
  const falls = neighbours.filter((n) => n.score !== null).map((n) => (lowerBetter ? n.score! - best.score : best.score - n.score!));
  const fall = falls.length ? Math.max(...falls) : null;
  return {
    param: axis.param,
    value,
    neighbours,
    fall,
    fallPct: fall !== null && best.score !== 0 ? (fall / Math.abs(best.score)) * 100 : null,
  };
}

/** Out-of-sample over in-sample for the folds' choices, on the ranking metric. */
export function walkForwardEfficiency(picks: readonly FoldPick[], metric: OptimizeMetric, metricKey: string): WalkForwardEfficiency {
  const folds = picks.map((p) => ({ fold: p.fold, inSample: finite(p.inSampleScore), outOfSample: finite(p.outOfSample[metricKey]) }));
  const pairs = folds.filter((f) => f.inSample !== null && f.outOfSample !== null);
  const inSampleMean = mean(pairs.map((f) => f.inSample!));
  const outOfSampleMean = mean(pairs.map((f) => f.outOfSample!));
  let note = `mean out-of-sample ${metricKey} over mean in-sample ${metricKey} of each fold's choice (${pairs.length} of ${folds.length} folds with both)`;
  let efficiency: number | null = null;
  if (inSampleMean === null || outOfSampleMean === null) note = `no fold has both an in-sample and an out-of-sample ${metricKey}`;
  else if (!(inSampleMean > 0)) note = `undefined: the mean in-sample ${metricKey} is ${inSampleMean.toFixed(3)}, not above 0`;
  else efficiency = outOfSampleMean / inSampleMean;
  if (metric === 'max_drawdown' && efficiency !== null) note += '; for max_drawdown above 1 means the drawdown grew out of sample';
  return { efficiency, inSampleMean, outOfSampleMean, folds, note };
}

function keyOf(names: readonly string[], params: Readonly<Record<string, GridValue>>): string {
  return JSON.stringify(names.map((n) => params[n]));
}

function distinct(values: readonly GridValue[]): GridValue[] {
  const out: GridValue[] = [];
  for (const v of values) if (!out.includes(v)) out.push(v);
  return out;
}

function finite(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}
