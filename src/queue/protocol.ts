/**
 * What the optimizer (controller) and `tradeloop worker` share through Redis: queue names, keys,
 * and the data of a study and of its trials. Job data holds parameters, hashes and names, never code
 * and never a secret; the price series travels once, stored under its content hash.
 */
import type { JobContext, JobMetrics, JobResult } from '../../backtest/optimize/job.js';
import type { GridValue } from '../../backtest/optimize/grid.js';
import type { PortfolioJobSpec } from '../../backtest/optimize/portfolio-job.js';
import type { PluginFingerprint } from '../strategy/plugin-hash.js';
import { sha256 } from '../strategy/plugin-hash.js';

/** BullMQ key prefix; every key of ours starts with it too. */
export const PREFIX = 'tradeloop';
export const STUDY_QUEUE = 'optimize-studies';
export const TRIAL_QUEUE = 'optimize-trials';

/** What every trial of a study shares. */
/** A study's settings: the local optimizer's job context, with the plugin and the series by hash. */
export interface StudySpec extends Pick<JobContext, 'source' | 'baseParams' | 'feeBps' | 'slippageBps' | 'initial' | 'limits'> {
  readonly version: string;
  readonly plugin: PluginFingerprint;
  readonly seriesHash: string;
  readonly points: number;
  /** A strategy tuned inside a config: the config's strategies, every plugin's files, every market's series by hash. */
  readonly portfolio?: PortfolioStudy;
}

/** What a worker needs to replay the whole config (the tuned strategy's plugin is `plugin`). */
export interface PortfolioStudy {
  readonly entries: PortfolioJobSpec['entries'];
  readonly target: string;
  readonly objective: PortfolioJobSpec['objective'];
  /** Each entry's plugin (by index): a worker loads and checks it as it does a study's plugin. */
  readonly plugins: readonly PluginFingerprint[];
  readonly series: ReadonlyArray<{ readonly market: string; readonly source: string; readonly hash: string }>;
}

export interface TrialData {
  readonly study: string;
  readonly trial: string;
  readonly spec: StudySpec;
  readonly params: Readonly<Record<string, GridValue>>;
  readonly start: number;
  readonly end: number;
}

/** A trial's outcome as stored: the job result without the controller's job index. */
export type StoredResult =
  { readonly ok: true; readonly metrics: JobMetrics; readonly tradesHash?: string } | { readonly ok: false; readonly error: string };

export function toStored(r: JobResult): StoredResult {
  return r.ok
    ? { ok: true, metrics: r.metrics, ...(r.tradesHash !== undefined && { tradesHash: r.tradesHash }) }
    : { ok: false, error: r.error };
}

/** The study's key: tradeloop version, data hash, plugin hash and every setting a trial depends on. */
export function studyKey(spec: StudySpec): string {
  return sha256(canonical({ ...spec, plugin: { hash: spec.plugin.hash, spec: spec.plugin.spec } })).slice(0, 32);
}

/** A trial's key within its study: its parameters and its range of points. */
export function trialKey(params: Readonly<Record<string, GridValue>>, start: number, end: number): string {
  return sha256(canonical({ params, start, end })).slice(0, 32);
}

export const keys = {
  series: (hash: string) => `${PREFIX}:series:${hash}`,
  results: (study: string) => `${PREFIX}:study:${study}:results`,
  runs: (study: string) => `${PREFIX}:study:${study}:runs`,
  failed: (study: string) => `${PREFIX}:study:${study}:failed`,
  refusals: (study: string) => `${PREFIX}:study:${study}:refusals`,
  done: (study: string) => `${PREFIX}:study:${study}:done`,
  workers: () => `${PREFIX}:workers`,
};

/** JSON with object keys sorted, so equal values hash equally. */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/** The series as bytes: point count, the times, then the prices (float64, little endian). */
export function encodeSeries(times: Float64Array, prices: Float64Array): Buffer {
  const n = times.length;
  const buf = Buffer.alloc(4 + n * 16);
  buf.writeUInt32LE(n, 0);
  for (let i = 0; i < n; i++) {
    buf.writeDoubleLE(times[i]!, 4 + i * 8);
    buf.writeDoubleLE(prices[i]!, 4 + n * 8 + i * 8);
  }
  return buf;
}

export function decodeSeries(buf: Buffer): { times: Float64Array; prices: Float64Array } {
  const n = buf.readUInt32LE(0);
  if (buf.length !== 4 + n * 16) throw new Error(`stored series is ${buf.length} bytes, expected ${4 + n * 16} for ${n} points`);
  const times = new Float64Array(n);
  const prices = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    times[i] = buf.readDoubleLE(4 + i * 8);
    prices[i] = buf.readDoubleLE(4 + n * 8 + i * 8);
  }
  return { times, prices };
}
