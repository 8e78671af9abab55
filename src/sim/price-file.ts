/**
 * Historical price points for the backtester and the sandbox's replay: CSV files (`timestamp,price` or
 * `timestamp,open,high,low,close,volume`) and JSON in List Historical Prices' shape, loaded into typed
 * arrays. A million-point CSV must load in well under two seconds, so CSV is read by a hand-rolled
 * scanner over the text (no split into a string per line or per field) into pre-sized Float64Arrays.
 * Bad data is never dropped or repaired: every problem is collected with its line and reported at once.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError } from '../core/index.js';

/** Price points in time order. Prices are floats: they feed signals, never money arithmetic. */
export interface PriceSeries {
  /** Where the points came from (a file path), for messages and reports. */
  readonly source: string;
  readonly length: number;
  /** Epoch milliseconds, strictly ascending. */
  readonly times: Float64Array;
  /** The price of each point: the `price`/`average_price` column, or `close` for OHLC data. */
  readonly prices: Float64Array;
  /** Present for OHLC files only (ATR and other range indicators need them). */
  readonly opens?: Float64Array;
  readonly highs?: Float64Array;
  readonly lows?: Float64Array;
  /** Present when the file has a `volume` column. */
  readonly volumes?: Float64Array;
}

/** One problem found in a price file; `line` is 1-based (null for JSON, where `where` names the item). */
export interface PriceProblem {
  readonly line: number | null;
  readonly where: string;
  readonly message: string;
}

/** How many problems a PriceDataError lists; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * Bad price data. Lists every problem (the first MAX_LISTED_PROBLEMS, with the total) so a user fixes a
 * file in one pass instead of one error per run.
 */
export class PriceDataError extends InputError {
  readonly source: string;
  readonly problems: readonly PriceProblem[];
  readonly problemCount: number;

  constructor(source: string, problems: readonly PriceProblem[], problemCount: number) {
    const more = problemCount > problems.length ? `\n  … and ${problemCount - problems.length} more` : '';
    const list = problems.map((p) => `\n  ${p.where}: ${p.message}`).join('');
    const noun = problemCount === 1 ? 'problem' : 'problems';
    super(source, `${problemCount} ${noun} in price data; fix the file and load it again:${list}${more}`);
    this.source = source;
    this.problems = problems;
    this.problemCount = problemCount;
  }
}

class Problems {
  readonly listed: PriceProblem[] = [];
  count = 0;
  constructor(readonly source: string) {}

  add(line: number | null, where: string, message: string): void {
    this.count++;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push({ line, where, message });
  }
  atLine(line: number, message: string): void {
    this.add(line, `line ${line}`, message);
  }
  throwIfAny(): void {
    if (this.count > 0) throw new PriceDataError(this.source, this.listed, this.count);
  }
}

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

/** Scans data rows from `pos`, storing valid rows; returns the number stored. */
function scanRows(text: string, pos: number, kinds: readonly number[], cols: Columns, problems: Problems): number {
  const values = new Float64Array(6);
  const times = cols.byKind[TIME]!;
  let n = 0;
  let line = 1;
  let prevLine = 0;
  while (pos < text.length) {
    line++;
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const next = end + 1;
    if (end > pos && text.charCodeAt(end - 1) === 13) end--;
    if (!isBlank(text, pos, end) && readRow(text, pos, end, line, kinds, values, problems)) {
      const t = values[TIME]!;
      if (n > 0 && t <= times[n - 1]!) {
        problems.atLine(line, t === times[n - 1]
          ? `duplicate timestamp (same as line ${prevLine}); each point needs its own time`
          : `timestamp is earlier than line ${prevLine}'s; rows must be in ascending time order`);
      } else {
        for (const kind of kinds) cols.byKind[kind]![n] = values[kind]!;
        prevLine = line;
        n++;
      }
    }
    pos = next;
  }
  return n;
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

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
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

/** Parses an epoch-milliseconds integer or an RFC 3339 date-time in text[s, e); NaN when neither. */
function parseTimeAt(text: string, s: number, e: number): number {
  while (s < e && isPad(text.charCodeAt(s))) s++;
  while (e > s && isPad(text.charCodeAt(e - 1))) e--;
  const len = e - s;
  if (len > 0 && len <= 15 && (len < 9 || len > 10)) {
    let ms = 0;
    let i = s;
    for (; i < e && isDigit(text.charCodeAt(i)); i++) ms = ms * 10 + text.charCodeAt(i) - 48;
    if (i === e) return ms;
  }
  return parseRfc3339At(text, s, e);
}

/**
 * RFC 3339 date-time `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` ('t' or a space may replace 'T', 'z' 'Z')
 * to epoch milliseconds; NaN when malformed or out of range. Hand-written because Date.parse accepts
 * many other forms (and local time) that a price file must not silently use.
 */
export function parseRfc3339At(t: string, s: number, e: number): number {
  if (e - s < 20) return NaN;
  const sep = t.charCodeAt(s + 10);
  if (t.charCodeAt(s + 4) !== 45 || t.charCodeAt(s + 7) !== 45 || (sep !== 84 && sep !== 116 && sep !== 32)) return NaN;
  if (t.charCodeAt(s + 13) !== 58 || t.charCodeAt(s + 16) !== 58) return NaN;
  const century = two(t, s);
  const yy = two(t, s + 2);
  const year = century < 0 || yy < 0 ? -1 : century * 100 + yy;
  const [month, day, hour, minute, second] = [two(t, s + 5), two(t, s + 8), two(t, s + 11), two(t, s + 14), two(t, s + 17)];
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return NaN;
  let p = s + 19;
  let fractionMs = 0;
  if (t.charCodeAt(p) === 46) {
    let scale = 100;
    const first = ++p;
    for (; p < e && isDigit(t.charCodeAt(p)); p++, scale /= 10) fractionMs += (t.charCodeAt(p) - 48) * scale;
    if (p === first) return NaN;
  }
  const offsetMs = zoneOffsetMs(t, p, e);
  if (Number.isNaN(offsetMs)) return NaN;
  const days = daysFromCivil(year, month, day);
  return days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + fractionMs - offsetMs;
}

function zoneOffsetMs(t: string, p: number, e: number): number {
  const c = t.charCodeAt(p);
  if ((c === 90 || c === 122) && p + 1 === e) return 0;
  if ((c !== 43 && c !== 45) || e - p !== 6 || t.charCodeAt(p + 3) !== 58) return NaN;
  const hours = two(t, p + 1);
  const minutes = two(t, p + 4);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
  return (c === 45 ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function two(t: string, i: number): number {
  const a = t.charCodeAt(i) - 48;
  const b = t.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Explains why a timestamp was rejected, with the fix. Only runs on the error path. */
function describeBadTime(value: string): string {
  const hint = 'use RFC 3339 with a zone (2024-01-31T00:00:00Z) or epoch milliseconds (1706659200000)';
  if (value === '') return `timestamp is empty; ${hint}`;
  const shown = `timestamp "${clip(value)}"`;
  if (/^\d{9,10}$/.test(value)) return `${shown} looks like epoch seconds; use epoch milliseconds (${value}000) or RFC 3339`;
  if (/^\d{16,}$/.test(value)) return `${shown} is too large for epoch milliseconds; ${hint}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${shown} has no time of day; write ${value}T00:00:00Z`;
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)) return `${shown} has no time zone; add Z for UTC`;
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value)) {
    return `${shown} is not a valid date and time (a field is out of range)`;
  }
  return `${shown} is not a valid time; ${hint}`;
}

