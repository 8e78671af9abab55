/**
 * The local cache of historical prices that `tradeloop history fetch` fills and `tradeloop backtest
 * --market` reads: one CSV per market and increment (`<dir>/<MARKET>-<INCREMENT>.csv`, header
 * `timestamp,price`, the API's RFC 3339 times and average prices as received), and beside it a state
 * file recording the range asked for and how many points are in, so an interrupted fetch resumes at
 * the next page instead of starting over.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../src/core/index.js';
import { INCREMENTS_MS, type Increment } from '../src/core/markets.js';
import { loadPriceSeries, type PriceSeries } from '../src/sim/prices/price-file.js';
import { parseTime } from './cli-input.js';

export interface CacheKey {
  readonly market: string;
  readonly increment: Increment;
}

/** What the state file holds. */
export interface FetchState extends CacheKey {
  readonly from: string;
  readonly to: string;
  /** Points written so far (= the next pagination offset). */
  readonly fetched: number;
  readonly totalCount?: number;
  readonly complete: boolean;
}

export function cachePaths(dir: string, key: CacheKey): { csv: string; state: string } {
  const base = join(dir, `${key.market}-${key.increment}`);
  return { csv: `${base}.csv`, state: `${base}.state.json` };
}

/** Checks an increment name against the platform's list. */
export function checkIncrement(value: string, flag = '--increment'): Increment {
  if (!(value in INCREMENTS_MS))
    throw new InputError(flag, `unknown increment ${JSON.stringify(value)}; use one of ${Object.keys(INCREMENTS_MS).join(', ')}`);
  return value as Increment;
}

/** The state of an earlier fetch of the same range (to resume), or undefined to start over. */
export function resumable(dir: string, want: Omit<FetchState, 'fetched' | 'complete' | 'totalCount'>): FetchState | undefined {
  const { csv, state } = cachePaths(dir, want);
  if (!existsSync(state) || !existsSync(csv)) return undefined;
  const s = JSON.parse(readFileSync(state, 'utf8')) as FetchState;
  return s.from === want.from && s.to === want.to && s.market === want.market && s.increment === want.increment ? s : undefined;
}

/** Starts a fresh cache file (header only) and its state. */
export function startCache(dir: string, s: FetchState): void {
  mkdirSync(dir, { recursive: true });
  const { csv } = cachePaths(dir, s);
  writeFileSync(csv, 'timestamp,price\n');
  saveState(dir, s);
}

/** Appends one page of points, then records the new count (the CSV first, so a crash re-fetches a page at worst). */
export function appendPage(dir: string, s: FetchState, items: ReadonlyArray<{ timestamp: string; average_price: string }>): FetchState {
  const { csv } = cachePaths(dir, s);
  let text = '';
  for (const p of items) text += `${p.timestamp},${p.average_price}\n`;
  if (text !== '') appendFileSync(csv, text);
  const next = { ...s, fetched: s.fetched + items.length };
  saveState(dir, next);
  return next;
}

export function saveState(dir: string, s: FetchState): void {
  const { state } = cachePaths(dir, s);
  writeFileSync(`${state}.tmp`, `${JSON.stringify(s, null, 2)}\n`);
  renameSync(`${state}.tmp`, state);
}

/** Loads the cached points of a market between `fromMs` and `toMs` (inclusive), or explains how to fetch them. */
export function loadCached(dir: string, key: CacheKey, fromMs?: number, toMs?: number): PriceSeries {
  const { csv } = cachePaths(dir, key);
  if (!existsSync(csv)) {
    throw new InputError(
      '--market',
      `no cached prices for ${key.market} at ${key.increment} in ${dir}: run tradeloop history fetch --market ${key.market} --increment ${key.increment} --from … --to … first, or give --data FILE`,
    );
  }
  const all = loadPriceSeries(csv);
  let start = 0;
  let end = all.length;
  while (fromMs !== undefined && start < end && all.times[start]! < fromMs) start++;
  while (toMs !== undefined && end > start && all.times[end - 1]! > toMs) end--;
  if (end - start < 2)
    throw new InputError('--from', `the cache ${csv} has ${end - start} points in the range asked; fetch that range first`);
  return { source: csv, length: end - start, times: all.times.slice(start, end), prices: all.prices.slice(start, end) };
}

/**
 * The cached range a backtest asks for: `--from` and `--to` without `--data` (with `--market`, or a
 * config's markets), which `backtest` fetches into the cache when missing; else undefined.
 */
export function cacheRange(flags: {
  readonly data?: string | readonly string[];
  readonly from?: string;
  readonly to?: string;
  readonly increment: string;
}): { increment: Increment; fromMs: number; toMs: number } | undefined {
  const given = typeof flags.data === 'string' ? [flags.data] : (flags.data ?? []);
  if (given.length > 0 || flags.from === undefined || flags.to === undefined) return undefined;
  const fromMs = parseTime(flags.from, '--from')!;
  const toMs = parseTime(flags.to, '--to')!;
  if (toMs <= fromMs) throw new InputError('--to', `must be after --from (${flags.from})`);
  return { increment: checkIncrement(flags.increment), fromMs, toMs };
}
