/**
 * `tradeloop optimize`: backtests every combination of a parameter grid across worker threads (all
 * cores by default) and ranks them by one metric. With walk-forward K, the points are cut into K + 1
 * equal segments; fold k picks its parameters on segment k − 1 (in sample) and is scored on segment
 * k (out of sample), so the out-of-sample figures come from data the choice never saw. Each
 * combination runs once per segment; the ranking uses the mean in-sample score.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { InputError, TradeloopError } from '../../src/core/index.js';
import type { RiskLimits } from '../../src/risk/index.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import type { Grid, GridValue } from './grid.js';
import { workerBoot, type WorkerBoot, type WorkerCode } from './boot.js';
import { holdPoolHeapGrowth } from './pool-heap.js';
import { barColumnsOf, type BarColumns, type FromWorker, type Job, type JobContext, type JobMetrics, type JobResult } from './job.js';
import type { IntrabarRule } from '../../src/fills/point/bar-range.js';
import { sharedColumn } from '../shared-series.js';
import type { PortfolioJobSpec } from './portfolio-job.js';
import { OPTIMIZE_METRICS, type OptimizeMetric } from './metric-names.js';

/** Metrics the optimizer ranks by, and the JSON field each reads (metric-names.ts). Drawdown ranks lowest first. */
export { OPTIMIZE_METRICS, type OptimizeMetric };

export interface OptimizeConfig {
  readonly strategy: string;
  /** The points; an OHLCV file's other columns with them fill orders inside each bar, as a backtest does. */
  readonly series: PriceSeriesLike & Partial<BarColumns>;
  /** Over OHLCV rows, which extreme of a bar came first where the data cannot say (default adverse). */
  readonly intrabar?: IntrabarRule;
  readonly grid: Grid;
  readonly metric: OptimizeMetric;
  readonly workers?: number;
  readonly walkForward?: number;
  readonly baseParams?: Readonly<Record<string, unknown>>;
  readonly feeBps?: number;
  readonly slippageBps?: number;
  readonly initial?: Readonly<Record<string, string>>;
  readonly limits?: RiskLimits;
  /** Tunes one strategy inside a config: every trial replays the whole config (portfolio-job.ts); `series` is its first market's. */
  readonly portfolio?: PortfolioJobSpec;
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Stops the run at once when aborted: the threads are terminated mid-job, and the result holds only
   * the combinations whose every segment finished (with `stopped`). Local threads only (not `runJobs`).
   */
  readonly signal?: AbortSignal;
  /** Called with each combination's row as its last segment finishes (a study saves it then). */
  readonly onRow?: (row: Omit<OptimizeRow, 'rank'>) => void;
  /**
   * Runs only this walk-forward segment (0 = the first fold's in-sample part) and scores each
   * combination on it, as without folds: the first look of early stopping (backtest/search/run.ts).
   */
  readonly onlySegment?: number;
  /**
   * What the worker threads run: `auto` (the default) the compiled kernel in dist/ when that build
   * is current, else the TypeScript sources through tsx; `source` always the sources.
   */
  readonly workerCode?: 'auto' | 'source';
  /**
   * Runs the jobs somewhere else than this machine's threads (`--queue`: src/queue/study.ts) and
   * answers one result per job, in job order; the ranking below is the same either way.
   */
  readonly runJobs?: (
    ctx: JobContext,
    jobs: readonly Job[],
    onProgress?: (done: number, total: number) => void,
  ) => Promise<{ results: JobResult[]; workers: number }>;
}

export interface FoldResult {
  readonly fold: number;
  readonly inSample: JobMetrics;
  readonly outOfSample: JobMetrics;
}

export interface OptimizeRow {
  /** 1 for the best; null for a combination that failed (listed after every ranked row). */
  readonly rank: number | null;
  /** The trial's number in a `--search random|tpe` study, in the order the trials were drawn. */
  readonly trial?: number;
  readonly params: Readonly<Record<string, GridValue>>;
  /** The metric: over all points, or the mean in-sample value across folds. */
  readonly score: number | null;
  /** Mean out-of-sample value of the metric across folds (walk-forward only). */
  readonly outOfSampleScore?: number | null;
  readonly metrics?: JobMetrics;
  readonly folds?: readonly FoldResult[];
  /**
   * Walk-forward only: the mean across folds, in sample and out of sample, of the metric and of the
   * figures a reader judges a choice by (return, drawdown, round trips, fees).
   */
  readonly inSampleMean?: JobMetrics;
  readonly outOfSampleMean?: JobMetrics;
  /** True when the combination could not run or its strategy stopped; `error` says why. */
  readonly failed?: true;
  /** Why the combination failed (e.g. fast must be smaller than slow, or the strategy threw). */
  readonly error?: string;
  /** Stopped early (`--search` with walk-forward): its first fold's in-sample score and the median it fell short of. Not ranked. */
  readonly pruned?: { readonly fold: number; readonly score: number | null; readonly median: number };
}