/** Parses List Historical Prices JSON: `{prices: [...]}`, `{items: [...]}` or a bare array of points. */
export function parsePriceJson(text: string, source: string): PriceSeries {
  const problems = new Problems(source);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    problems.add(null, 'JSON', `not valid JSON (${(err as Error).message}); expected {"prices": [{"average_price", "timestamp"}]}`);
    problems.throwIfAny();
  }
  const { items, path } = pickItems(doc, problems);
  problems.throwIfAny();
  const times = new Float64Array(items.length);
  const prices = new Float64Array(items.length);
  let n = 0;
  items.forEach((item, i) => {
    const point = readJsonPoint(item, `${path}[${i}]`, problems);
    if (!point) return;
    if (n > 0 && point[0] <= times[n - 1]!) {
      const what = point[0] === times[n - 1] ? 'duplicate timestamp (same as the item before)' : 'timestamp is earlier than the item before';
      problems.add(null, `${path}[${i}]`, `${what}; points must be in strictly ascending time order`);
      return;
    }
    [times[n], prices[n]] = point;
    n++;
  });
  if (items.length === 0) problems.add(null, path, 'no price points');
  problems.throwIfAny();
  return { source, length: n, times, prices };
}

function pickItems(doc: unknown, problems: Problems): { items: readonly unknown[]; path: string } {
  if (Array.isArray(doc)) return { items: doc, path: '$' };
  if (typeof doc === 'object' && doc !== null) {
    const { prices, items } = doc as { prices?: unknown; items?: unknown };
    if (Array.isArray(prices) && items === undefined) return { items: prices, path: 'prices' };
    if (Array.isArray(items) && prices === undefined) return { items, path: 'items' };
  }
  problems.add(null, '$', 'expected an object with a "prices" (or "items") array, or an array of {average_price, timestamp}');
  return { items: [], path: '$' };
}

function readJsonPoint(item: unknown, where: string, problems: Problems): [number, number] | undefined {
  if (typeof item !== 'object' || item === null) {
    problems.add(null, where, 'expected an object {"average_price": "…", "timestamp": "…"}');
    return undefined;
  }
  const { average_price: rawPrice, timestamp: rawTime } = item as { average_price?: unknown; timestamp?: unknown };
  const before = problems.count;
  const time = typeof rawTime === 'string' ? parseRfc3339At(rawTime, 0, rawTime.length)
    : typeof rawTime === 'number' && Number.isSafeInteger(rawTime) && rawTime >= 0 && (rawTime < 1e8 || rawTime >= 1e10) ? rawTime
      : NaN;
  if (Number.isNaN(time)) {
    problems.add(null, where, rawTime === undefined ? 'missing "timestamp"' : describeBadTime(String(rawTime)));
  }
  const price = typeof rawPrice === 'string' && NUMBER.test(rawPrice.trim()) ? Number(rawPrice)
    : typeof rawPrice === 'number' ? rawPrice : NaN;
  if (rawPrice === undefined) problems.add(null, where, 'missing "average_price"');
  else if (!Number.isFinite(price)) problems.add(null, where, `average_price ${clip(JSON.stringify(rawPrice))} is not a number`);
  else if (price <= 0) problems.add(null, where, `average_price ${String(rawPrice)} is not positive; prices must be greater than 0`);
  return problems.count === before ? [time, price] : undefined;
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

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isPad(c: number): boolean {
  return c === 32 || c === 9 || c === 34;
}
function isBlank(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) return false;
  return true;
}
function unquote(raw: string): string {
  return raw.trim().replace(/^"(.*)"$/, '$1').trim();
}
function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 37)}...` : value;
}
