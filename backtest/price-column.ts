/**
 * `--price-column NAME`: replays one named column of a CSV that has more columns than the price file
 * layouts know (OHLCV plus `average_price` or `vwap`, an exchange export with extra fields). The
 * named column becomes the price and the timestamp column is kept; every other column is left out,
 * line for line, so the price file's own checks report bad rows with the file's line numbers.
 * Without the flag, a CSV whose header has several price columns is refused with that flag as the fix.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from '../src/core/index.js';
import { loadPriceSeries, parsePriceCsv, PriceDataError, type PriceSeries } from '../src/sim/prices/price-file.js';

/** Header names that usually hold a price: any two of them make the header ambiguous. */
const PRICE_LIKE = new Set(['price', 'close', 'average_price', 'avg_price', 'vwap', 'mid', 'last', 'mark_price']);
const TIME_NAMES = ['timestamp', 'time', 'date', 'datetime'];

/**
 * Loads a price file; with `priceColumn`, a CSV's named column as the price (see the file comment).
 * Without it, a CSV refused for its header gets the `--price-column` fix added when the header has
 * more than one price column or columns the layouts do not know.
 */
export function loadPriceFile(file: string, priceColumn?: string): PriceSeries {
  if (priceColumn !== undefined) return loadColumn(file, priceColumn);
  try {
    // a replay reads times and prices only: open, high, low and volume are checked, not kept
    return loadPriceSeries(file, { priceOnly: true });
  } catch (e) {
    if (!(e instanceof PriceDataError) || !e.problems.some((p) => p.line === 1)) throw e;
    const hint = ambiguityHint(headerOf(readText(file)));
    if (hint === undefined) throw e;
    throw new PriceDataError(e.source, [{ line: 1, where: 'line 1', message: hint }, ...e.problems], e.problemCount + 1);
  }
}

function loadColumn(file: string, column: string): PriceSeries {
  const name = column.trim().toLowerCase();
  if (name === '') throw new InputError('--price-column', 'expected a column name of the CSV header, such as close');
  if (extname(file).toLowerCase() === '.json') throw new InputError('--price-column', `${file} is JSON (List Historical Prices): its price is the "price" field; --price-column picks a column of a CSV file`);
  const text = readText(file);
  const header = headerOf(text);
  const names = header.split(',').map(cleanName);
  const priceAt = names.indexOf(name);
  if (priceAt < 0) throw new InputError('--price-column', `${file} has no column "${column}"; its columns are ${names.join(', ')}`);
  const timeAt = names.findIndex((n) => TIME_NAMES.includes(n));
  if (timeAt < 0) throw new InputError('--price-column', `${file} has no time column (timestamp); its columns are ${names.join(', ')}`);
  if (timeAt === priceAt) throw new InputError('--price-column', `"${column}" is the time column of ${file}; name the column that holds the price, such as close`);
  const series = parsePriceCsv(twoColumns(text, timeAt, priceAt), file);
  return { ...series, source: `${file} (column ${name})` };
}

/**
 * `timestamp,price` text from the rows' fields at `timeAt` and `priceAt`, one output line per input
 * line (blank lines stay blank, so line numbers match the file's). A row too short for the price
 * column keeps an empty price, which the price file's checks report on its line.
 */
function twoColumns(text: string, timeAt: number, priceAt: number): string {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = text.indexOf('\n', start);
  if (firstEnd < 0) return 'timestamp,price\n';
  const out: string[] = ['timestamp,price'];
  let pos = firstEnd + 1;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(pos, end - 1) : text.slice(pos, end);
    if (line.trim() === '') out.push('');
    else {
      const fields = line.split(',');
      out.push(`${fields[timeAt] ?? ''},${fields[priceAt] ?? ''}`);
    }
    pos = end + 1;
  }
  return out.join('\n');
}

/** The fix for a header with several price columns or unknown ones, naming the columns to pick from. */
function ambiguityHint(header: string): string | undefined {
  const names = header.split(',').map(cleanName);
  const prices = names.filter((n) => PRICE_LIKE.has(n));
  const extra = names.filter((n) => !PRICE_LIKE.has(n) && !TIME_NAMES.includes(n) && !['open', 'high', 'low', 'volume'].includes(n));
  const timed = names.some((n) => TIME_NAMES.includes(n));
  if (prices.length < 2 && !(timed && prices.length + extra.length >= 2)) return undefined;
  const pick = prices.includes('close') ? 'close' : (prices[0] ?? extra[0]!);
  const choices = [...prices, ...extra].join(', ');
  return `more than one column could be the price (${choices}): name the one to replay with --price-column ${pick}`;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError('--data', `cannot read price file ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path`, { cause: err });
  }
}

function headerOf(text: string): string {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).trim();
}

function cleanName(raw: string): string {
  return raw.trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase();
}
