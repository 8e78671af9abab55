/**
 * Historical price points for the backtester and the sandbox's replay: CSV files (`timestamp,price` or
 * `timestamp,open,high,low,close,volume`) and JSON in List Historical Prices' shape, loaded into typed
 * arrays. A million-point CSV must load in well under two seconds, so CSV is read by a hand-rolled
 * scanner over the text (no split into a string per line or per field) into pre-sized Float64Arrays.
 * Bad data is never dropped or repaired: every problem is collected with its line and reported at once.
 *
 * This file holds the CSV scanner and `loadPriceSeries`. The header's layout is read in `price-layout.ts`,
 * rows the one-pass path cannot take in `price-row.ts`, timestamps in `price-time.ts`, JSON in
 * `price-json.ts`, and the shared types and error live in `price-data.ts`; whatever this file exported
 * before that split is re-exported here, so importers keep importing from `price-file.js`.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from '../../core/index.js';
import { PriceDataError, Problems, type PriceSeries } from './price-data.js';
import { HIGH, LOW, OPEN, PRICE, readLayout, SKIP, TIME, VOLUME, type CsvLayout } from './price-layout.js';
import { parsePriceJson } from './price-json.js';
import { isBlank, POW10, readRow } from './price-row.js';
import { parseTimeBytes } from './price-time.js';

export { MAX_LISTED_PROBLEMS, PriceDataError, type PriceProblem, type PriceSeries } from './price-data.js';
export { parsePriceJson } from './price-json.js';
export { parseRfc3339At } from './price-time.js';

/** Column storage during a CSV scan: one array per kind stored, grown when a file has more rows than estimated. */
interface Columns {
  readonly byKind: (Float64Array | undefined)[];
  /** The kinds stored (all present, or only time and price: every column is still checked). */
  readonly stored: readonly number[];
}

function allocate(layout: CsvLayout, capacity: number, priceOnly = false): Columns {
  const byKind: (Float64Array | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined];
  const stored = priceOnly ? layout.present.filter((k) => k === TIME || k === PRICE) : layout.present;
  for (const kind of stored) byKind[kind] = new Float64Array(capacity);
  return { byKind, stored };
}

/** Room for at least `rows` rows: each stored column copied once into one half as large again. */
function grow(cols: Columns, rows: number): void {
  for (const kind of cols.stored) {
    const old = cols.byKind[kind]!;
    const bigger = new Float64Array(Math.max(rows, Math.ceil(old.length * 1.5) + 1024));
    bigger.set(old);
    cols.byKind[kind] = bigger;
  }
}

/**
 * Parses CSV text with a header row. Columns are found by name (any order); `price`, `average_price`
 * or `close` gives the price. Timestamps are RFC 3339 with a zone or epoch milliseconds.
 * Throws PriceDataError listing every bad row.
 */
export function parsePriceCsv(text: string, source: string): PriceSeries {
  const problems = new Problems(source);
  const { layout, headerEnd } = readLayout(text, problems);
  const cols = allocate(layout, countLines(text, headerEnd + 1));
  const scan: ScanState = { n: 0, line: 1, prevLine: 0 };
  // the rows as bytes, scanned as a file's are: one reader for both
  const rows = Buffer.from(headerEnd + 1 < text.length ? text.slice(headerEnd + 1) : '', 'utf8');
  scanBytes(rows, 0, rows.length, layout, cols, problems, scan);
  return finish(source, cols, scan, problems);
}

function finish(source: string, cols: Columns, scan: ScanState, problems: Problems): PriceSeries {
  if (scan.n === 0 && problems.count === 0) problems.atLine(2, 'no data rows after the header');
  problems.throwIfAny();
  return seriesFrom(source, cols, scan.n);
}

/** Where a scan stands, so that a file read in chunks is scanned as one text: rows stored, the line number, the last stored row's line. */
interface ScanState {
  n: number;
  line: number;
  prevLine: number;
}

/** Bytes read at a time when a CSV file is loaded (the file's text is never held whole). */
const CHUNK_BYTES = 1 << 22;

