/**
 * What the optimizer (controller) and `tradeloop worker` share through Redis: queue names, keys,
 * and the data of a study and of its trials. Job data holds parameters, hashes and names, never code
 * and never a secret; the price series travels once, stored under its content hash.
 */
import type { BarColumns, JobContext, JobMetrics, JobResult } from '../../backtest/optimize/job.js';
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
export interface StudySpec extends Pick<
  JobContext,
  'source' | 'baseParams' | 'feeBps' | 'slippageBps' | 'initial' | 'limits' | 'intrabar'
> {
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

/** A stored series: its times and prices, and an OHLCV file's other columns when it has them. */
export interface StoredSeries extends Partial<BarColumns> {
  readonly times: Float64Array;
  readonly prices: Float64Array;
}

/** The columns a stored series holds, in order: 2 (times, prices), 5 (and opens, highs, lows) or 6 (and volumes). */
const COLUMNS = ['times', 'prices', 'opens', 'highs', 'lows', 'volumes'] as const;

/**
 * The series as bytes: point count, column count, then each column (float64, little endian): the
 * times, the prices, and an OHLCV file's opens, highs, lows (and volumes) when it has them.
 */
export function encodeSeries(s: StoredSeries): Buffer {
  const n = s.times.length;
  const columns = s.opens === undefined || s.highs === undefined || s.lows === undefined ? 2 : s.volumes === undefined ? 5 : 6;
  const buf = Buffer.alloc(8 + n * 8 * columns);
  buf.writeUInt32LE(n, 0);
  buf.writeUInt32LE(columns, 4);
  for (let c = 0; c < columns; c++) {
    const col = s[COLUMNS[c]!]!;
    for (let i = 0; i < n; i++) buf.writeDoubleLE(col[i]!, 8 + (c * n + i) * 8);
  }
  return buf;
}

export function decodeSeries(buf: Buffer): StoredSeries {
  const n = buf.readUInt32LE(0);
  const columns = buf.length >= 8 ? buf.readUInt32LE(4) : 0;
  if (![2, 5, 6].includes(columns) || buf.length !== 8 + n * 8 * columns)
    throw new Error(`stored series is ${buf.length} bytes, not ${n} points of 2, 5 or 6 columns: run the optimizer again`);
  const out: Record<string, Float64Array> = {};
  for (let c = 0; c < columns; c++) {
    const col = new Float64Array(n);
    for (let i = 0; i < n; i++) col[i] = buf.readDoubleLE(8 + (c * n + i) * 8);
    out[COLUMNS[c]!] = col;
  }
  return out as unknown as StoredSeries;
}
