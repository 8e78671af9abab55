/**
 * `tradeloop optimize --search random|tpe --trials N --seed S`: trials drawn from the search space
 * (backtest/search/space.ts) at random or by TPE (backtest/search/tpe.ts), run in batches of
 * {@link SEARCH_BATCH} through runOptimize (threads or `--queue`), and ranked like a grid. The batch
 * size is fixed, not the number of workers, so a seed gives the same trials on any machine. Trials
 * finished earlier (a resumed study) are passed in and never run again; TPE's state is re-derived
 * from them, and the random draws are replayed, so a resumed study continues as if never stopped.
 */
import type { GridValue } from '../optimize/grid.js';
import {
  rank,
  runOptimize,
  OPTIMIZE_METRICS,
  type FoldPick,
  type OptimizeConfig,
  type OptimizeResult,
  type OptimizeRow,
} from '../optimize/optimize.js';
import { randomTrial, seededRandom, type SearchSpace } from './space.js';
import { tpeSuggest, type Observed } from './tpe.js';

export type SearchMethod = 'random' | 'tpe';

/** Trials drawn and run together: TPE learns from every finished batch. */
export const SEARCH_BATCH = 8;

/** A finished trial: its number and its unranked row. */
export interface TrialRecord {
  readonly number: number;
  readonly row: Omit<OptimizeRow, 'rank'>;
}

export interface SearchConfig extends Omit<OptimizeConfig, 'grid' | 'onProgress'> {
  readonly space: SearchSpace;
  readonly method: SearchMethod;
  readonly trials: number;
  readonly seed: number;
  readonly previous?: readonly TrialRecord[];
  /** Called with trials as they finish: each run trial as its last segment ends, the stopped-early ones with their batch (the study saves them). */
  readonly onTrials?: (trials: readonly TrialRecord[]) => void;
  /**
   * Aborted: the search stops at once, the running trials with it (their threads terminated), and
   * answers the trials finished so far, with `stopped`.
   */
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, total: number, best: OptimizeRow | undefined) => void;
}

export interface SearchResult extends OptimizeResult {
  readonly search: {
    readonly method: SearchMethod;
    readonly seed: number;
    readonly trials: number;
    readonly pruned: number;
    readonly resumed: number;
    readonly ran: number;
    readonly stopped: boolean;
    readonly exhausted: boolean;
  };
}

/** Runs the search; answers every trial (earlier ones included), ranked. */
export async function runSearch(cfg: SearchConfig): Promise<SearchResult> {
  const rand = seededRandom(cfg.seed);
  const done: TrialRecord[] = [...(cfg.previous ?? [])].sort((a, b) => a.number - b.number);
  const seen = new Set<string>();
  const keyOf = (p: Readonly<Record<string, GridValue>>): string => JSON.stringify(cfg.space.dimensions.map((d) => p[d.name]));
  const sign = cfg.metric === 'max_drawdown' ? 1 : -1;
  const observed = (): Observed[] =>
    done.map((t) => ({ params: t.row.params, loss: t.row.score === null || t.row.score === undefined ? null : sign * t.row.score }));
  let workers = 1;
  let workerCode: OptimizeResult['workerCode'];
  let stopped = false;
  let exhausted = false;
  // the draws replay from the seed: the trials already finished are drawn again and skipped
  let drawn = 0;
  const draw = (history: Observed[]): Record<string, GridValue> | undefined => {
    for (let tries = 0; tries < 100; tries++) {
      const p = cfg.method === 'tpe' && tries < 20 ? tpeSuggest(cfg.space, history, rand) : randomTrial(cfg.space, rand);
      if (!seen.has(keyOf(p))) return p;
    }
    return undefined;
  };
  while (drawn < cfg.trials) {
    const history = observed().slice(0, drawn);
    const batch: Array<Record<string, GridValue>> = [];
    const size = Math.min(SEARCH_BATCH, cfg.trials - drawn);
    while (batch.length < size) {
      const p = draw(history);
      if (p === undefined) break;
      seen.add(keyOf(p));
      batch.push(p);
    }
    if (batch.length === 0) {
      exhausted = true;
      break;
    }
    const known = batch.map((p, i) => done.find((t) => t.number === drawn + i && keyOf(t.row.params) === keyOf(p)));
    const pending = batch.filter((_, i) => known[i] === undefined);
    if (pending.length > 0) {
      if (cfg.signal?.aborted) {
        stopped = true;
        break;
      }
      const names = Object.keys(batch[0]!);
      const pruned = await firstLook(cfg, done, pending, names);
      const survivors = pending.filter((p) => !pruned.has(p) && !cfg.signal?.aborted);
      const numberOf = (p: Readonly<Record<string, GridValue>>): number => drawn + batch.indexOf(p as Record<string, GridValue>);
      // each trial saved as it ends, so a study killed mid-batch keeps it
      const onRow = cfg.onTrials && ((row: Omit<OptimizeRow, 'rank'>): void => cfg.onTrials!([{ number: numberOf(row.params), row }]));
      const r =
        survivors.length === 0
          ? undefined
          : await runOptimize({ ...cfg, onProgress: undefined, ...(onRow && { onRow }), grid: { names, combinations: survivors } });
      workers = r?.workers ?? workers;
      workerCode = r?.workerCode ?? workerCode;
      const finished = (p: Record<string, GridValue>): Omit<OptimizeRow, 'rank'> | undefined =>
        pruned.get(p) ?? ((row) => row && strip(row))(r?.rows.find((row) => row.params === p));
      const fresh = pending.flatMap((p) => ((row) => (row === undefined ? [] : [{ number: numberOf(p), row }]))(finished(p)));
      done.push(...fresh);
      done.sort((a, b) => a.number - b.number);
      cfg.onTrials?.(fresh.filter((t) => t.row.pruned !== undefined));
      if (fresh.length < pending.length) {
        stopped = true;
        break;
      }
    }
    drawn += batch.length;
    cfg.onProgress?.(
      Math.min(drawn, cfg.trials),
      cfg.trials,
      rank(
        done.map((t) => t.row),
        cfg.metric,
      )[0],
    );
  }
  const rows = rank(
    done.map((t) => ({ trial: t.number, ...t.row })),
    cfg.metric,
  );
  return {
    metric: cfg.metric,
    workers,
    ...(workerCode && { workerCode }),
    combinations: done.length,
    rows,
    failed: rows.filter((r) => r.failed).length,
    ...(cfg.walkForward !== undefined && { walkForward: picksOfRows(rows, OPTIMIZE_METRICS[cfg.metric], cfg.metric === 'max_drawdown') }),
    search: {
      method: cfg.method,
      seed: cfg.seed,
      trials: done.length,
      pruned: rows.filter((r) => r.pruned).length,
      resumed: cfg.previous?.length ?? 0,
      ran: done.length - (cfg.previous?.length ?? 0),
      stopped,
      exhausted,
    },
  };
}

