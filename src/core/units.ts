import { D, type Dec } from './decimal.js';

/**
 * Exact money in whole units of 10^-scale (a bigint): the cheap exact arithmetic of the hot paths
 * (point replay's fills and ledger, the risk gate's sums, a strategy's position, the backtest's round
 * trips), where building decimal.js values for every amount of every intent was most of an intent's
 * cost. Decimal strings stay the money of the wire, the journal and the reports; these functions turn
 * them into units and back, exactly: a value with more decimals than the scale is refused
 * (`undefined`), never rounded, so a caller falls back to decimal.js or picks a finer scale.
 *
 * Sums and comparisons of values at one scale are plain bigint operations. A product of values at
 * scales a and b is at scale a + b; `rescale` brings it back with the rounding the caller names.
 */

const POW10: bigint[] = [1n];

/**
 * More decimals than any money the project makes: a value read into units with more is refused (named
 * by its reader) rather than carried at a scale that only grows its bigints.
 */
export const MAX_DECIMALS = 100;

/** 10^n as a bigint (n ≥ 0), from a table that grows as needed. */
export function pow10(n: number): bigint {
  while (POW10.length <= n) POW10.push(POW10[POW10.length - 1]! * 10n);
  return POW10[n]!;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;

/** Powers of ten as numbers, exact up to 10^22 (the digits of a short value are summed in a number). */
const POW10_NUMBER: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Significant digits a number holds exactly as a whole (10^15 < 2^53). */
const SAFE_DIGITS = 15;

/**
 * A decimal string ("12.5", "-0.001", ".5", "1e-7", "1.5E+3") as units of 10^-scale; undefined when it
 * is not a finite decimal or carries more significant decimals than `scale` (trailing zeros beyond the
 * scale are fine: "1.500" at scale 2 is 150n).
 *
 * One pass over the characters: the significant digits of a value of money (15 or fewer, nearly
 * always) are summed in a number, and only the result becomes a bigint; a value of more digits is
 * read from its text. This reading is on every intent's path, several times.
 */
export function unitsOf(value: string, scale: number): bigint | undefined {
  const n = value.length;
  let k = 0;
  let negative = false;
  const c0 = value.charCodeAt(0);
  if (c0 === MINUS || c0 === PLUS) {
    negative = c0 === MINUS;
    k = 1;
  }
  const start = k;
  let whole = 0;
  let significant = 0;
  let decimals = 0;
  let seenDot = false;
  let seenDigit = false;
  for (; k < n; k++) {
    const c = value.charCodeAt(k);
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      seenDigit = true;
      if (seenDot) decimals++;
      // leading zeros add nothing; every digit after the first other one counts
      if (significant > 0 || c !== DIGIT_0) {
        significant++;
        whole = whole * 10 + (c - DIGIT_0);
      }
    } else if (c === DOT && !seenDot) {
      seenDot = true;
    } else break;
  }
  if (!seenDigit) return undefined;
  let exponent = 0;
  if (k < n) {
    const e = value.charCodeAt(k);
    if (e !== 101 && e !== 69) return undefined; // 'e' | 'E'
    exponent = exponentOf(value, k + 1);
    if (Number.isNaN(exponent)) return undefined;
  }
  // value = digits × 10^(exponent − decimals); at the scale: digits × 10^(scale + exponent − decimals)
  const shift = scale + exponent - decimals;
  if (shift > 400) return undefined;
  const units =
    significant <= SAFE_DIGITS
      ? shortUnits(whole, shift)
      : longUnits(seenDot ? value.slice(start, k).replace('.', '') : value.slice(start, k), shift);
  return units === undefined || !negative ? units : -units;
}

/** `whole` (exact in a number) × 10^shift, or undefined when that leaves a fraction. */
function shortUnits(whole: number, shift: number): bigint | undefined {
  if (shift >= 0) return BigInt(whole) * pow10(shift);
  if (whole === 0) return 0n;
  // the digits below the scale must all be zero (a whole of 15 digits or fewer has none past 10^22)
  const below = -shift;
  if (below >= POW10_NUMBER.length) return undefined;
  const unit = POW10_NUMBER[below]!;
  return whole % unit === 0 ? BigInt(whole / unit) : undefined;
}

/** The integer written as `digits` × 10^shift, or undefined when that leaves a fraction. */
function longUnits(digits: string, shift: number): bigint | undefined {
  if (shift >= 0) return BigInt(digits) * pow10(shift);
  // the digits below the scale must all be zero
  const cut = digits.length + shift;
  const tail = cut <= 0 ? digits : digits.slice(cut);
  for (let t = 0; t < tail.length; t++) if (tail.charCodeAt(t) !== DIGIT_0) return undefined;
  return cut <= 0 ? 0n : BigInt(digits.slice(0, cut));
}

