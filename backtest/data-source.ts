/**
 * Where `tradeloop backtest` and `optimize` take their points from, with the same flags and the same
 * errors: `--data FILE` (a price file, or a stream recording; `--price-column` picks a CSV column), or
 * `--market MARKET` with the history cache (`--from`, `--to`, `--increment`, `--data-dir`).
 */
import { InputError } from '../src/core/index.js';
import type { PriceSeries } from '../src/sim/prices/price-file.js';
import { parseTime } from './cli-input.js';
import { checkIncrement, loadCached } from './history-cache.js';
import { loadPriceFile } from './price-column.js';
import { isRecordingFile } from '../src/venue/polling/recording-format.js';

/** The data flags as commander hands them over. */
export interface DataFlags {
  readonly data?: string;
  readonly market?: string;
  readonly from?: string;
  readonly to?: string;
  readonly increment: string;
  readonly dataDir: string;
  readonly priceColumn?: string;
}

/**
 * Loads the points the flags name; `markets` are the strategy's (a recording replays the one market).
 * `keep.ohlc` (a bar strategy) keeps an OHLCV file's open, high, low and volume for its bars.
 */
export async function loadSeries(
  flags: DataFlags,
  markets: readonly string[],
  keep: { readonly ohlc?: boolean } = {},
): Promise<PriceSeries> {
  if ((flags.data === undefined) === (flags.market === undefined))
    throw new InputError('--data', 'give either --data FILE or --market MARKET (with cached prices), not both or neither');
  if (flags.data !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined)
      throw new InputError('--from', '--from and --to select cached prices with --market; trim the --data file instead');
    // a price file needs none of a recording's readers (the API's decoder, the HTTP client): they load for a recording only
    if (!isRecordingFile(flags.data)) return loadPriceFile(flags.data, flags.priceColumn, keep);
    const { loadDataFile } = await import('./recorded-series.js');
    return loadDataFile(flags.data, markets.length === 1 ? markets[0] : undefined, flags.priceColumn);
  }
  if (flags.priceColumn !== undefined)
    throw new InputError('--price-column', 'the history cache has one price per point; --price-column picks a column of a --data CSV file');
  const increment = checkIncrement(flags.increment);
  return loadCached(flags.dataDir, { market: flags.market!, increment }, parseTime(flags.from, '--from'), parseTime(flags.to, '--to'));
}
