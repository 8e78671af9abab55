/**
 * Historical price points for the backtester and the sandbox's replay: CSV files (`timestamp,price` or
 * `timestamp,open,high,low,close,volume`) and JSON in List Historical Prices' shape, loaded into typed
 * arrays. A million-point CSV must load in well under two seconds, so CSV is read by a hand-rolled
 * scanner over the text (no split into a string per line or per field) into pre-sized Float64Arrays.
 * Bad data is never dropped or repaired: every problem is collected with its line and reported at once.
 *
 * This file holds the CSV scanner and `loadPriceSeries`. Timestamps are parsed in `price-time.ts`, JSON
 * in `price-json.ts`, and the shared types and error live in `price-data.ts`; whatever this file exported
 * before that split is re-exported here, so importers keep importing from `price-file.js`.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from '../../core/index.js';
import { clip, isDigit, isPad, NUMBER, PriceDataError, Problems, type PriceSeries } from './price-data.js';
import { parsePriceJson } from './price-json.js';
import { describeBadTime, parseTimeAt, parseTimeBytes } from './price-time.js';

export { MAX_LISTED_PROBLEMS, PriceDataError, type PriceProblem, type PriceSeries } from './price-data.js';
export { parsePriceJson } from './price-json.js';
export { parseRfc3339At } from './price-time.js';

const TIME = 0;
const PRICE = 1;
const OPEN = 2;
const HIGH = 3;
const LOW = 4;
const VOLUME = 5;
const KIND_LABELS = ['timestamp', 'price', 'open', 'high', 'low', 'volume'] as const;
const COLUMN_KINDS: Readonly<Record<string, number>> = {
  timestamp: TIME, price: PRICE, average_price: PRICE, close: PRICE, open: OPEN, high: HIGH, low: LOW, volume: VOLUME,
};
const LAYOUTS_HINT = 'expected a header row "timestamp,price" or "timestamp,open,high,low,close,volume"';

/** Reads the header row into the kind of each column, or reports why it cannot be used. */
function readHeader(header: string, problems: Problems): number[] | undefined {
  const names = header.split(',').map((h) => h.trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase());
  const kinds: number[] = [];
  const seen = new Map<number, string>();
  for (const name of names) {
    const kind = COLUMN_KINDS[name];
    if (kind === undefined) {
      problems.atLine(1, `unknown column "${clip(name)}"; ${LAYOUTS_HINT}`);
      continue;
    }
    const before = seen.get(kind);
    if (before !== undefined) problems.atLine(1, `columns "${before}" and "${name}" both give the ${KIND_LABELS[kind]}; keep one`);
    seen.set(kind, name);
    kinds.push(kind);
  }
  if (!seen.has(TIME)) problems.atLine(1, `missing column "timestamp"; ${LAYOUTS_HINT}`);
  if (!seen.has(PRICE)) problems.atLine(1, `missing column "price" (or "close"); ${LAYOUTS_HINT}`);
  const ohlc = [OPEN, HIGH, LOW].filter((k) => seen.has(k));
  if (ohlc.length > 0 && (ohlc.length < 3 || seen.get(PRICE) !== 'close')) {
    problems.atLine(1, 'OHLC data needs all of the columns open, high, low and close');
  }
  return problems.count > 0 ? undefined : kinds;
}

/** Column storage during a CSV scan: one pre-sized array per kind present. */
interface Columns {
  readonly byKind: (Float64Array | undefined)[];
  /** The kinds stored (all read, or only time and price: every column is still checked). */
  readonly stored: readonly number[];
}

function allocate(kinds: readonly number[], capacity: number, priceOnly = false): Columns {
  const byKind: (Float64Array | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined];
  const stored = priceOnly ? kinds.filter((k) => k === TIME || k === PRICE) : [...kinds];
  for (const kind of stored) byKind[kind] = new Float64Array(capacity);
  return { byKind, stored };
}

/**
 * Parses CSV text with a header row. Columns are found by name (any order); `price`, `average_price`
 * or `close` gives the price. Timestamps are RFC 3339 with a zone or epoch milliseconds.
 * Throws PriceDataError listing every bad row.
 */
export function parsePriceCsv(text: string, source: string): PriceSeries {
  const problems = new Problems(source);
  const { kinds, headerEnd } = readHeaderOf(text, problems);
  const cols = allocate(kinds, countLines(text, headerEnd + 1));
  const scan: ScanState = { n: 0, line: 1, prevLine: 0 };
  // the rows as bytes, scanned as a file's are: one reader for both
  const rows = Buffer.from(headerEnd + 1 < text.length ? text.slice(headerEnd + 1) : '', 'utf8');
  scanBytes(rows, 0, rows.length, kinds, cols, problems, scan);
  return finish(source, cols, scan, problems);
}