/**
 * Loads a CSV price file in chunks of whole lines: the columns are the only copy of the data held
 * (a 1,000,000-row OHLCV file is 65 MB of text, more than its six columns), and a file larger than
 * a string can hold loads too. The file is read once: the columns are sized from the first chunk's
 * lines per byte over the file's size (a little spare; grown if the rest has shorter rows). Each
 * chunk's bytes are scanned as `parsePriceCsv` scans text (a row the one-pass path cannot take is
 * decoded and read by `readRow`): the same values, problems and line numbers. Bytes, not a string:
 * besides saving the decoding, V8 reads a string's characters several times slower in a process where
 * any module has subclassed String (ioredis does), and the tradeloop command loads such modules.
 */
function loadCsvFile(fd: number, source: string, options: LoadOptions): PriceSeries {
  let buf = Buffer.allocUnsafe(CHUNK_BYTES);
  const problems = new Problems(source);
  const scan: ScanState = { n: 0, line: 1, prevLine: 0 };
  const pick =
    options.priceColumn === undefined ? undefined : { name: options.priceColumn, field: options.priceColumnField ?? 'priceColumn', source };
  let layout: CsvLayout | undefined;
  let cols: Columns | undefined;
  let carry = 0;
  for (let at = 0; ;) {
    const got = readSync(fd, buf, carry, buf.length - carry, at);
    at += got;
    const end = carry + got;
    const last = got === 0;
    // whole lines only: a newline byte is never part of a multi-byte UTF-8 character
    const cut = last ? end : buf.lastIndexOf(10, end - 1) + 1;
    if (cut === 0 && !last) {
      // one line longer than the buffer: read it into a larger one
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, end);
      buf = bigger;
      carry = end;
      continue;
    }
    let from = 0;
    if (layout === undefined) {
      // the header row as text (a BOM, quotes, any case); the rows are scanned as bytes
      const nl = buf.indexOf(10);
      const headerEnd = nl >= 0 && nl < cut ? nl : cut;
      layout = readLayout(buf.toString('utf8', 0, headerEnd), problems, pick).layout;
      from = headerEnd + 1;
      cols = allocate(layout, estimateRows(buf, from, cut, last ? end : fstatSync(fd).size), options.priceOnly);
    }
    scanBytes(buf, from, cut, layout, cols!, problems, scan);
    if (last) break;
    buf.copy(buf, 0, cut, end);
    carry = end - cut;
  }
  if (layout === undefined) {
    // an empty file: the same answer as for empty text
    readLayout('', problems, pick);
  }
  return finish(source, cols!, scan, problems);
}

/** Rows to allocate for a file of `size` bytes whose first rows are bytes [from, cut) of `b`: its lines per byte, 2 % spare. */
function estimateRows(b: Buffer, from: number, cut: number, size: number): number {
  let lines = 1;
  for (let i = b.indexOf(10, from); i >= 0 && i < cut; i = b.indexOf(10, i + 1)) lines++;
  return cut - from >= size - from ? lines : Math.ceil(((size - from) * lines * 1.02) / Math.max(1, cut - from)) + 64;
}

