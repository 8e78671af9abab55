/**
 * The controller side of `tradeloop optimize --queue redis://…`: stores the price series once under
 * its content hash, skips the trials whose results are already in Redis (a re-run, or a restart after
 * the optimizer crashed), puts the rest on the BullMQ queue as one flow (the study and its trials),
 * and collects one result per job while reporting fleet progress. The ranking is runOptimize's own.
 */
import { FlowProducer, Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Job, JobContext, JobResult } from '../../backtest/optimize/job.js';
import type { PortfolioJobSpec } from '../../backtest/optimize/portfolio-job.js';
import { TradeloopError } from '../core/index.js';
import { bullConnection, connectRedis } from './connect.js';
import { queueFingerprint, sha256, tradeloopVersion, type PluginFingerprint } from '../strategy/plugin-hash.js';
import {
  encodeSeries,
  type StoredSeries,
  keys,
  PREFIX,
  STUDY_QUEUE,
  studyKey,
  TRIAL_QUEUE,
  trialKey,
  type PortfolioStudy,
  type StoredResult,
  type StudySpec,
  type TrialData,
} from './protocol.js';
import type { RedisTarget } from '../config/redis-url.js';

/** What the optimizer shows while the fleet works. */
export interface FleetProgress {
  readonly done: number;
  readonly total: number;
  /** Trials being run right now (across every study on the queue). */
  readonly running: number;
  readonly failed: number;
  /** Workers that reported within the last 15 s. */
  readonly workers: number;
  /** Trials whose results were already in Redis when this run started. */
  readonly reused: number;
  /** Why workers refused this study's jobs, by worker. */
  readonly refusals: Readonly<Record<string, string>>;
}

export interface QueueStudyOptions {
  readonly target: RedisTarget;
  readonly env: NodeJS.ProcessEnv;
  /** Where the strategy spec's relative path is resolved (default the current directory). */
  readonly cwd?: string;
  /** Attempts per trial before it counts as failed (default 3). */
  readonly attempts?: number;
  readonly onFleet?: (p: FleetProgress) => void;
  /** How often Redis is polled besides the workers' notices (default 500 ms). */
  readonly pollMs?: number;
}

const WORKER_SEEN_MS = 15_000;

