/**
 * Several objectives at once (`tradeloop optimize --metric return,max_drawdown`): the Pareto front,
 * the trials no other trial beats on every objective. A trial is dominated when another is at least
 * as good on every objective and better on one (drawdown counts lower as better, the others higher).
 * The first metric still ranks the table and steers TPE; the front lists the trade-offs.
 */
import type { GridValue } from '../optimize/grid.js';
import { OPTIMIZE_METRICS, type OptimizeMetric, type OptimizeRow } from '../optimize/optimize.js';

export interface ParetoPoint {
  readonly params: Readonly<Record<string, GridValue>>;
  readonly trial?: number;
  readonly rank: number | null;
  /** The objectives' values, by metric name. */
  readonly values: Readonly<Record<string, number>>;
}

/** A row's value of a metric: over the whole series, or the mean in sample across folds. */
function valueOf(row: OptimizeRow, field: string): number | null {
  const values = row.folds ? row.folds.map((f) => f.inSample[field]) : [row.metrics?.[field]];
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/** The non-dominated rows, in rank order; rows without a value for some objective are left out. */
export function paretoFront(rows: readonly OptimizeRow[], metrics: readonly OptimizeMetric[]): ParetoPoint[] {
  const points = rows.flatMap((row) => {
    if (row.failed) return [];
    const v = metrics.map((m) => valueOf(row, OPTIMIZE_METRICS[m]));
    if (v.some((x) => x === null)) return [];
    // as "higher is better" throughout
    return [{ row, values: v as number[], better: v.map((x, i) => (metrics[i] === 'max_drawdown' ? -x! : x!)) }];
  });
  const dominates = (a: number[], b: number[]): boolean => a.every((x, i) => x >= b[i]!) && a.some((x, i) => x > b[i]!);
  return points
    .filter((p) => !points.some((q) => q !== p && dominates(q.better, p.better)))
    .map((p) => ({
      params: p.row.params,
      ...(p.row.trial !== undefined && { trial: p.row.trial }),
      rank: p.row.rank,
      values: Object.fromEntries(metrics.map((m, i) => [m, p.values[i]!])),
    }));
}