/** The figures averaged across walk-forward folds, besides the ranking metric. */
export const FOLD_FIGURES = ['return_pct', 'max_drawdown_pct', 'trades', 'fees'] as const;

/** Walk-forward selection: per fold, the best in-sample combination and its out-of-sample metrics. */
export interface FoldPick {
  readonly fold: number;
  readonly params: Readonly<Record<string, GridValue>>;
  readonly inSampleScore: number | null;
  readonly outOfSample: JobMetrics;
}

export interface OptimizeResult {
  readonly metric: OptimizeMetric;
  readonly workers: number;
  /** How this machine's threads loaded their code (absent when `runJobs` ran the jobs elsewhere). */
  readonly workerCode?: {
    readonly code: WorkerCode;
    readonly pluginLoader: boolean;
    /** False when a job outgrew a lean thread heap (LEAN_THREAD_HEAP) and the threads ran without the limit. */
    readonly leanHeap: boolean;
    readonly reason?: string;
  };
  readonly combinations: number;
  /** Ranked rows first, then the failed ones (rank null). */
  readonly rows: readonly OptimizeRow[];
  /** How many combinations failed. */
  readonly failed: number;
  readonly walkForward?: readonly FoldPick[];
  /** The signal stopped the run before every combination finished: `rows` are the finished ones. */
  readonly stopped?: true;
}

/** Runs the grid and ranks it. */
export async function runOptimize(cfg: OptimizeConfig): Promise<OptimizeResult> {
  const workers = Math.max(1, Math.min(cfg.workers ?? availableParallelism(), cfg.grid.combinations.length));
  const all = segmentBounds(cfg.series.length, cfg.walkForward);
  const segments = cfg.onlySegment === undefined ? all : [all[cfg.onlySegment]!];
  const walk = cfg.walkForward !== undefined && cfg.onlySegment === undefined;
  const jobs: Job[] = [];
  cfg.grid.combinations.forEach((params) => segments.forEach(([start, end]) => jobs.push({ id: jobs.length, params, start, end })));
  const bars = barColumnsOf(cfg.series);
  const ctx: JobContext = {
    strategy: cfg.strategy,
    source: cfg.series.source,
    times: cfg.series.times,
    prices: cfg.series.prices,
    ...(bars && { bars }),
    ...(cfg.intrabar !== undefined && { intrabar: cfg.intrabar }),
    baseParams: cfg.baseParams ?? {},
    feeBps: cfg.feeBps ?? 10,
    slippageBps: cfg.slippageBps ?? 0,
    initial: cfg.initial ?? { USD: '10000' },
    ...(cfg.limits && { limits: cfg.limits }),
    ...(cfg.portfolio && { portfolio: cfg.portfolio }),
  };
  const boot = cfg.runJobs ? undefined : workerBoot(cfg.strategy, cfg.workerCode === 'source' ? { prefer: 'source' } : {});
  const key = OPTIMIZE_METRICS[cfg.metric];
  const onResult = cfg.onRow && rowWhenDone(cfg.grid.combinations, segments.length, (params, r) => cfg.onRow!(rowOf(params, r, key, walk)));
  const pool =
    boot &&
    (await runPool(ctx, jobs, workers, boot, {
      ...(cfg.onProgress && { onProgress: cfg.onProgress }),
      ...(cfg.signal && { signal: cfg.signal }),
      ...(onResult && { onResult }),
    }));
  const ran = cfg.runJobs ? await cfg.runJobs(ctx, jobs, cfg.onProgress) : { results: pool ? pool.results : [], workers };
  if (cfg.runJobs && onResult) ran.results.forEach(onResult);
  const results = ran.results;
  // a stopped run's unfinished combinations have a segment without a result: left out
  const perCombo = cfg.grid.combinations
    .map((params, c) => ({ params, results: segments.map((_, s) => results[c * segments.length + s]!) }))
    .filter((c) => c.results.every((r) => r !== undefined));
  const unranked = perCombo.map(({ params, results: r }) => rowOf(params, r, key, walk));
  const rows = rank(unranked, cfg.metric);
  return {
    metric: cfg.metric,
    workers: ran.workers,
    ...(boot &&
      pool && {
        workerCode: {
          code: boot.code,
          pluginLoader: boot.pluginLoader,
          leanHeap: pool.lean,
          ...(boot.reason !== undefined && { reason: boot.reason }),
        },
      }),
    combinations: perCombo.length,
    rows,
    failed: rows.filter((r) => r.failed).length,
    ...(walk && { walkForward: picks(perCombo, key, cfg.metric, segments.length - 1) }),
    ...(perCombo.length < cfg.grid.combinations.length && { stopped: true as const }),
  };
}