/** The header row at the start of `text` (after a BOM): the column kinds, and where the row ends. Throws when unusable. */
function readHeaderOf(text: string, problems: Problems): { kinds: number[]; headerEnd: number } {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let headerEnd = text.indexOf('\n', start);
  if (headerEnd < 0) headerEnd = text.length;
  const header = text.slice(start, headerEnd).trim();
  if (header === '' || isDigit(header.charCodeAt(0))) {
    problems.atLine(1, `the first line must be the header row; ${LAYOUTS_HINT}`);
  }
  const kinds = problems.count > 0 ? undefined : readHeader(header, problems);
  problems.throwIfAny();
  return { kinds: kinds!, headerEnd };
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
 * a string can hold loads too. Counts the lines first (to size the columns), then scans each chunk's
 * bytes as `parsePriceCsv` scans text (a row the one-pass path cannot take is decoded and read by
 * `readRow`): the same values, problems and line numbers. Bytes, not a string: besides saving the
 * decoding, V8 reads a string's characters several times slower in a process where any module has
 * subclassed String (ioredis does), and the tradeloop command loads such modules.
 */
function loadCsvFile(fd: number, source: string, priceOnly: boolean): PriceSeries {
  let buf = Buffer.allocUnsafe(CHUNK_BYTES);
  let lines = 1;
  for (let at = 0; ;) {
    const got = readSync(fd, buf, 0, buf.length, at);
    if (got === 0) break;
    for (let i = buf.indexOf(10); i >= 0 && i < got; i = buf.indexOf(10, i + 1)) lines++;
    at += got;
  }
  const problems = new Problems(source);
  const scan: ScanState = { n: 0, line: 1, prevLine: 0 };
  let kinds: number[] | undefined;
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
    if (kinds === undefined) {
      // the header row as text (a BOM, quotes, any case); the rows are scanned as bytes
      const nl = buf.indexOf(10);
      const headerEnd = nl >= 0 && nl < cut ? nl : cut;
      kinds = readHeaderOf(buf.toString('utf8', 0, headerEnd), problems).kinds;
      cols = allocate(kinds, lines, priceOnly);
      from = headerEnd + 1;
    }
    scanBytes(buf, from, cut, kinds, cols!, problems, scan);
    if (last) break;
    buf.copy(buf, 0, cut, end);
    carry = end - cut;
  }
  if (kinds === undefined) {
    // an empty file: the same answer as for empty text
    readHeaderOf('', problems);
  }
  return finish(source, cols!, scan, problems);
}

