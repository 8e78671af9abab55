/**
 * The general reader of one CSV row (`readRow`): every form a price file may write (spaces and quotes
 * around fields, exponents, more than 15 digits), each bad field reported with its line and what is
 * wrong. The scanner in `price-file.ts` reads the common row in one pass and hands this reader only
 * the rows it cannot take, so both give the same values and problems.
 */
import { clip, isPad, NUMBER, type Problems } from './price-data.js';
import { HIGH, LOW, OPEN, PRICE, SKIP, TIME, VOLUME, type CsvLayout } from './price-layout.js';
import { describeBadTime, parseTimeAt } from './price-time.js';

/** Parses one row's fields into `values` by kind; reports and returns false when any is bad. */
export function readRow(
  text: string,
  start: number,
  end: number,
  line: number,
  layout: CsvLayout,
  values: Float64Array,
  problems: Problems,
): boolean {
  const { kinds, labels } = layout;
  const before = problems.count;
  let s = start;
  let col = 0;
  for (;;) {
    let e = s;
    while (e < end && text.charCodeAt(e) !== 44) e++;
    const kind = kinds[col];
    if (kind !== undefined && kind !== SKIP) {
      const v = kind === TIME ? parseTimeAt(text, s, e) : parseNumberAt(text, s, e);
      values[kind] = v;
      const ok = kind === TIME ? Number.isFinite(v) : kind === VOLUME ? v >= 0 && v < Infinity : v > 0 && v < Infinity;
      if (!ok) reportField(text.slice(s, e), kind, labels[kind]!, line, problems);
    }
    col++;
    if (e >= end) break;
    s = e + 1;
  }
  if (layout.loose) {
    // a picked column: a field the row lacks is empty, as the row gives it
    for (; col < kinds.length; col++) if (kinds[col] !== SKIP) reportField('', kinds[col]!, labels[kinds[col]!]!, line, problems);
  } else if (col !== kinds.length) {
    problems.atLine(line, `expected ${kinds.length} fields (${kinds.map((k) => labels[k]).join(',')}), found ${col}`);
  } else if (problems.count === before && layout.ohlc) {
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

function reportField(raw: string, kind: number, label: string, line: number, problems: Problems): void {
  const value = unquote(raw);
  if (kind === TIME) problems.atLine(line, describeBadTime(value));
  else if (value === '') problems.atLine(line, `${label} is empty`);
  else if (!NUMBER.test(value) || !Number.isFinite(Number(value))) problems.atLine(line, `${label} "${clip(value)}" is not a number`);
  else if (kind === VOLUME) problems.atLine(line, `volume ${value} is negative; volumes must be 0 or more`);
  else problems.atLine(line, `${label} ${value} is not positive; prices must be greater than 0`);
}

export const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

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

export function isBlank(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) return false;
  return true;
}
function unquote(raw: string): string {
  return raw
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
}
