/**
 * `--price-column NAME`: replays one named column of a CSV that has more columns than the price file
 * layouts know (OHLCV plus `average_price` or `vwap`, an exchange export with extra fields). The
 * named column becomes the price and the timestamp column is kept; every other column is read past
 * (`loadPriceSeries`' priceColumn: one pass, the time and memory of a load without the flag), and the
 * price file's own checks report bad rows with the file's line numbers and the column's name.
 * Without the flag, a CSV whose header has several price columns is refused with that flag as the fix.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { loadPriceSeries, PriceDataError, type PriceSeries } from '../src/sim/prices/price-file.js';
import { columnNames, headerRow, TIME_NAMES } from '../src/sim/prices/price-layout.js';

/** Header names that usually hold a price: any two of them make the header ambiguous. */
const PRICE_LIKE = new Set(['price', 'close', 'average_price', 'avg_price', 'vwap', 'mid', 'last', 'mark_price']);

/**
 * Loads a price file; with `priceColumn`, a CSV's named column as the price (see the file comment);
 * with `keep.ohlc`, an OHLCV file's open, high, low and volume columns too (same single pass).
 * Without it, a CSV refused for its header gets the `--price-column` fix added when the header has
 * more than one price column or columns the layouts do not know.
 */
export function loadPriceFile(file: string, priceColumn?: string, keep: { readonly ohlc?: boolean } = {}): PriceSeries {
  if (priceColumn !== undefined) return loadColumn(file, priceColumn);
  try {
    // a replay of points reads times and prices only: open, high, low and volume are checked, not kept;
    // a bar strategy keeps them (its bars are the file's rows, with their highs and lows)
    return loadPriceSeries(file, { priceOnly: keep.ohlc !== true });
  } catch (e) {
    if (!(e instanceof PriceDataError) || !e.problems.some((p) => p.line === 1)) throw e;
    const hint = ambiguityHint(headerOf(file));
    if (hint === undefined) throw e;
    throw new PriceDataError(e.source, [{ line: 1, where: 'line 1', message: hint }, ...e.problems], e.problemCount + 1);
  }
}

function loadColumn(file: string, column: string): PriceSeries {
  // the same one pass over the file as without the flag: the time column and this one stored, the rest read past
  const series = loadPriceSeries(file, { priceColumn: column, priceColumnField: '--price-column' });
  return { ...series, source: `${file} (column ${column.trim().toLowerCase()})` };
}

/** The fix for a header with several price columns or unknown ones, naming the columns to pick from. */
function ambiguityHint(header: string): string | undefined {
  const names = columnNames(header);
  const prices = names.filter((n) => PRICE_LIKE.has(n));
  const extra = names.filter((n) => !PRICE_LIKE.has(n) && !TIME_NAMES.includes(n) && !['open', 'high', 'low', 'volume'].includes(n));
  const timed = names.some((n) => TIME_NAMES.includes(n));
  if (prices.length < 2 && !(timed && prices.length + extra.length >= 2)) return undefined;
  const pick = prices.includes('close') ? 'close' : (prices[0] ?? extra[0]!);
  const choices = [...prices, ...extra].join(', ');
  return `more than one column could be the price (${choices}): name the one to replay with --price-column ${pick}`;
}

/** The header row of a CSV file (the first 64 KiB read, no more); empty when the file cannot be read. */
function headerOf(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.allocUnsafe(1 << 16);
    return headerRow(head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0))).header;
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
