/**
 * The luck section of every `tradeloop optimize` result (backtest/luck/luck.ts): the deflated Sharpe
 * ratio of the best trial for the number of trials tried, and the best's parameters at the edge of
 * what was searched, as JSON fields and as sentences for the table and report.html.
 */
import type { Grid } from '../optimize/grid.js';
import { deflatedSharpe, edgeWarnings, type EdgeWarning, type SearchedRange } from './luck.js';
import { YEAR_MS } from '../metrics.js';
import { OPTIMIZE_METRICS, type OptimizeResult, type OptimizeRow } from '../optimize/optimize.js';
import { probabilityOfOverfitting } from './pbo.js';
import type { SearchSpace } from '../search/space.js';

export interface OptimizeLuck {
  readonly deflatedSharpe: {
    readonly dsr: number;
    readonly trials: number;
    readonly periods: number;
    /** The best's Sharpe ratio, annualised as the table shows it. */
    readonly bestSharpe: number;
    /** What the best of that many trials of no edge would show, annualised. */
    readonly expectedMaxSharpe: number;
    readonly assumesNormalReturns: true;
  } | null;
  /** Why there is no deflated Sharpe ratio (no Sharpe for the best, or fewer than 2 trials with one). */
  readonly deflatedSharpeMissing?: string;
  readonly edgeWarnings: readonly EdgeWarning[];
  /** With walk-forward: the probability of backtest overfitting over the K + 1 segments (backtest/luck/pbo.ts). */
  readonly pbo?: { readonly pbo: number; readonly splits: number; readonly segments: number };
}

/** The searched ranges of a grid: each varied numeric axis from its smallest to its largest value. */
export function gridRanges(grid: Grid): SearchedRange[] {
  return grid.names.flatMap((name) => {
    const values = [...new Set(grid.combinations.map((c) => c[name]))].filter((v): v is number => typeof v === 'number');
    return values.length > 2 ? [{ name, low: Math.min(...values), high: Math.max(...values), continuous: false }] : [];
  });
}

/** The searched ranges of a --search space: every numeric dimension. */
export function spaceRanges(space: SearchSpace): SearchedRange[] {
  return space.dimensions.flatMap((d) => (d.kind === 'number' ? [{ name: d.name, low: d.low, high: d.high, continuous: true }] : []));
}

/** The luck figures of a result over a series of `points` points spanning `spanMs`. */
export function optimizeLuck(result: OptimizeResult, points: number, spanMs: number, ranges: readonly SearchedRange[]): OptimizeLuck {
  const best = result.rows.find((r) => r.rank === 1);
  const warnings = best ? edgeWarnings(best.params, ranges) : [];
  const pbo = pboOf(result);
  const withPbo = <T extends object>(o: T): T => (pbo ? { ...o, pbo } : o);
  const folds = result.walkForward?.length;
  const periods = (folds === undefined ? points : Math.floor(points / (folds + 1))) - 1;
  const perYear = spanMs > 0 ? ((points - 1) * YEAR_MS) / spanMs : 0;
  const sharpes = result.rows.map(sharpeOf).filter((v): v is number => v !== null);
  const bestSharpe = best ? sharpeOf(best) : null;
  if (bestSharpe === null || sharpes.length < 2 || !(perYear > 0)) {
    return withPbo({
      deflatedSharpe: null,
      deflatedSharpeMissing:
        bestSharpe === null ? 'the best trial has no Sharpe ratio (no variation in its equity)' : 'fewer than 2 trials have a Sharpe ratio',
      edgeWarnings: warnings,
    });
  }
  const root = Math.sqrt(perYear);
  const mean = sharpes.reduce((a, b) => a + b, 0) / sharpes.length;
  const variance = sharpes.reduce((a, b) => a + (b - mean) ** 2, 0) / (sharpes.length - 1) / perYear;
  const d = deflatedSharpe({ sharpe: bestSharpe / root, periods, trials: result.rows.filter((r) => !r.failed).length, variance });
  return withPbo({
    deflatedSharpe: {
      dsr: d.dsr,
      trials: result.rows.filter((r) => !r.failed).length,
      periods,
      bestSharpe,
      expectedMaxSharpe: d.expectedMaxSharpe * root,
      assumesNormalReturns: true,
    },
    edgeWarnings: warnings,
  });
}

/** The ranking metric of every ranked trial on each segment: folds' in-sample parts, then the last fold's out-of-sample part. */
function pboOf(result: OptimizeResult): OptimizeLuck['pbo'] {
  if (result.walkForward === undefined) return undefined;
  const key = OPTIMIZE_METRICS[result.metric];
  const sign = result.metric === 'max_drawdown' ? -1 : 1;
  const perf = result.rows.flatMap((r) => {
    if (r.rank === null || !r.folds || r.folds.length === 0) return [];
    const values = [...r.folds.map((f) => f.inSample[key]), r.folds.at(-1)!.outOfSample[key]];
    return values.every((v): v is number => typeof v === 'number' && Number.isFinite(v)) ? [values.map((v) => sign * v)] : [];
  });
  return probabilityOfOverfitting(perf);
}

/** A trial's annualised Sharpe: over the whole series, or its mean in sample across folds. */
function sharpeOf(row: OptimizeRow): number | null {
  const values = row.folds ? row.folds.map((f) => f.inSample.sharpe) : [row.metrics?.sharpe];
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return known.length === 0 || row.failed ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/** The luck section for `--json`. */
export function luckToJson(l: OptimizeLuck): Record<string, unknown> {
  const d = l.deflatedSharpe;
  return {
    deflated_sharpe: d && {
      dsr: d.dsr,
      trials: d.trials,
      periods: d.periods,
      best_sharpe: d.bestSharpe,
      expected_max_sharpe: d.expectedMaxSharpe,
      assumes_normal_returns: true,
    },
    ...(l.deflatedSharpeMissing !== undefined && { deflated_sharpe_missing: l.deflatedSharpeMissing }),
    ...(l.pbo && { pbo: l.pbo }),
    warnings: l.edgeWarnings.map((w) => ({ param: w.param, value: w.value, edge: w.edge, message: w.message })),
  };
}

/** The luck section in words. */
export function luckLines(l: OptimizeLuck): string[] {
  const d = l.deflatedSharpe;
  const lines = d
    ? [
        `deflated Sharpe ratio ${d.dsr.toFixed(3)}: the probability that the best's true Sharpe ratio is above 0, given that it is the best of ${d.trials} trials (the best of ${d.trials} tries of no edge would show about ${d.expectedMaxSharpe.toFixed(3)} against its ${d.bestSharpe.toFixed(3)}); ${d.dsr >= 0.95 ? 'at or above 0.95, unlikely to be luck' : d.dsr >= 0.5 ? 'below 0.95, it may well be luck' : 'below 0.5, it is what luck alone would give'} (normal returns assumed; fat tails or left skew make it lower)`,
      ]
    : [`deflated Sharpe ratio: n/a (${l.deflatedSharpeMissing ?? 'unknown'})`];
  const pbo =
    l.pbo &&
    `probability of backtest overfitting ${l.pbo.pbo.toFixed(3)} (CSCV over ${l.pbo.segments} segments, ${l.pbo.splits} splits): how often the trial best in sample did no better than the median out of sample; ${l.pbo.pbo < 0.2 ? 'low, the choice carried over' : l.pbo.pbo < 0.5 ? 'the choice often did not carry over' : 'at 0.5 or above, the selection fits noise'}`;
  return [...lines, ...(pbo ? [pbo] : []), ...l.edgeWarnings.map((w) => `warning: ${w.message}`)];
}