/** The exponent written from `from` on ("+3", "-7", "12"); NaN unless it is a sign and digits only. */
function exponentOf(text: string, from: number): number {
  let k = from;
  let sign = 1;
  const c = text.charCodeAt(k);
  if (c === MINUS || c === PLUS) {
    sign = c === MINUS ? -1 : 1;
    k++;
  }
  if (k >= text.length) return Number.NaN;
  let e = 0;
  for (; k < text.length; k++) {
    const d = text.charCodeAt(k);
    if (d < DIGIT_0 || d > DIGIT_9) return Number.NaN;
    // an exponent this large is refused by the scale checks anyway; stop before it loses digits
    if (e < 1e9) e = e * 10 + (d - DIGIT_0);
  }
  return sign * e;
}

/**
 * The scale a decimal string needs to be read exactly: its digits after the point less a written
 * exponent, at least 0 ("12.50" is 2, "1e-7" is 7, "1.5E+3" is 0), so `unitsOf(text, decimalsOf(text))`
 * never refuses a finite decimal. Undefined when the exponent is not a whole number; other malformed
 * text is left to `unitsOf` to refuse.
 */
export function decimalsOf(text: string): number | undefined {
  let e = text.indexOf('e');
  if (e < 0) e = text.indexOf('E');
  const end = e < 0 ? text.length : e;
  const dot = text.indexOf('.');
  const decimals = dot < 0 || dot > end ? 0 : end - dot - 1;
  if (e < 0) return decimals;
  const exponent = Number(text.slice(e + 1));
  if (!Number.isInteger(exponent) || e + 1 === text.length) return undefined;
  return Math.max(0, decimals - exponent);
}

/**
 * Units of 10^-scale as a decimal string without exponent or trailing zeros ("150" at scale 2 is
 * "1.5"): the text `Decimal#toFixed()` gives for the same value, so a report's figures do not change
 * with the arithmetic behind them.
 */
export function unitsToString(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const negative = units < 0n;
  let text = (negative ? -units : units).toString();
  if (text.length <= scale) text = '0'.repeat(scale - text.length + 1) + text;
  const cut = text.length - scale;
  let end = text.length;
  while (end > cut && text.charCodeAt(end - 1) === DIGIT_0) end--;
  const whole = text.slice(0, cut);
  const body = end === cut ? whole : `${whole}.${text.slice(cut, end)}`;
  return negative && body !== '0' ? `-${body}` : body;
}

/** Units of 10^-scale with exactly `scale` decimals ("150" at scale 2 is "1.50"; `Decimal#toFixed(scale)`). */
export function unitsToFixed(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const negative = units < 0n;
  let text = (negative ? -units : units).toString();
  if (text.length <= scale) text = '0'.repeat(scale - text.length + 1) + text;
  const cut = text.length - scale;
  return `${negative ? '-' : ''}${text.slice(0, cut)}.${text.slice(cut)}`;
}

/** Units of 10^-scale as a Decimal (for the interfaces that keep decimal.js values). */
export function unitsToDecimal(units: bigint, scale: number): Dec {
  return new D(unitsToString(units, scale));
}

/** Units of 10^-scale as the nearest number (for equity marks and other float views of money). */
export function unitsToNumber(units: bigint, scale: number): number {
  return Number(unitsToString(units, scale));
}

/** How a division or a change to a coarser scale rounds. */
export type UnitRounding = 'down' | 'up' | 'floor' | 'ceil' | 'half-even' | 'half-up';

/**
 * `a / b` rounded as named (b ≠ 0). 'down' and 'up' round toward and away from zero; 'half-up' to the
 * nearer, a half away from zero (decimal.js ROUND_HALF_UP), 'half-even' a half to the even neighbour.
 */
export function divide(a: bigint, b: bigint, rounding: UnitRounding): bigint {
  const q = a / b; // truncates toward zero
  const r = a - q * b;
  if (r === 0n) return q;
  const positive = a < 0n === b < 0n;
  switch (rounding) {
    case 'down':
      return q;
    case 'up':
      return positive ? q + 1n : q - 1n;
    case 'floor':
      return positive ? q : q - 1n;
    case 'ceil':
      return positive ? q + 1n : q;
    case 'half-even': {
      const twice = (r < 0n ? -r : r) * 2n;
      const absB = b < 0n ? -b : b;
      if (twice < absB || (twice === absB && q % 2n === 0n)) return q;
      return positive ? q + 1n : q - 1n;
    }
    case 'half-up': {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice < (b < 0n ? -b : b)) return q;
      return positive ? q + 1n : q - 1n;
    }
  }
}

/** Units at scale `from` as units at scale `to`, rounded as named when `to` is coarser. */
export function rescale(units: bigint, from: number, to: number, rounding: UnitRounding): bigint {
  if (to === from) return units;
  if (to > from) return units * pow10(to - from);
  return divide(units, pow10(from - to), rounding);
}
