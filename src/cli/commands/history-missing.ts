/**
 * `--from/--to` from the history cache: what is missing is fetched first (history.ts, loaded only
 * when a range is asked for, so a command reading files keeps the API client and the sandbox out of
 * its graph). `backtest` and `optimize` share it.
 */
import { cacheRange } from '../../../backtest/history-cache.js';
import type { CliContext } from '../context.js';
import type { HistoryVenueFlags } from './history.js';

export async function fetchMissing(
  ctx: CliContext,
  flags: Parameters<typeof cacheRange>[0] & HistoryVenueFlags,
  markets: readonly string[],
): Promise<void> {
  const range = cacheRange(flags);
  if (range !== undefined) await (await import('./history-action.js')).fetchMissingHistory(ctx, flags, markets, range);
}
