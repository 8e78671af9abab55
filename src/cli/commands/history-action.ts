import { LazyProgress, parseTime } from '../../../backtest/cli-input.js';
import {
  appendPage,
  cachePaths,
  checkIncrement,
  resumable,
  saveState,
  startCache,
  type FetchState,
} from '../../../backtest/history-cache.js';
import { UnsafeTargetError, createApiClientFromConfig, type ApiClient } from '../../api/index.js';
import { LiveClock } from '../../clock/index.js';
import { configLabel, describeConfigSource, loadConfig, type Config } from '../../config/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, nonEmpty } from '../../config/environment.js';
import { InputError, isHistoricalMarket } from '../../core/index.js';
import type { Increment } from '../../core/markets.js';
import { existsSync, readFileSync } from 'node:fs';
import { createLogger } from '../../log/index.js';
import { startSandbox, type SandboxHandle } from '../../sandbox/index.js';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { apiTargetOf } from '../failures.js';

import type { FetchFlags, HistoryVenueFlags, HistoryWant } from './history.js';

const PAGE = 1000;
const DAY_MS = 86_400_000;

/** What `tradeloop history fetch` does once its flags are read (loaded only then: see history.ts). */
export async function fetchAction(flags: FetchFlags, ctx: CliContext): Promise<void> {
  if (!isHistoricalMarket(flags.market))
    throw new InputError('--market', `${JSON.stringify(flags.market)} has no historical prices on the platform (e.g. BTCUSD, ETHUSD)`);
  const increment = checkIncrement(flags.increment);
  const fromMs = parseTime(flags.from, '--from')!;
  const toMs = parseTime(flags.to, '--to')!;
  if (toMs <= fromMs) throw new InputError('--to', `must be after --from (${flags.from})`);
  const state = await fetchHistory(ctx, flags, { market: flags.market, increment, fromMs, toMs }, flags.restart === true);
  if (state === undefined) return;
  writeLine(ctx.stdout, cachePaths(flags.dataDir, state).csv);
}

/**
 * Fetches a market's range into the cache, resuming a partial fetch of the same range; undefined
 * when it was cached complete already (said on stderr, with the file on stdout).
 */
async function fetchHistory(ctx: CliContext, flags: HistoryVenueFlags, w: HistoryWant, restart: boolean): Promise<FetchState | undefined> {
  const want = { market: w.market, increment: w.increment, from: new Date(w.fromMs).toISOString(), to: new Date(w.toMs).toISOString() };
  const prior = restart ? undefined : resumable(flags.dataDir, want);
  if (prior?.complete) {
    writeLine(ctx.stderr, `already cached: ${prior.fetched} points in ${cachePaths(flags.dataDir, want).csv}`);
    writeLine(ctx.stdout, cachePaths(flags.dataDir, want).csv);
    return undefined;
  }
  const { config, source } = loadConfig(flags.config);
  writeLine(ctx.stderr, describeConfigSource(source));
  if (prior !== undefined)
    writeLine(
      ctx.stderr,
      `resuming at point ${prior.fetched}${prior.totalCount === undefined ? '' : ` of ${prior.totalCount}`} (${w.market})`,
    );
  const venue = await openVenue(flags, config, configLabel(source), w.fromMs, ctx);
  const clock = new LiveClock();
  const progress = new LazyProgress(ctx.stderr, () => clock.now(), `history ${w.market}`);
  let state: FetchState;
  try {
    state = await fetchAll(venue.api, flags.dataDir, prior ?? { ...want, fetched: 0, complete: false }, prior === undefined, (d, t) =>
      progress.update(d, t),
    );
  } finally {
    progress.stop();
    await venue.close();
  }
  writeLine(ctx.stderr, `${state.fetched} points of ${w.market} at ${w.increment} cached`);
  return state;
}

/**
 * `backtest --from/--to` (with `--market`, or a config's markets): fetches into the cache each market
 * whose range is not cached complete, as `history fetch` would (resuming a partial fetch, a progress
 * bar on a terminal), from the config's environment (in `local` the embedded sandbox). A market the
 * platform keeps no history of is refused, naming it and the command that would fill the cache.
 */
export async function fetchMissingHistory(
  ctx: CliContext,
  flags: HistoryVenueFlags,
  markets: readonly string[],
  range: { readonly increment: Increment; readonly fromMs: number; readonly toMs: number },
): Promise<void> {
  const from = new Date(range.fromMs).toISOString();
  const to = new Date(range.toMs).toISOString();
  for (const market of markets) {
    if (covered(flags.dataDir, { market, increment: range.increment, from, to })) continue;
    const command = `tradeloop history fetch --market ${market} --increment ${range.increment} --from ${from} --to ${to}`;
    if (!isHistoricalMarket(market))
      throw new InputError(
        '--from/--to',
        `no cached prices of ${market} for this range, and the platform keeps no history of ${market} to fetch: give --data ${market}=FILE (or fill the cache with ${command} from a venue that has it)`,
      );
    writeLine(ctx.stderr, `fetching the missing ${range.increment} prices of ${market} from ${from} to ${to} into ${flags.dataDir}`);
    try {
      await fetchHistory({ ...ctx, stdout: ctx.stderr }, flags, { market, ...range }, false);
    } catch (e) {
      if (e instanceof CliExit) throw e;
      throw new InputError(
        '--from/--to',
        `could not fetch the prices of ${market}: ${e instanceof Error ? e.message : String(e)}; fetch them with ${command}, or give --data ${market}=FILE`,
        { cause: e },
      );
    }
  }
}