/** Runs the jobs through the queue; answers results in job order and how many workers were seen. */
export async function runJobsOnQueue(
  ctx: JobContext,
  jobs: readonly Job[],
  opts: QueueStudyOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<{ results: JobResult[]; workers: number; studyKey: string; reused: number }> {
  const plugin: PluginFingerprint | undefined = ctx.portfolio ? undefined : queueFingerprint(ctx.strategy, opts.cwd);
  const redis = await connectRedis(opts.target, opts.env, '--queue');
  const sub = redis.duplicate();
  sub.on('error', () => undefined);
  const connection = bullConnection(opts.target, opts.env);
  const flows = new FlowProducer({ connection, prefix: PREFIX });
  const trials = new Queue(TRIAL_QUEUE, { connection, prefix: PREFIX });
  try {
    // stored once: every study on the same data shares it; kept a week after its last use
    const store = async (columns: StoredSeries): Promise<string> => {
      const series = encodeSeries(columns);
      const hash = sha256(series);
      await redis.set(keys.series(hash), series, 'EX', 7 * 86_400, 'NX');
      await redis.expire(keys.series(hash), 7 * 86_400);
      return hash;
    };
    const seriesHash = await store({ times: ctx.times, prices: ctx.prices, ...ctx.bars });
    const portfolio = ctx.portfolio && (await portfolioStudy(ctx.portfolio, store, opts.cwd));
    const spec: StudySpec = {
      version: tradeloopVersion(),
      plugin: portfolio ? targetPlugin(portfolio) : plugin!,
      ...(portfolio && { portfolio }),
      seriesHash,
      source: ctx.source,
      points: ctx.times.length,
      baseParams: ctx.baseParams,
      feeBps: ctx.feeBps,
      slippageBps: ctx.slippageBps,
      initial: ctx.initial,
      ...(ctx.limits && { limits: ctx.limits }),
      ...(ctx.intrabar !== undefined && { intrabar: ctx.intrabar }),
    };
    const study = studyKey(spec);
    await redis.del(keys.failed(study), keys.refusals(study));
    const trialOf = jobs.map((j) => trialKey(j.params, j.start, j.end));
    const results: Array<JobResult | undefined> = new Array<JobResult | undefined>(jobs.length);
    const byTrial = new Map<string, number[]>();
    trialOf.forEach((t, i) => byTrial.set(t, [...(byTrial.get(t) ?? []), i]));
    const pending = new Set(byTrial.keys());
    let done = 0;
    let failed = 0;
    const settle = (trial: string, r: StoredResult): void => {
      if (!pending.delete(trial)) return;
      for (const i of byTrial.get(trial)!) {
        results[i] = r.ok
          ? { id: jobs[i]!.id, ok: true, metrics: r.metrics, ...(r.tradesHash !== undefined && { tradesHash: r.tradesHash }) }
          : { id: jobs[i]!.id, ok: false, error: r.error };
        done++;
        if (!r.ok) failed++;
      }
    };
    const collect = async (): Promise<void> => {
      if (pending.size === 0) return;
      const list = [...pending];
      const [stored, lost] = await Promise.all([redis.hmget(keys.results(study), ...list), redis.hmget(keys.failed(study), ...list)]);
      list.forEach((t, k) => {
        const s = stored[k];
        const f = lost[k];
        if (s) settle(t, JSON.parse(s) as StoredResult);
        else if (f) settle(t, { ok: false, error: f });
      });
    };
    await collect();
    const reused = done;
    if (pending.size > 0) {
      const runId = randomUUID().slice(0, 8);
      const attempts = opts.attempts ?? 3;
      const children = [...pending].map((trial) => {
        const j = jobs[byTrial.get(trial)![0]!]!;
        const data: TrialData = { study, trial, spec, params: j.params, start: j.start, end: j.end };
        return {
          name: 'trial',
          queueName: TRIAL_QUEUE,
          data,
          opts: {
            jobId: `${study}-${runId}-${trial}`,
            attempts,
            backoff: { type: 'fixed', delay: 250 },
            removeOnComplete: true,
            removeOnFail: { count: 10_000 },
            ignoreDependencyOnFailure: true,
          },
        };
      });
      await sub.subscribe(keys.done(study));
      let wake: (() => void) | undefined;
      sub.on('message', () => wake?.());
      await flows.add({
        name: 'study',
        queueName: STUDY_QUEUE,
        data: { study, trials: children.length },
        opts: { jobId: `${study}-${runId}`, removeOnComplete: true },
        children,
      });
      const pollMs = opts.pollMs ?? 500;
      let lastReport = '';
      while (pending.size > 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        wake = undefined;
        await collect();
        onProgress?.(done, jobs.length);
        if (opts.onFleet) {
          const p = await fleet(redis, trials, study, done, jobs.length, failed, reused);
          const line = JSON.stringify(p);
          if (line !== lastReport) opts.onFleet(p);
          lastReport = line;
        }
      }
    }
    onProgress?.(done, jobs.length);
    const workers = await workersSeen(redis);
    return { results: results as JobResult[], workers, studyKey: study, reused };
  } catch (e) {
    if (e instanceof TradeloopError) throw e;
    throw new TradeloopError('QUEUE_FAILED', `--queue ${opts.target.label}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  } finally {
    await Promise.allSettled([flows.close(), trials.close()]);
    sub.disconnect();
    redis.disconnect();
  }
}

async function fleet(
  redis: Redis,
  trials: Queue,
  study: string,
  done: number,
  total: number,
  failed: number,
  reused: number,
): Promise<FleetProgress> {
  const [counts, workers, refusals] = await Promise.all([
    trials.getJobCounts('active'),
    workersSeen(redis),
    redis.hgetall(keys.refusals(study)),
  ]);
  return { done, total, running: counts.active ?? 0, failed, workers, reused, refusals };
}

/** Workers whose heartbeat is recent (Redis's clock, so the machines' clocks need not agree). */
export async function workersSeen(redis: Redis): Promise<number> {
  const [sec, micro] = await redis.time();
  const now = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
  const all = await redis.hgetall(keys.workers());
  return Object.values(all).filter((t) => now - Number(t) < WORKER_SEEN_MS).length;
}

/** A config's study: every entry's plugin fingerprinted as --queue sends a plugin, every market's series stored. */
async function portfolioStudy(
  p: PortfolioJobSpec,
  store: (columns: StoredSeries) => Promise<string>,
  cwd: string | undefined,
): Promise<PortfolioStudy> {
  const series: Array<PortfolioStudy['series'][number]> = [];
  for (const s of p.series) series.push({ market: s.market, source: s.source, hash: await store(s) });
  return {
    entries: p.entries,
    target: p.target,
    objective: p.objective,
    plugins: p.entries.map((e) => queueFingerprint(e.plugin, cwd)),
    series,
  };
}

/** The tuned strategy's plugin: the study's `plugin`, as a one-strategy study's. */
function targetPlugin(p: PortfolioStudy): PluginFingerprint {
  // an entry without a name goes by its plugin's name, which a plain built-in spec is
  const k = p.entries.findIndex((e) => (e.name ?? e.plugin) === p.target);
  return p.plugins[k === -1 ? 0 : k]!;
}
