/**
 * Timestamps of price files: epoch milliseconds or RFC 3339 with a zone, parsed straight from the text
 * of a CSV field (no substring, no Date.parse) because the CSV scanner calls it once per row, and the
 * message that explains a rejected timestamp with its fix.
 */
import { clip, isDigit, isPad } from './price-data.js';

/** Parses an epoch-milliseconds integer or an RFC 3339 date-time in text[s, e); NaN when neither. */
export function parseTimeAt(text: string, s: number, e: number): number {
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
  // five plain locals, not a destructured array: this runs once per CSV row, and the array was garbage
  const month = two(t, s + 5);
  const day = two(t, s + 8);
  const hour = two(t, s + 11);
  const minute = two(t, s + 14);
  const second = two(t, s + 17);
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

/**
 * `parseTimeAt` over bytes (a CSV file read in chunks is scanned without making a string of it): the
 * same forms, the same numbers, NaN for anything else. Bytes above 127 are never part of a valid
 * timestamp, so UTF-8 needs no decoding here.
 */
export function parseTimeBytes(b: Uint8Array, s: number, e: number): number {
  while (s < e && isPad(b[s]!)) s++;
  while (e > s && isPad(b[e - 1]!)) e--;
  const len = e - s;
  if (len > 0 && len <= 15 && (len < 9 || len > 10)) {
    let ms = 0;
    let i = s;
    for (; i < e && isDigit(b[i]!); i++) ms = ms * 10 + b[i]! - 48;
    if (i === e) return ms;
  }
  if (e - s < 20) return NaN;
  const sep = b[s + 10]!;
  if (b[s + 4] !== 45 || b[s + 7] !== 45 || (sep !== 84 && sep !== 116 && sep !== 32)) return NaN;
  if (b[s + 13] !== 58 || b[s + 16] !== 58) return NaN;
  const century = twoBytes(b, s);
  const yy = twoBytes(b, s + 2);
  const year = century < 0 || yy < 0 ? -1 : century * 100 + yy;
  const month = twoBytes(b, s + 5);
  const day = twoBytes(b, s + 8);
  const hour = twoBytes(b, s + 11);
  const minute = twoBytes(b, s + 14);
  const second = twoBytes(b, s + 17);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return NaN;
  let p = s + 19;
  let fractionMs = 0;
  if (b[p] === 46) {
    let scale = 100;
    const first = ++p;
    for (; p < e && isDigit(b[p]!); p++, scale /= 10) fractionMs += (b[p]! - 48) * scale;
    if (p === first) return NaN;
  }
  let offsetMs: number;
  const c = b[p];
  if ((c === 90 || c === 122) && p + 1 === e) offsetMs = 0;
  else {
    if ((c !== 43 && c !== 45) || e - p !== 6 || b[p + 3] !== 58) return NaN;
    const hours = twoBytes(b, p + 1);
    const minutes = twoBytes(b, p + 4);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
    offsetMs = (c === 45 ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  const days = daysFromCivil(year, month, day);
  return days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + fractionMs - offsetMs;
}

function twoBytes(b: Uint8Array, i: number): number {
  const x = b[i]! - 48;
  const y = b[i + 1]! - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1;
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
export function describeBadTime(value: string): string {
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