/** A complete fetch of a range holding `want`'s is in the cache. */
function covered(dir: string, want: Omit<FetchState, 'fetched' | 'complete' | 'totalCount'>): boolean {
  const { state, csv } = cachePaths(dir, want);
  if (!existsSync(state) || !existsSync(csv)) return false;
  const s = JSON.parse(readFileSync(state, 'utf8')) as FetchState;
  return s.complete && s.from <= want.from && s.to >= want.to;
}

/**
 * Fetches page after page from `state.fetched` until a short page or the total; saves after each. A
 * fresh fetch starts its cache only once the first page holds points: a range with none is an
 * error and the cache of an earlier range stays.
 */
async function fetchAll(
  api: ApiClient,
  dir: string,
  start: FetchState,
  fresh: boolean,
  onProgress: (done: number, total: number) => void,
): Promise<FetchState> {
  let state = start;
  let first = fresh;
  for (;;) {
    const page = await api.listHistoricalPrices(state.market, {
      increment: state.increment,
      'range.begin': state.from,
      'range.end': state.to,
      'pagination.limit': PAGE,
      'pagination.offset': state.fetched,
    });
    if (first) {
      if (page.items.length === 0) {
        throw new InputError(
          '--from/--to',
          `the venue has no ${state.increment} prices of ${state.market} from ${state.from} to ${state.to}: choose a range it has prices for (a range in the past; the platform keeps a market's history from its listing), or another --increment`,
        );
      }
      startCache(dir, state);
      first = false;
    }
    state = appendPage(dir, { ...state, ...(page.total_count !== undefined && { totalCount: page.total_count }) }, page.items);
    const total = state.totalCount ?? state.fetched;
    onProgress(state.fetched, Math.max(total, state.fetched));
    if (page.items.length < PAGE || state.fetched >= total) break;
  }
  state = { ...state, complete: true };
  saveState(dir, state);
  return state;
}

interface HistoryVenue {
  readonly api: ApiClient;
  close(): Promise<void>;
}

/**
 * The client to fetch with: --base-url, else the config's environment; in `local` without a URL, the
 * embedded sandbox started here (port 0, the config's seed, history back to `fromMs`) and closed after.
 */
async function openVenue(
  flags: HistoryVenueFlags,
  config: Readonly<Config>,
  label: string,
  fromMs: number,
  ctx: CliContext,
): Promise<HistoryVenue> {
  let sandbox: SandboxHandle | undefined;
  if (config.environment === 'local' && flags.baseUrl === undefined && config.api.base_url === undefined) {
    const now = new LiveClock().now();
    const historyDays = Math.max(730, Math.ceil((now - fromMs) / DAY_MS) + 1);
    const clientId = nonEmpty(ctx.env.TRADELOOP_CLIENT_ID) ?? LOCAL_CLIENT_ID;
    const clientSecret = nonEmpty(ctx.env.TRADELOOP_CLIENT_SECRET) ?? LOCAL_CLIENT_SECRET;
    sandbox = await startSandbox({
      port: 0,
      seed: config.local.seed,
      clients: [{ clientId, clientSecret }],
      logger: createLogger({ level: 'warn', destination: ctx.stderr, pretty: false }),
      sim: { historyDays },
    });
    writeLine(ctx.stderr, `environment local: the embedded sandbox (seed ${config.local.seed}) serves the history, at ${sandbox.apiUrl}`);
  } else {
    const target = apiTargetOf(config, label, flags);
    if (target !== undefined) ctx.apiTarget = target;
  }
  try {
    const api = createApiClientFromConfig(config, ctx.env, {
      ...(flags.baseUrl !== undefined && { apiUrl: flags.baseUrl }),
      ...(flags.tokenUrl !== undefined && { tokenUrl: flags.tokenUrl }),
      ...(sandbox && { apiUrl: sandbox.apiUrl, tokenUrl: sandbox.tokenUrl }),
      maxRetryWaitMs: 30_000,
    });
    return {
      api,
      close: async () => {
        await api.close();
        await sandbox?.close();
      },
    };
  } catch (err) {
    await sandbox?.close();
    if (err instanceof UnsafeTargetError) throw new CliExit(2, `error: ${err.message}`);
    throw err;
  }
}
