import { existsSync } from 'node:fs';
import { type Command } from 'commander';
import { LazyProgress, parseTime } from '../../../backtest/cli-input.js';
import { appendPage, cachePaths, checkIncrement, resumable, saveState, startCache, type FetchState } from '../../../backtest/history-cache.js';
import { UnsafeTargetError, createApiClientFromConfig, type ApiClient } from '../../api/index.js';
import { LiveClock } from '../../clock/index.js';
import { loadConfigFile, parseConfig } from '../../config/load.js';
import { InputError, isHistoricalMarket } from '../../core/index.js';
import { CliExit, type CliContext, writeLine } from '../context.js';

interface FetchFlags {
  readonly market: string;
  readonly increment: string;
  readonly from: string;
  readonly to: string;
  readonly dataDir: string;
  readonly config?: string;
  readonly baseUrl?: string;
  readonly tokenUrl?: string;
  readonly restart?: boolean;
}

const PAGE = 1000;

/**
 * `tradeloop history fetch`: every page of List Historical Prices for a market, increment and range,
 * from the local sandbox or the real one, into the price cache `tradeloop backtest --market` reads.
 * Resumable: each page is appended and counted, so a second run continues where the first stopped.
 */
export function registerHistory(program: Command, ctx: CliContext): void {
  const history = program.command('history').description('historical prices for backtests: fetch and cache List Historical Prices');
  history
    .command('fetch')
    .description('fetch every page of historical prices for a market into the local cache (resumable)')
    .requiredOption('--market <market>', 'market, e.g. BTCUSD')
    .requiredOption('--from <time>', 'range start, e.g. 2024-01-01 or 2024-01-01T00:00:00Z')
    .requiredOption('--to <time>', 'range end')
    .option('--increment <name>', 'ONE_MINUTE … FOUR_WEEKS', 'ONE_HOUR')
    .option('--data-dir <dir>', 'cache folder', 'data/history')
    .option('-c, --config <file>', 'YAML config: environment and API settings (default: config/default.yaml when present)')
    .option('--base-url <url>', 'API base URL ending in /v2 (e.g. the local sandbox)')
    .option('--token-url <url>', 'OAuth2 token URL (overrides the config)')
    .option('--restart', 'discard a partial fetch of the same range and start over')
    .action(async (flags: FetchFlags) => {
      if (!isHistoricalMarket(flags.market)) throw new InputError('--market', `${JSON.stringify(flags.market)} has no historical prices on the platform (e.g. BTCUSD, ETHUSD)`);
      const increment = checkIncrement(flags.increment);
      const fromMs = parseTime(flags.from, '--from')!;
      const toMs = parseTime(flags.to, '--to')!;
      if (toMs <= fromMs) throw new InputError('--to', `must be after --from (${flags.from})`);
      const want = { market: flags.market, increment, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
      const prior = flags.restart ? undefined : resumable(flags.dataDir, want);
      if (prior?.complete) {
        writeLine(ctx.stderr, `already cached: ${prior.fetched} points in ${cachePaths(flags.dataDir, want).csv}`);
        writeLine(ctx.stdout, cachePaths(flags.dataDir, want).csv);
        return;
      }
      let state: FetchState = prior ?? { ...want, fetched: 0, complete: false };
      if (prior === undefined) startCache(flags.dataDir, state);
      else writeLine(ctx.stderr, `resuming at point ${prior.fetched}${prior.totalCount === undefined ? '' : ` of ${prior.totalCount}`}`);
      const api = client(flags, ctx);
      const clock = new LiveClock();
      const progress = new LazyProgress(ctx.stderr, () => clock.now(), `history ${flags.market}`);
      try {
        state = await fetchAll(api, flags.dataDir, state, (d, t) => progress.update(d, t));
      } finally {
        progress.stop();
        await api.close();
      }
      writeLine(ctx.stderr, `${state.fetched} points of ${flags.market} at ${increment} cached`);
      writeLine(ctx.stdout, cachePaths(flags.dataDir, state).csv);
    });
}

/** Fetches page after page from `state.fetched` until a short page or the total; saves after each. */
async function fetchAll(api: ApiClient, dir: string, start: FetchState, onProgress: (done: number, total: number) => void): Promise<FetchState> {
  let state = start;
  for (;;) {
    const page = await api.listHistoricalPrices(state.market, {
      increment: state.increment, 'range.begin': state.from, 'range.end': state.to, 'pagination.limit': PAGE, 'pagination.offset': state.fetched,
    });
    state = appendPage(dir, { ...state, ...(page.total_count !== undefined && { totalCount: page.total_count }) }, page.items);
    const total = state.totalCount ?? state.fetched;
    onProgress(state.fetched, Math.max(total, state.fetched));
    if (page.items.length < PAGE || state.fetched >= total) break;
  }
  state = { ...state, complete: true };
  saveState(dir, state);
  return state;
}

function client(flags: FetchFlags, ctx: CliContext): ApiClient {
  const file = flags.config ?? (existsSync('config/default.yaml') ? 'config/default.yaml' : undefined);
  const config = file === undefined ? parseConfig({}) : loadConfigFile(file);
  try {
    return createApiClientFromConfig(config, ctx.env, {
      ...(flags.baseUrl !== undefined && { apiUrl: flags.baseUrl }),
      ...(flags.tokenUrl !== undefined && { tokenUrl: flags.tokenUrl }),
      maxRetryWaitMs: 30_000,
    });
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw new CliExit(2, `error: ${err.message}`);
    throw err;
  }
}