/** Finished trials with folds a first look needs before it may stop anything (Optuna's MedianPruner waits for 5). */
export const PRUNE_STARTUP = 5;

/**
 * Early stopping with walk-forward folds (K ≥ 2), Optuna's MedianPruner rule at the first fold: once
 * {@link PRUNE_STARTUP} trials have finished every fold, each new trial first runs only its first
 * fold's in-sample segment; a trial whose score there is worse than the median of the finished
 * trials' first-fold in-sample scores is stopped (its other segments never run) and kept unranked
 * with `pruned`. Answers the stopped trials' rows.
 */
async function firstLook(
  cfg: SearchConfig,
  done: readonly TrialRecord[],
  pending: ReadonlyArray<Record<string, GridValue>>,
  names: readonly string[],
): Promise<Map<Record<string, GridValue>, Omit<OptimizeRow, 'rank'>>> {
  const out = new Map<Record<string, GridValue>, Omit<OptimizeRow, 'rank'>>();
  if (cfg.walkForward === undefined || cfg.walkForward < 2) return out;
  const key = OPTIMIZE_METRICS[cfg.metric];
  const firsts = done.flatMap((t) => {
    const v = t.row.folds?.[0]?.inSample[key];
    return typeof v === 'number' && Number.isFinite(v) ? [v] : [];
  });
  if (firsts.length < PRUNE_STARTUP) return out;
  const sorted = [...firsts].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const look = await runOptimize({ ...cfg, onProgress: undefined, onlySegment: 0, grid: { names, combinations: pending } });
  for (const p of pending) {
    const row = look.rows.find((r) => r.params === p);
    if (row === undefined || row.failed) continue; // stopped before it ended; or run in full: it fails there with its reason
    const worse = row.score === null || (cfg.metric === 'max_drawdown' ? row.score > median : row.score < median);
    if (worse) out.set(p, { params: p, score: null, pruned: { fold: 1, score: row.score, median } });
  }
  return out;
}

function strip(row: OptimizeRow): Omit<OptimizeRow, 'rank'> {
  const { rank: _rank, ...rest } = row;
  return rest;
}

/** Walk-forward selection over the rows' folds: per fold, the best in-sample trial and its out-of-sample figures. */
export function picksOfRows(rows: readonly OptimizeRow[], key: string, lowerBetter: boolean): FoldPick[] {
  const out: FoldPick[] = [];
  const folds = rows.find((r) => r.folds)?.folds?.length ?? 0;
  for (let k = 0; k < folds; k++) {
    let best: FoldPick | undefined;
    for (const r of rows) {
      const f = r.folds?.[k];
      if (!f) continue;
      const v = f.inSample[key];
      const score = typeof v === 'number' && Number.isFinite(v) ? v : null;
      const better =
        best === undefined ||
        (score !== null && (best.inSampleScore === null || (lowerBetter ? score < best.inSampleScore : score > best.inSampleScore)));
      if (better) best = { fold: k + 1, params: r.params, inSampleScore: score, outOfSample: f.outOfSample };
    }
    if (best) out.push(best);
  }
  return out;
}