function countLines(text: string, from: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n', from); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

function seriesFrom(source: string, cols: Columns, n: number): PriceSeries {
  // the columns were sized by counting lines (a final newline or blank lines leave a few spare): a
  // view of the first n, not a copy of every column at once (which was the load's peak memory); only
  // a column with much to spare is copied so that it can be let go
  const trim = (a: Float64Array | undefined): Float64Array | undefined => (a && a.length !== n ? (a.length - n > (n >> 3) ? a.slice(0, n) : a.subarray(0, n)) : a);
  const [times, prices, opens, highs, lows, volumes] = cols.byKind.map(trim);
  return {
    source, length: n, times: times!, prices: prices!,
    ...(opens && { opens }), ...(highs && { highs }), ...(lows && { lows }), ...(volumes && { volumes }),
  };
}

/**
 * Scans data rows (bytes [pos, len) of whole lines), storing valid rows (counts carried in `scan`).
 * Each row first takes the one-pass fast path (`fastRowBytes`); a row it cannot take (spaces,
 * quotes, exponents, a bad value, a blank line) is decoded and read again by `readRow`, which parses
 * every form and reports each problem.
 */
function scanBytes(b: Buffer, pos: number, len: number, kinds: readonly number[], cols: Columns, problems: Problems, scan: ScanState): void {
  const values = new Float64Array(6);
  const times = cols.byKind[TIME]!;
  const stored = cols.stored;
  let n = scan.n;
  let line = scan.line;
  let prevLine = scan.prevLine;
  while (pos < len) {
    line++;
    const fastEnd = fastRowBytes(b, pos, len, kinds, values);
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
      ok = !isBlank(text, 0, text.length) && readRow(text, 0, text.length, line, kinds, values, problems);
    }
    if (ok) {
      const t = values[TIME]!;
      if (n > 0 && t <= times[n - 1]!) {
        problems.atLine(line, t === times[n - 1]
          ? `duplicate timestamp (same as line ${prevLine}); each point needs its own time`
          : `timestamp is earlier than line ${prevLine}'s; rows must be in ascending time order`);
      } else {
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
 * `parseTimeBytes` takes) separated by commas, every value valid and OHLC consistent. Stores the
 * values and answers the index of the row's newline (or len); -1 when the row needs the general
 * reader (`readRow`), which then parses it and names each problem.
 */
function fastRowBytes(b: Uint8Array, pos: number, len: number, kinds: readonly number[], values: Float64Array): number {
  let i = pos;
  const last = kinds.length - 1;
  for (let col = 0; col <= last; col++) {
    const kind = kinds[col]!;
    const s = i;
    let c = 0;
    let v: number;
    if (kind === TIME) {
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
  if (kinds.length > 3) {
    const open = values[OPEN]!;
    const close = values[PRICE]!;
    const high = values[HIGH]!;
    const low = values[LOW]!;
    if (high < Math.max(open, close, low) || low > Math.min(open, close, high)) return -1;
  }
  return i < len ? i : len;
}


/** Parses one row's fields into `values` by kind; reports and returns false when any is bad. */
function readRow(
  text: string, start: number, end: number, line: number, kinds: readonly number[], values: Float64Array, problems: Problems,
): boolean {
  const before = problems.count;
  let s = start;
  let col = 0;
  for (;;) {
    let e = s;
    while (e < end && text.charCodeAt(e) !== 44) e++;
    const kind = kinds[col];
    if (kind !== undefined) {
      const v = kind === TIME ? parseTimeAt(text, s, e) : parseNumberAt(text, s, e);
      values[kind] = v;
      const ok = kind === TIME ? Number.isFinite(v) : kind === VOLUME ? v >= 0 && v < Infinity : v > 0 && v < Infinity;
      if (!ok) reportField(text.slice(s, e), kind, line, problems);
    }
    col++;
    if (e >= end) break;
    s = e + 1;
  }
  if (col !== kinds.length) {
    problems.atLine(line, `expected ${kinds.length} fields (${kinds.map((k) => KIND_LABELS[k]).join(',')}), found ${col}`);
  } else if (problems.count === before && kinds.length > 3 /* only OHLC layouts have more than 3 */) {
    checkOhlc(values, line, problems);
  }
  return problems.count === before;
}

function checkOhlc(v: Float64Array, line: number, problems: Problems): void {
  const open = v[OPEN]!;
  const close = v[PRICE]!;
  const high = v[HIGH]!;
  const low = v[LOW]!;
  if (high < Math.max(open, close, low)) problems.atLine(line, `high ${high} is below the open, close or low`);
  if (low > Math.min(open, close, high)) problems.atLine(line, `low ${low} is above the open, close or high`);
}

function reportField(raw: string, kind: number, line: number, problems: Problems): void {
  const value = unquote(raw);
  const label = KIND_LABELS[kind]!;
  if (kind === TIME) problems.atLine(line, describeBadTime(value));
  else if (value === '') problems.atLine(line, `${label} is empty`);
  else if (!NUMBER.test(value) || !Number.isFinite(Number(value))) problems.atLine(line, `${label} "${clip(value)}" is not a number`);
  else if (kind === VOLUME) problems.atLine(line, `volume ${value} is negative; volumes must be 0 or more`);
  else problems.atLine(line, `${label} ${value} is not positive; prices must be greater than 0`);
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * Parses a decimal number in text[s, e) (spaces and quotes around it allowed). Plain decimals of up to
 * 15 digits take an exact fast path (integer mantissa / power of ten is correctly rounded); anything
 * else falls back to Number(). Returns NaN when the text is not a number.
 */
function parseNumberAt(text: string, s: number, e: number): number {
  while (s < e && isPad(text.charCodeAt(s))) s++;
  while (e > s && isPad(text.charCodeAt(e - 1))) e--;
  let mantissa = 0;
  let digits = 0;
  let dot = -1;
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
    } else if (c === 46 && dot < 0) dot = i;
    else return slowNumber(text, s, e);
  }
  if (digits === 0) return NaN;
  if (digits > 15) return slowNumber(text, s, e);
  return dot < 0 ? mantissa : mantissa / POW10[e - dot - 1]!;
}

function slowNumber(text: string, s: number, e: number): number {
  const raw = text.slice(s, e);
  return NUMBER.test(raw) ? Number(raw) : NaN;
}

export interface LoadOptions {
  /**
   * Keep only the times and prices of an OHLCV file (every column is still read and checked): what
   * a backtest replays, without four more columns as large as the prices (default false).
   */
  readonly priceOnly?: boolean;
}

/**
 * Loads a price file: `.csv`/`.txt` as CSV, `.json` as JSON, anything else by its first character.
 * Throws InputError naming the file when it cannot be read, PriceDataError when its data is bad.
 */
export function loadPriceSeries(file: string, options: LoadOptions = {}): PriceSeries {
  const ext = extname(file).toLowerCase();
  let fd: number | undefined;
  try {
    if (ext !== '.json') {
      fd = openSync(file, 'r');
      const head = Buffer.alloc(64);
      const csv = ext === '.csv' || ext === '.txt' || !/^\uFEFF?\s*[[{]/.test(head.toString('utf8', 0, readSync(fd, head, 0, 64, 0)));
      if (csv) return loadCsvFile(fd, file, options.priceOnly ?? false);
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

function isBlank(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) return false;
  return true;
}
function unquote(raw: string): string {
  return raw.trim().replace(/^"(.*)"$/, '$1').trim();
}
