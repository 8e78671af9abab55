/**
 * The worker side: `tradeloop worker --queue redis://…` takes trials off the BullMQ queue and runs
 * each exactly as the local optimizer's threads do (optimize-job.ts runJob). It loads strategies
 * only from its own installation or `--strategies DIR`, never code from Redis, and refuses a trial
 * whose plugin files or tradeloop version differ from the controller's, naming which. A trial whose
 * result is already stored is not run again; a worker killed mid-trial leaves its job to BullMQ's
 * stalled-job recovery, which hands it to another worker.
 */
import { Worker, type Job as BullJob } from 'bullmq';
import { hostname } from 'node:os';
import { realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { Redis } from 'ioredis';
import { runJob, type JobContext, type JobResult } from '../../backtest/optimize/job.js';
import type { MarketSeries } from '../../backtest/merge.js';
import type { MarketSymbol } from '../core/index.js';
import { LiveClock, type Clock } from '../clock/index.js';
import type { StrategyDefinition } from '../strategy/define.js';
import { loadStrategy } from '../strategy/loader.js';
import { bullConnection, connectRedis } from './connect.js';
import { pluginGraph } from '../strategy/plugin-graph.js';
import {
  BUILTIN_DIR,
  BUILTIN_EXTENSIONS,
  fingerprintGraph,
  fingerprintMismatch,
  tradeloopVersion,
  type PluginFingerprint,
} from '../strategy/plugin-hash.js';
import {
  decodeSeries,
  keys,
  PREFIX,
  STUDY_QUEUE,
  toStored,
  TRIAL_QUEUE,
  type PortfolioStudy,
  type StoredSeries,
  type TrialData,
} from './protocol.js';
import type { RedisTarget } from '../config/redis-url.js';

export interface QueueWorkerOptions {
  readonly target: RedisTarget;
  readonly env: NodeJS.ProcessEnv;
  /** Folder of plugin files (default: ./strategies, then the current directory). */
  readonly strategiesDir?: string;
  readonly cwd?: string;
  /** How long a trial's lock lasts without renewal before another worker may take it (default 30 s). */
  readonly lockMs?: number;
  /** Called for each trial: run, skipped (already stored) or refused. */
  readonly onTrial?: (e: {
    readonly trial: string;
    readonly outcome: 'started' | 'ran' | 'skipped' | 'refused' | 'error';
    readonly detail?: string;
    readonly ms: number;
  }) => void;
  readonly id?: string;
  /** Times trials for onTrial (default the live clock). */
  readonly clock?: Clock;
}

export interface QueueWorker {
  readonly id: string;
  close(): Promise<void>;
}

/**
 * Why a job is refused by this worker (no attempt of this worker can succeed): the message goes to
 * Redis, the detail (which may name this machine's files) only to this worker's own log.
 */
class Refusal extends Error {
  constructor(
    message: string,
    readonly detail = message,
  ) {
    super(message);
  }
}

/** A plugin name the job may carry: a plain file name (no folder, no `..`, no drive). */
const PLAIN_NAME = /^[\w@+-][\w.@+-]*$/;

/**
 * The plugin file a job names, found by this worker itself: a plain name in one of `folders`, whose
 * real path (symlinks followed) is inside that folder's real path.
 */
function findPlugin(spec: string, builtin: boolean, folders: readonly string[]): { file: string; folder: string } | { refused: string } {
  if (!PLAIN_NAME.test(spec) || spec.includes('..')) return { refused: 'the job names it by a path, not a plain file name' };
  for (const folder of folders) {
    let real: string;
    try {
      real = realpathSync(folder);
    } catch {
      continue;
    }
    const names = builtin ? BUILTIN_EXTENSIONS.map((e) => `${spec}${e}`) : [spec];
    for (const name of names) {
      let file: string;
      try {
        file = realpathSync(join(real, name));
      } catch {
        continue;
      }
      if (!inside(file, real)) return { refused: `${join(folder, name)} leads outside ${folder}` };
      if (!statSync(file).isFile()) continue;
      return { file, folder: real };
    }
  }
  return { refused: `not found in ${folders.join(' or ')}` };
}

function inside(file: string, folder: string): boolean {
  return file.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

export async function startQueueWorker(opts: QueueWorkerOptions): Promise<QueueWorker> {
  const redis = await connectRedis(opts.target, opts.env, '--queue');
  const id = opts.id ?? `${hostname()}:${process.pid}`;
  const version = tradeloopVersion();
  const cwd = opts.cwd ?? process.cwd();
  const clock = opts.clock ?? new LiveClock();
  const definitions = new Map<string, Promise<StrategyDefinition>>();
  const loadedFiles = new Map<string, string>();
  const series = new Map<string, StoredSeries>();
  const beat = async (): Promise<void> => {
    const [sec, micro] = await redis.time();
    await redis.hset(keys.workers(), id, String(Number(sec) * 1000 + Math.floor(Number(micro) / 1000)));
  };
  await beat();
  const heartbeat = setInterval(() => void beat().catch(() => undefined), 2_000);
  heartbeat.unref();

  /** The plugin file of a study's fingerprint, found and checked by this worker (or refused). */
  const pluginFile = (studyVersion: string, p: PluginFingerprint): string => {
    if (studyVersion !== version)
      throw new Refusal(`tradeloop ${version} here, ${studyVersion} on the controller: install the same version on every worker`);
    const folders = p.builtin
      ? [BUILTIN_DIR]
      : opts.strategiesDir !== undefined
        ? [resolve(cwd, opts.strategiesDir)]
        : [resolve(cwd, 'strategies'), cwd];
    const what = p.builtin ? `built-in strategy ${JSON.stringify(p.spec)}` : `plugin ${JSON.stringify(p.spec)}`;
    // one answer for "not there", "outside the folder" and "other files": Redis learns nothing of this machine's files
    const refuse = (detail: string): Refusal =>
      new Refusal(
        `no ${what} with the study's files here: a worker loads only a plain file name from ${p.builtin ? 'its installation' : 'its strategies folder (--strategies DIR)'}, with the same files as the controller; install them on every worker (this worker's log says why)`,
        `${what}: ${detail}`,
      );
    const found = findPlugin(p.spec, p.builtin, folders);
    if ('refused' in found) throw refuse(found.refused);
    // the files the loader will load for it, walked and hashed before any of them is imported
    const graph = pluginGraph(found.file);
    const outside = [...graph.files.keys()].filter((f) => !inside(f, found.folder));
    if (outside.length > 0)
      throw refuse(
        `it imports ${outside.length} file${outside.length === 1 ? '' : 's'} outside ${found.folder}: keep a plugin's files inside the strategies folder`,
      );
    if (graph.computed.length > 0)
      throw refuse(
        `it loads code by a computed name (${graph.computed.join(', ')}), so its files cannot be checked before it runs: import its files by literal paths`,
      );
    const mine = fingerprintGraph(graph, p.spec, p.builtin);
    const why = fingerprintMismatch(p, mine);
    if (why !== undefined) throw refuse(why);
    // node keeps a module it has loaded: a plugin changed on disk since would still run its old code
    const loadedAs = loadedFiles.get(found.file);
    if (loadedAs !== undefined && loadedAs !== p.hash)
      throw new Refusal(`plugin ${p.spec} changed on disk since this worker loaded it: restart the worker to load the new files`);
    loadedFiles.set(found.file, p.hash);
    return found.file;
  };

  const definitionFor = async (d: TrialData): Promise<StrategyDefinition> => {
    const p = d.spec.plugin;
    const file = pluginFile(d.spec.version, p);
    let def = definitions.get(p.hash);
    if (def === undefined) definitions.set(p.hash, (def = loadStrategy(file)));
    return def;
  };

  /** A trial of a strategy inside a config: every entry's plugin checked as above, loaded from its file here. */
  const runPortfolioTrial = async (d: TrialData, p: PortfolioStudy): Promise<JobResult> => {
    const entries = p.entries.map((e, k) => ({ ...e, plugin: pluginFile(d.spec.version, p.plugins[k]!) }));
    // loaded when a study of a config comes: a worker of one-strategy studies keeps its lean graph
    const { loadPortfolioStrategies, runPortfolioJob } = await import('../../backtest/optimize/portfolio-job.js');
    const strategies = await loadPortfolioStrategies({ entries, file: `study ${d.study.slice(0, 12)}` });
    const series: MarketSeries[] = [];
    for (const s of p.series) series.push({ market: s.market as MarketSymbol, source: s.source, ...(await seriesFor(s.hash)) });
    const ctx = {
      portfolio: { entries: p.entries, file: '', target: p.target, objective: p.objective, series },
      feeBps: d.spec.feeBps,
      slippageBps: d.spec.slippageBps,
      initial: d.spec.initial,
      ...(d.spec.limits && { limits: d.spec.limits }),
      ...(d.spec.intrabar !== undefined && { intrabar: d.spec.intrabar }),
    };
    return runPortfolioJob(strategies, ctx, { id: 0, params: d.params, start: d.start, end: d.end });
  };

  const seriesFor = async (hash: string): Promise<StoredSeries> => {
    let s = series.get(hash);
    if (s === undefined) {
      const buf = await redis.getBuffer(keys.series(hash));
      if (buf === null) throw new Error(`the price series ${hash.slice(0, 12)} is no longer in Redis: run the optimizer again`);
      s = decodeSeries(buf);
      series.set(hash, s);
    }
    return s;
  };

  const finish = async (d: TrialData, field: 'results' | 'failed', value: string, ran: boolean): Promise<void> => {
    const m = redis.multi();
    if (field === 'results') m.hsetnx(keys.results(d.study), d.trial, value);
    else m.hset(keys.failed(d.study), d.trial, value);
    if (ran) m.hincrby(keys.runs(d.study), d.trial, 1);
    m.publish(keys.done(d.study), d.trial);
    await m.exec();
  };

  const runTrial = async (d: TrialData): Promise<JobResult> => {
    const definition = await definitionFor(d);
    const s = await seriesFor(d.spec.seriesHash);
    const bars = s.opens && s.highs && s.lows && { opens: s.opens, highs: s.highs, lows: s.lows, ...(s.volumes && { volumes: s.volumes }) };
    const ctx: JobContext = {
      strategy: d.spec.plugin.spec,
      source: d.spec.source,
      times: s.times,
      prices: s.prices,
      ...(bars && { bars }),
      ...(d.spec.intrabar !== undefined && { intrabar: d.spec.intrabar }),
      baseParams: d.spec.baseParams,
      feeBps: d.spec.feeBps,
      slippageBps: d.spec.slippageBps,
      initial: d.spec.initial,
      ...(d.spec.limits && { limits: d.spec.limits }),
    };
    return runJob(definition, ctx, { id: 0, params: d.params, start: d.start, end: d.end });
  };

  const processTrial = async (job: BullJob<TrialData>): Promise<{ outcome: string }> => {
    const d = job.data;
    const t0 = clock.now();
    if ((await redis.hexists(keys.results(d.study), d.trial)) === 1) {
      await redis.publish(keys.done(d.study), d.trial);
      opts.onTrial?.({ trial: d.trial, outcome: 'skipped', ms: clock.now() - t0 });
      return { outcome: 'skipped' };
    }
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    opts.onTrial?.({ trial: d.trial, outcome: 'started', ms: 0 });
    try {
      const p = d.spec.portfolio;
      const result = p ? await runPortfolioTrial(d, p) : await runTrial(d);
      await finish(d, 'results', JSON.stringify(toStored(result)), true);
      opts.onTrial?.({ trial: d.trial, outcome: 'ran', ms: clock.now() - t0 });
      return { outcome: 'ran' };
    } catch (e) {
      const refused = e instanceof Refusal;
      const message = `worker ${id} ${refused ? 'refused the trial' : 'failed'}: ${e instanceof Error ? e.message : String(e)}`;
      if (refused) await redis.hset(keys.refusals(d.study), id, message);
      if (last) await finish(d, 'failed', message, false);
      opts.onTrial?.({
        trial: d.trial,
        outcome: refused ? 'refused' : 'error',
        detail: refused ? `worker ${id} refused trial ${d.trial.slice(0, 12)}: ${e.detail}` : message,
        ms: clock.now() - t0,
      });
      const failure = new Error(message);
      // BullMQ keeps the stack in Redis beside the reason: a refusal's says nothing of this machine
      if (refused) failure.stack = message;
      throw failure;
    }
  };

  const connection = bullConnection(opts.target, opts.env);
  const lockMs = opts.lockMs ?? 30_000;
  const trials = new Worker<TrialData>(TRIAL_QUEUE, processTrial, {
    connection,
    prefix: PREFIX,
    concurrency: 1,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 2,
  });
  // a study's parent job completes once its trials are done; nothing to run
  const studies = new Worker(STUDY_QUEUE, () => Promise.resolve({ ok: true }), { connection, prefix: PREFIX, concurrency: 4 });
  for (const w of [trials, studies]) w.on('error', () => undefined);
  return {
    id,
    close: async () => {
      clearInterval(heartbeat);
      await Promise.allSettled([trials.close(), studies.close()]);
      await redis.hdel(keys.workers(), id).catch(() => undefined);
      redis.disconnect();
    },
  };
}

export type { Redis };