/** [start, end) of each segment: the whole series, or K + 1 equal parts for walk-forward K. */
export function segmentBounds(length: number, walkForward?: number): Array<[number, number]> {
  if (walkForward === undefined) return [[0, length]];
  if (!Number.isInteger(walkForward) || walkForward < 1)
    throw new InputError('--walk-forward', `expected a whole number of folds ≥ 1, got ${walkForward}`);
  const parts = walkForward + 1;
  if (length < parts * 10)
    throw new InputError('--walk-forward', `${length} points cannot make ${parts} segments of at least 10 points; use fewer folds`);
  return Array.from({ length: parts }, (_, k) => [Math.floor((k * length) / parts), Math.floor(((k + 1) * length) / parts)]);
}

function rowOf(
  params: Readonly<Record<string, GridValue>>,
  r: readonly JobResult[],
  key: string,
  walk: boolean,
): Omit<OptimizeRow, 'rank'> {
  const failed = r.find((x) => !x.ok);
  if (failed && !failed.ok) return { params, score: null, failed: true, error: failed.error };
  const m = r.map((x) => (x.ok ? x.metrics : {}));
  if (!walk) return { params, score: num(m[0]![key]), metrics: m[0]! };
  const folds = m.slice(1).map((oos, k) => ({ fold: k + 1, inSample: m[k]!, outOfSample: oos }));
  const means = (side: 'inSample' | 'outOfSample'): JobMetrics =>
    Object.fromEntries([key, ...FOLD_FIGURES].map((f) => [f, mean(folds.map((x) => num(x[side][f])))]));
  return {
    params,
    score: mean(folds.map((f) => num(f.inSample[key]))),
    outOfSampleScore: mean(folds.map((f) => num(f.outOfSample[key]))),
    folds,
    inSampleMean: means('inSample'),
    outOfSampleMean: means('outOfSample'),
  };
}

/** Ranks the rows that ran by the metric (a null score last among them); failed rows follow, unranked. */
export function rank(rows: Array<Omit<OptimizeRow, 'rank'>>, metric: OptimizeMetric): OptimizeRow[] {
  const sign = metric === 'max_drawdown' ? 1 : -1;
  const ran = rows.filter((r) => !r.failed && !r.pruned);
  const sorted = [...ran].sort((a, b) => (a.score === null ? 1 : b.score === null ? -1 : sign * (a.score - b.score)));
  return [
    ...sorted.map((r, i) => ({ rank: i + 1, ...r })),
    ...rows.filter((r) => r.pruned && !r.failed).map((r) => ({ rank: null, ...r })),
    ...rows.filter((r) => r.failed).map((r) => ({ rank: null, ...r })),
  ];
}

function picks(
  perCombo: Array<{ params: Readonly<Record<string, GridValue>>; results: JobResult[] }>,
  key: string,
  metric: OptimizeMetric,
  folds: number,
): FoldPick[] {
  const better = (a: number, b: number): boolean => (metric === 'max_drawdown' ? a < b : a > b);
  const out: FoldPick[] = [];
  for (let k = 1; k <= folds; k++) {
    let best: { params: Readonly<Record<string, GridValue>>; score: number | null; oos: JobMetrics } | undefined;
    for (const c of perCombo) {
      const is = c.results[k - 1]!;
      const oos = c.results[k]!;
      if (!is.ok || !oos.ok) continue;
      const score = num(is.metrics[key]);
      if (!best || (score !== null && (best.score === null || better(score, best.score))))
        best = { params: c.params, score, oos: oos.metrics };
    }
    if (best) out.push({ fold: k, params: best.params, inSampleScore: best.score, outOfSample: best.oos });
  }
  return out;
}

function num(v: number | boolean | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function mean(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0) / known.length;
}

/**
 * A thread's heap while it runs lean: a 1,000,000-point sma-cross job keeps about 20 MB alive, but V8
 * lets an unbounded heap grow to several times that between collections, and that growth (not the
 * code or the points, which are shared) is what made every extra thread cost its own 100+ MB. The
 * small young generation keeps the per-point garbage of a job from being promoted in bulk. A thread
 * that needs more (a strategy keeping large state) runs out of this heap; the pool then runs its job
 * again, and every later thread, without the limit, so a lean heap never fails a run.
 */
export const LEAN_THREAD_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 } as const;

