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
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from '../../core/index.js';
import { clip, isDigit, isPad, NUMBER, Problems, type PriceSeries } from './price-data.js';
import { parsePriceJson } from './price-json.js';
import { describeBadTime, parseTimeAt } from './price-time.js';

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
}

function allocate(kinds: readonly number[], capacity: number): Columns {
  const byKind: (Float64Array | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined];
  for (const kind of kinds) byKind[kind] = new Float64Array(capacity);
  return { byKind };
}

/**
 * Parses CSV text with a header row. Columns are found by name (any order); `price`, `average_price`
 * or `close` gives the price. Timestamps are RFC 3339 with a zone or epoch milliseconds.
 * Throws PriceDataError listing every bad row.
 */
export function parsePriceCsv(text: string, source: string): PriceSeries {
  const problems = new Problems(source);
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let headerEnd = text.indexOf('\n', start);
  if (headerEnd < 0) headerEnd = text.length;
  const header = text.slice(start, headerEnd).trim();
  if (header === '' || isDigit(header.charCodeAt(0))) {
    problems.atLine(1, `the first line must be the header row; ${LAYOUTS_HINT}`);
  }
  const kinds = problems.count > 0 ? undefined : readHeader(header, problems);
  problems.throwIfAny();
  const cols = allocate(kinds!, countLines(text, headerEnd + 1));
  const n = scanRows(text, headerEnd + 1, kinds!, cols, problems);
  if (n === 0 && problems.count === 0) problems.atLine(2, 'no data rows after the header');
  problems.throwIfAny();
  return seriesFrom(source, cols, n);
}

function countLines(text: string, from: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n', from); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

function seriesFrom(source: string, cols: Columns, n: number): PriceSeries {
  const trim = (a: Float64Array | undefined): Float64Array | undefined => (a && a.length !== n ? a.slice(0, n) : a);
  const [times, prices, opens, highs, lows, volumes] = cols.byKind.map(trim);
  return {
    source, length: n, times: times!, prices: prices!,
    ...(opens && { opens }), ...(highs && { highs }), ...(lows && { lows }), ...(volumes && { volumes }),
  };
}

/**
 * Scans data rows from `pos`, storing valid rows; returns the number stored. Each row first takes the
 * one-pass fast path (`fastRow`); a row it cannot take (spaces, quotes, exponents, a bad value, a
 * blank line) is read again by `readRow`, which parses every form and reports each problem.
 */
function scanRows(text: string, pos: number, kinds: readonly number[], cols: Columns, problems: Problems): number {
  const values = new Float64Array(6);
  const times = cols.byKind[TIME]!;
  const len = text.length;
  let n = 0;
  let line = 1;
  let prevLine = 0;
  while (pos < len) {
    line++;
    const fastEnd = fastRow(text, pos, len, kinds, values);
    let next: number;
    let ok: boolean;
    if (fastEnd >= 0) {
      next = fastEnd + 1;
      ok = true;
    } else {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = len;
      next = end + 1;
      if (end > pos && text.charCodeAt(end - 1) === 13) end--;
      ok = !isBlank(text, pos, end) && readRow(text, pos, end, line, kinds, values, problems);
    }
    if (ok) {
      const t = values[TIME]!;
      if (n > 0 && t <= times[n - 1]!) {
        problems.atLine(line, t === times[n - 1]
          ? `duplicate timestamp (same as line ${prevLine}); each point needs its own time`
          : `timestamp is earlier than line ${prevLine}'s; rows must be in ascending time order`);
      } else {
        for (let k = 0; k < kinds.length; k++) cols.byKind[kinds[k]!]![n] = values[kinds[k]!]!;
        prevLine = line;
        n++;
      }
    }
    pos = next;
  }
  return n;
}

/**
 * The common row in one pass: plain fields (digits with at most one dot, up to 15 digits; a timestamp
 * `parseTimeAt` takes) separated by commas, every value valid and OHLC consistent. Stores the values
 * by kind and returns the index of the row's newline (or the text's end); -1 when the row is anything
 * else, for `readRow` to read and report. Both paths give the same numbers (same digits, same division).
 */
function fastRow(text: string, pos: number, len: number, kinds: readonly number[], values: Float64Array): number {
  let i = pos;
  const last = kinds.length - 1;
  for (let col = 0; col <= last; col++) {
    const kind = kinds[col]!;
    const s = i;
    let c = 0;
    let v: number;
    if (kind === TIME) {
      while (i < len && (c = text.charCodeAt(i)) !== 44 && c !== 10 && c !== 13) i++;
      v = parseTimeAt(text, s, i);
      if (!Number.isFinite(v)) return -1;
    } else {
      let mantissa = 0;
      let digits = 0;
      let frac = -1;
      for (; i < len; i++) {
        c = text.charCodeAt(i);
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
    c = text.charCodeAt(i);
    if (col < last) {
      if (c !== 44) return -1;
      i++;
    } else if (c === 13) {
      // a CRLF row end, or a CR closing the text (as the slow path strips it)
      if (i + 1 < len && text.charCodeAt(i + 1) !== 10) return -1;
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

/**
 * Loads a price file: `.csv`/`.txt` as CSV, `.json` as JSON, anything else by its first character.
 * Throws InputError naming the file when it cannot be read, PriceDataError when its data is bad.
 */
export function loadPriceSeries(file: string): PriceSeries {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    const fix = /TOO_LARGE|TOO_LONG/.test(reason) ? 'the file is too large to load at once; split it by time range' : 'check the path';
    throw new InputError('data', `cannot read price file ${file} (${reason}); ${fix}`, { cause: err });
  }
  const ext = extname(file).toLowerCase();
  const json = ext === '.json' || (ext !== '.csv' && ext !== '.txt' && /^\uFEFF?\s*[[{]/.test(text.slice(0, 64)));
  return json ? parsePriceJson(text, file) : parsePriceCsv(text, file);
}

function isBlank(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) return false;
  return true;
}
function unquote(raw: string): string {
  return raw.trim().replace(/^"(.*)"$/, '$1').trim();
}