function countLines(text: string, from: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n', from); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

function seriesFrom(source: string, cols: Columns, n: number): PriceSeries {
  // the columns were sized by counting or estimating lines (a few spare): a view of the first n, not a copy of every column at once (which was the load's peak memory); only
  // a column with much to spare is copied so that it can be let go
  const trim = (a: Float64Array | undefined): Float64Array | undefined =>
    a && a.length !== n ? (a.length - n > n >> 3 ? a.slice(0, n) : a.subarray(0, n)) : a;
  const [times, prices, opens, highs, lows, volumes] = cols.byKind.map(trim);
  return {
    source,
    length: n,
    times: times!,
    prices: prices!,
    ...(opens && { opens }),
    ...(highs && { highs }),
    ...(lows && { lows }),
    ...(volumes && { volumes }),
  };
}

/**
 * Scans data rows (bytes [pos, len) of whole lines), storing valid rows (counts carried in `scan`).
 * Each row first takes the one-pass fast path (`fastRowBytes`); a row it cannot take (spaces,
 * quotes, exponents, a bad value, a blank line) is decoded and read again by `readRow`, which parses
 * every form and reports each problem.
 */
function scanBytes(b: Buffer, pos: number, len: number, layout: CsvLayout, cols: Columns, problems: Problems, scan: ScanState): void {
  const values = new Float64Array(SKIP + 1);
  let times = cols.byKind[TIME]!;
  const stored = cols.stored;
  let n = scan.n;
  let line = scan.line;
  let prevLine = scan.prevLine;
  while (pos < len) {
    line++;
    const fastEnd = fastRowBytes(b, pos, len, layout, values);
    let next: number;
    let ok: boolean;
    if (fastEnd >= 0) {
      next = fastEnd + 1;
      ok = true;
    } else {
      let end = b.indexOf(10, pos);
      if (end < 0 || end >= len) end = len;
      next = end + 1;
      if (end > pos && b[end - 1] === 13) end--;
      const text = b.toString('utf8', pos, end);
      ok = !isBlank(text, 0, text.length) && readRow(text, 0, text.length, line, layout, values, problems);
    }
    if (ok) {
      const t = values[TIME]!;
      if (n > 0 && t <= times[n - 1]!) {
        problems.atLine(
          line,
          t === times[n - 1]
            ? `duplicate timestamp (same as line ${prevLine}); each point needs its own time`
            : `timestamp is earlier than line ${prevLine}'s; rows must be in ascending time order`,
        );
      } else {
        if (n === times.length) {
          grow(cols, n + 1);
          times = cols.byKind[TIME]!;
        }
        for (let k = 0; k < stored.length; k++) cols.byKind[stored[k]!]![n] = values[stored[k]!]!;
        prevLine = line;
        n++;
      }
    }
    pos = next;
  }
  scan.n = n;
  scan.line = line;
  scan.prevLine = prevLine;
}

/**
 * The common row in one pass: plain fields (digits with at most one dot, up to 15 digits; a timestamp
 * `parseTimeBytes` takes) separated by commas, every value valid and OHLC consistent; a column the
 * layout reads past (SKIP) is any bytes up to its comma. Stores the
 * values and answers the index of the row's newline (or len); -1 when the row needs the general
 * reader (`readRow`), which then parses it and names each problem.
 */
function fastRowBytes(b: Uint8Array, pos: number, len: number, layout: CsvLayout, values: Float64Array): number {
  const kinds = layout.kinds;
  let i = pos;
  const last = kinds.length - 1;
  for (let col = 0; col <= last; col++) {
    const kind = kinds[col]!;
    const s = i;
    let c = 0;
    let v: number;
    if (kind === SKIP) {
      while (i < len && (c = b[i]!) !== 44 && c !== 10 && c !== 13) i++;
      v = 0;
    } else if (kind === TIME) {
      while (i < len && (c = b[i]!) !== 44 && c !== 10 && c !== 13) i++;
      v = parseTimeBytes(b, s, i);
      if (!Number.isFinite(v)) return -1;
    } else {
      let mantissa = 0;
      let digits = 0;
      let frac = -1;
      for (; i < len; i++) {
        c = b[i]!;
        if (c >= 48 && c <= 57) {
          mantissa = mantissa * 10 + (c - 48);
          digits++;
          if (frac >= 0) frac++;
        } else if (c === 46 && frac < 0) frac = 0;
        else break;
      }
      if (digits === 0 || digits > 15) return -1;
      v = frac <= 0 ? mantissa : mantissa / POW10[frac]!;
      if (kind === VOLUME ? !(v >= 0) : !(v > 0)) return -1;
    }
    values[kind] = v;
    if (i >= len) {
      if (col !== last) return -1;
      break;
    }
    c = b[i]!;
    if (col < last) {
      if (c !== 44) return -1;
      i++;
    } else if (c === 13) {
      if (i + 1 < len && b[i + 1] !== 10) return -1;
      i++;
    } else if (c !== 10) return -1;
  }
  if (layout.ohlc) {
    const open = values[OPEN]!;
    const close = values[PRICE]!;
    const high = values[HIGH]!;
    const low = values[LOW]!;
    if (high < Math.max(open, close, low) || low > Math.min(open, close, high)) return -1;
  }
  return i < len ? i : len;
}

export interface LoadOptions {
  /**
   * Keep only the times and prices of an OHLCV file (every column is still read and checked): what
   * a backtest replays, without four more columns as large as the prices (default false).
   */
  readonly priceOnly?: boolean;
  /**
   * A CSV's column to read as the price, by its header name (any case): the time column (timestamp,
   * time, date or datetime) and this one are read and checked, every other column is read past. Same
   * pass, time and memory as a file of the known layouts; problems name the column (`close -1 is not
   * positive`). A JSON file is refused.
   */
  readonly priceColumn?: string;
  /** What errors about `priceColumn` call it (a flag's name, such as `--price-column`; default `priceColumn`). */
  readonly priceColumnField?: string;
}

/**
 * Loads a price file: `.csv`/`.txt` as CSV, `.json` as JSON, anything else by its first character
 * (as CSV when a price column is named). Throws InputError naming the file when it cannot be read (or
 * the price column is not in it), PriceDataError when its data is bad.
 */
export function loadPriceSeries(file: string, options: LoadOptions = {}): PriceSeries {
  const ext = extname(file).toLowerCase();
  const column = options.priceColumn;
  if (column !== undefined) {
    const field = options.priceColumnField ?? 'priceColumn';
    if (column.trim() === '') throw new InputError(field, 'expected a column name of the CSV header, such as close');
    if (ext === '.json')
      throw new InputError(
        field,
        `${file} is JSON (List Historical Prices): its price is the "price" field; a price column is picked from a CSV file`,
      );
  }
  let fd: number | undefined;
  try {
    if (ext !== '.json') {
      fd = openSync(file, 'r');
      const head = Buffer.alloc(64);
      const csv =
        column !== undefined ||
        ext === '.csv' ||
        ext === '.txt' ||
        !/^\uFEFF?\s*[[{]/.test(head.toString('utf8', 0, readSync(fd, head, 0, 64, 0)));
      if (csv) return loadCsvFile(fd, file, options);
    }
    return parsePriceJson(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if (err instanceof PriceDataError || err instanceof InputError) throw err;
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    const fix = /TOO_LARGE|TOO_LONG/.test(reason) ? 'the file is too large to load at once; split it by time range' : 'check the path';
    throw new InputError('data', `cannot read price file ${file} (${reason}); ${fix}`, { cause: err });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The columns of an OHLCV file, each a Float64Array of `length` values in time order. */
export interface OhlcvColumns {
  readonly source: string;
  readonly length: number;
  /** Epoch milliseconds, strictly ascending. */
  readonly times: Float64Array;
  readonly opens: Float64Array;
  readonly highs: Float64Array;
  readonly lows: Float64Array;
  readonly closes: Float64Array;
  /** Present when the file has a `volume` column. */
  readonly volumes?: Float64Array;
}

/**
 * Loads an OHLCV CSV file (`timestamp,open,high,low,close[,volume]`, any order) into its columns in one
 * pass, each checked as `loadPriceSeries` checks them (OHLC consistent, volumes not negative): the
 * arrays the scan filled, never a second copy (`closes` is the series' `prices`). What bars are built
 * from; a file without open, high and low is refused naming the columns it has.
 */
export function loadOhlcvColumns(file: string): OhlcvColumns {
  const s = loadPriceSeries(file);
  if (s.opens === undefined || s.highs === undefined || s.lows === undefined) {
    throw new PriceDataError(
      file,
      [
        {
          line: 1,
          where: 'line 1',
          message: 'OHLCV columns needed: open, high, low and close (volume if any); this file has a price column only',
        },
      ],
      1,
    );
  }
  return {
    source: s.source,
    length: s.length,
    times: s.times,
    opens: s.opens,
    highs: s.highs,
    lows: s.lows,
    closes: s.prices,
    ...(s.volumes && { volumes: s.volumes }),
  };
}
