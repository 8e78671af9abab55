/**
 * One optimizer job — a backtest of one parameter combination over one range of points — and the
 * messages between the optimizer and its worker threads. Shared by `optimize.ts` (the pool) and
 * `optimize-worker.ts` (the thread), so both sides agree on the shapes.
 */
import { createHash } from 'node:crypto';
import { InputError } from '../../src/core/index.js';
import type { RiskLimits } from '../../src/risk/limits.js';
import type { IntrabarRule } from '../../src/fills/point/bar-range.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import type { StrategyDefinition } from '../../src/strategy/define.js';
import { resolveParams } from '../../src/strategy/params.js';
import type { GridValue } from './grid.js';
import type { PortfolioJobSpec } from './portfolio-job.js';
import { metricsToJson } from '../metrics.js';
import { runBacktest } from '../run.js';

/** An OHLCV series' columns besides its times and closes. */
export interface BarColumns {
  readonly opens: Float64Array;
  readonly highs: Float64Array;
  readonly lows: Float64Array;
  readonly volumes?: Float64Array;
}

/** A series' bar columns, when it has them (an OHLCV file). */
export function barColumnsOf(s: Partial<BarColumns>): BarColumns | undefined {
  const { opens, highs, lows, volumes } = s;
  return opens !== undefined && highs !== undefined && lows !== undefined
    ? { opens, highs, lows, ...(volumes !== undefined && { volumes }) }
    : undefined;
}

/** What every job of one optimize run shares (sent once to each worker). */
export interface JobContext {
  /** Strategy spec as `loadStrategy` takes it: a built-in name or a file path. */
  readonly strategy: string;
  readonly source: string;
  readonly times: Float64Array;
  readonly prices: Float64Array;
  /** An OHLCV file's other columns, when it has them: each point is a bar, orders filled inside it. */
  readonly bars?: BarColumns;
  /** Which extreme of a bar came first where the data cannot say (default adverse). */
  readonly intrabar?: IntrabarRule;
  readonly baseParams: Readonly<Record<string, unknown>>;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly initial: Readonly<Record<string, string>>;
  readonly limits?: RiskLimits;
  /** A trial of one strategy inside a config (`optimize --config FILE --strategy NAME`): portfolio-job.ts runs it. */
  readonly portfolio?: PortfolioJobSpec;
}

export interface Job {
  readonly id: number;
  readonly params: Readonly<Record<string, GridValue>>;
  /** Point indices [start, end). */
  readonly start: number;
  readonly end: number;
}

export type JobMetrics = Record<string, number | boolean | null>;

export type JobResult =
  | {
      readonly id: number;
      readonly ok: true;
      readonly metrics: JobMetrics;
      /** sha256 of the round trips (the queue's results are checked against the local ones by it). */ readonly tradesHash?: string;
    }
  | { readonly id: number; readonly ok: false; readonly error: string };

export type ToWorker = { readonly type: 'job'; readonly job: Job } | { readonly type: 'stop' };
export type FromWorker =
  { readonly type: 'ready' } | { readonly type: 'result'; readonly result: JobResult } | { readonly type: 'fatal'; readonly error: string };

/**
 * The equity buffer a finished job handed back, for the next job of this thread: a job needs only its
 * figures, so its equity curve is marked in a reused buffer instead of a new 8 MB array per
 * 1,000,000 points. Taken for the length of a job, so jobs run at once never share one.
 */
let spareEquity: Float64Array | undefined;

function takeEquity(points: number): Float64Array {
  const spare = spareEquity;
  spareEquity = undefined;
  return spare !== undefined && spare.length >= points ? spare : new Float64Array(points);
}

/** Runs one job in this thread. Bad parameter combinations (e.g. fast ≥ slow) are results, not crashes. */
export async function runJob(definition: StrategyDefinition, ctx: JobContext, job: Job): Promise<JobResult> {
  const equityBuffer = takeEquity(ctx.times.length);
  try {
    const params = resolveParams(definition, { ...ctx.baseParams, ...job.params }, 'grid');
    const series: PriceSeriesLike = { source: ctx.source, length: ctx.times.length, times: ctx.times, prices: ctx.prices, ...ctx.bars };
    const run = await runBacktest({
      definition,
      params,
      series,
      range: { start: job.start, end: job.end },
      feeBps: ctx.feeBps,
      slippageBps: ctx.slippageBps,
      initial: ctx.initial,
      ...(ctx.limits && { limits: ctx.limits }),
      ...(ctx.intrabar !== undefined && { intrabar: ctx.intrabar }),
      figuresOnly: true,
      equityBuffer,
    });
    // a strategy that threw (or returned a non-intent) was stopped: its figures are of a broken run
    const f = run.strategyFailure;
    if (f !== undefined) return { id: job.id, ok: false, error: `strategy ${f.strategy} stopped in ${f.handler}: ${f.message}` };
    if (run.strategyStopped !== undefined) return { id: job.id, ok: false, error: `strategy stopped: ${run.strategyStopped}` };
    const tradesHash = createHash('sha256').update(JSON.stringify(run.trades)).digest('hex');
    return { id: job.id, ok: true, metrics: { ...metricsToJson(run.metrics), fees: Number(run.feesPaid) }, tradesHash };
  } catch (e) {
    if (e instanceof InputError) return { id: job.id, ok: false, error: e.message };
    throw e;
  } finally {
    spareEquity = equityBuffer;
  }
}