/** Starts `n` workers, hands each one job at a time as it becomes free, and collects the results by job id. */
/** A job result handler that calls `done` once all `segments` results of a combination are in (jobs are numbered combination by combination). */
function rowWhenDone(
  combinations: ReadonlyArray<Readonly<Record<string, GridValue>>>,
  segments: number,
  done: (params: Readonly<Record<string, GridValue>>, results: JobResult[]) => void,
): (r: JobResult) => void {
  const got = new Map<number, JobResult[]>();
  return (r) => {
    const c = Math.floor(r.id / segments);
    const list = got.get(c) ?? new Array<JobResult>(segments);
    list[r.id % segments] = r;
    got.set(c, list);
    if (list.filter((x) => x !== undefined).length < segments) return;
    got.delete(c);
    done(combinations[c]!, list);
  };
}

interface PoolHooks {
  readonly onProgress?: (done: number, total: number) => void;
  readonly onResult?: (r: JobResult) => void;
  /** Aborted: the pool answers at once with the results in so far (the threads are terminated). */
  readonly signal?: AbortSignal;
}

async function runPool(
  ctx: JobContext,
  jobs: readonly Job[],
  n: number,
  boot: WorkerBoot,
  hooks: PoolHooks,
): Promise<{ results: JobResult[]; lean: boolean }> {
  const { onProgress, onResult, signal } = hooks;
  // the points once in shared memory: every thread reads the same columns instead of its own copy
  const b = ctx.bars;
  ctx = {
    ...ctx,
    times: sharedColumn(ctx.times),
    prices: sharedColumn(ctx.prices),
    ...(b && {
      bars: {
        opens: sharedColumn(b.opens),
        highs: sharedColumn(b.highs),
        lows: sharedColumn(b.lows),
        ...(b.volumes && { volumes: sharedColumn(b.volumes) }),
      },
    }),
  };
  const results: JobResult[] = new Array<JobResult>(jobs.length);
  const workers: Worker[] = [];
  /** Jobs to run again: the job of a lean thread that ran out of its heap. */
  const again: Job[] = [];
  const running = new Map<Worker, Job>();
  let lean = true;
  let next = 0;
  let done = 0;
  const releaseHeapGrowth = holdPoolHeapGrowth();
  try {
    await new Promise<void>((resolve, reject) => {
      if (jobs.length === 0 || signal?.aborted) return resolve();
      signal?.addEventListener('abort', () => resolve(), { once: true });
      const fail = (message: string, cause?: unknown): void =>
        reject(new TradeloopError('OPTIMIZE_WORKER', `an optimizer worker failed: ${message}`, { cause }));
      const feed = (w: Worker): void => {
        const job = again.pop() ?? jobs[next++];
        if (job) {
          running.set(w, job);
          w.postMessage({ type: 'job', job });
        } else running.delete(w);
      };
      const spawn = (): void => {
        const w = startWorker(ctx, boot, lean);
        workers.push(w);
        const thisLean = lean;
        w.on('error', (e: Error & { code?: string }) => {
          if (!(thisLean && e.code === 'ERR_WORKER_OUT_OF_MEMORY')) return fail(e.message, e);
          // its job again on a thread without the limit, and no more lean threads
          lean = false;
          w.removeAllListeners('exit');
          const job = running.get(w);
          running.delete(w);
          if (job) again.push(job);
          spawn();
        });
        w.on('exit', (code) => {
          if (done < jobs.length && !signal?.aborted) fail(`exited (code ${code}) with ${jobs.length - done} jobs left`);
        });
        w.on('message', (m: FromWorker) => {
          if (m.type === 'fatal') return fail(m.error);
          if (m.type === 'ready') return feed(w);
          if (signal?.aborted) return; // stopped: what finishes after the stop is not kept
          results[m.result.id] = m.result;
          onResult?.(m.result);
          done++; // not inside onProgress?.(…): an optional call skips evaluating its arguments
          onProgress?.(done, jobs.length);
          if (done === jobs.length) resolve();
          else feed(w);
        });
      };
      for (let k = 0; k < n; k++) spawn();
    });
  } finally {
    workers.forEach(stopWorker);
    releaseHeapGrowth();
  }
  return { results, lean };
}

/**
 * Stops a worker without waiting for it: a thread still loading when the grid is done may never
 * answer, and its exit must not hold up the result (nor the process: it is unreferenced).
 */
function stopWorker(w: Worker): void {
  w.removeAllListeners('exit');
  w.unref();
  void w.terminate().catch(() => undefined);
}

/** A worker thread running the jobs, its code loaded as `boot` says (backtest/optimize/boot.ts). */
function startWorker(ctx: JobContext, boot: WorkerBoot, lean: boolean): Worker {
  // execArgv []: a parent under a test runner or loader flags must not pass them to the thread
  return new Worker(boot.script, { eval: true, workerData: ctx, execArgv: [], ...(lean && { resourceLimits: LEAN_THREAD_HEAP }) });
}
