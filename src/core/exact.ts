import { D, type Dec } from './decimal.js';
import { decimalsOf, pow10, unitsOf, unitsToString } from './units.js';

/**
 * decimal.js's arithmetic in bigint units, to the digit: an `Exact` is a value as whole units of
 * 10^-scale (see units.ts), read from a string, a number or a Decimal at the scale it needs, so
 * reading never rounds. `plus`, `minus`, `times` and `dividedBy` give exactly the value `D` (40
 * significant digits, half-even) gives for the same operands: the exact result while it has at most 40
 * digits (every sum and product of money), else the exact result rounded as decimal.js rounds it, all
 * in bigint. Comparisons are exact, as decimal.js's are.
 *
 * The checks every intent passes (the risk gate, the order rules) compute with these, so a decision is
 * the one the Decimal arithmetic made, at a fraction of its cost; a Decimal is built only for what a
 * denial says.
 */
export interface Exact {
  readonly units: bigint;
  readonly scale: number;
}

/** The significant digits `D` keeps; a result with more is rounded by it. */
export const PRECISION = D.precision;
/** Units below this have at most PRECISION digits, so decimal.js keeps their value as it is. */
const BOUND = pow10(PRECISION);

export const EXACT_ZERO: Exact = Object.freeze({ units: 0n, scale: 0 });

function exact(units: bigint, scale: number): Exact {
  return { units, scale };
}

/** A decimal string ("12.50", ".5", "-3", "1e-7") exactly; undefined when it is not a finite decimal. */
export function exactOf(text: string): Exact | undefined {
  // the usual text, digits with or without a point, is read in one pass, 15 digits at a time into
  // numbers (which hold that many exactly): every amount of an intent fits one, a price's shortest
  // text two; longer digit strings, exponents and anything else are units.ts's to read
  const n = text.length;
  const c0 = text.charCodeAt(0);
  let digits = 0;
  let dot = -1;
  let high = 0;
  let low = 0;
  let i = c0 === MINUS || c0 === PLUS ? 1 : 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      if (digits < 15) high = high * 10 + (c - DIGIT_0);
      else low = low * 10 + (c - DIGIT_0);
      digits++;
    } else if (c === DOT && dot < 0) dot = i;
    else break;
  }
  if (i === n && digits > 0 && digits <= 30) {
    const scale = dot < 0 ? 0 : n - dot - 1;
    const units = digits <= 15 ? BigInt(high) : BigInt(high) * pow10(digits - 15) + BigInt(low);
    return exact(c0 === MINUS ? -units : units, scale);
  }
  const at = decimalsOf(text);
  if (at === undefined) return undefined;
  const units = unitsOf(text, at);
  return units === undefined ? undefined : exact(units, at);
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;

/*
 * The last number and Decimal read, with their reading: one value is often read twice in a row (a
 * mid price valued by the risk gate and then by the order rules' cap; a balance). Both results are
 * immutable, so handing the same one out again is safe.
 */
let lastNumber = Number.NaN;
let lastNumberExact: Exact | undefined;
let lastDecimal: Dec | undefined;
let lastDecimalExact: Exact | undefined;

/** A number as the shortest decimal that round-trips to it (what `new D(number)` reads); undefined when not finite. */
export function exactOfNumber(value: number): Exact | undefined {
  if (value === lastNumber) return lastNumberExact;
  if (!Number.isFinite(value)) return undefined;
  const x = Number.isSafeInteger(value) ? exact(BigInt(value), 0) : exactOf(String(value));
  lastNumber = value;
  lastNumberExact = x;
  return x;
}

/** A Decimal exactly; undefined when not finite. */
export function exactOfDecimal(value: Dec): Exact | undefined {
  if (value === lastDecimal) return lastDecimalExact;
  const x = readDecimal(value);
  lastDecimal = value;
  lastDecimalExact = x;
  return x;
}

/**
 * A Decimal's value from the read-only fields decimal.js documents (no text in between): its digits
 * `d` in base 10^7 (the first word without leading zeros, the others seven digits each), the base-10
 * exponent `e` of its first digit, and its sign `s`; `d` is null for NaN and the infinities.
 */
function readDecimal(value: Dec): Exact | undefined {
  const { d, e, s } = value;
  if (!d) return undefined;
  const first = d[0]!;
  const digits = digitCount(first) + 7 * (d.length - 1);
  let units: bigint;
  if (digits <= 15) {
    // that many digits fit a number exactly
    let whole = first;
    for (let k = 1; k < d.length; k++) whole = whole * WORD + d[k]!;
    units = BigInt(whole);
  } else {
    units = BigInt(first);
    for (let k = 1; k < d.length; k++) units = units * WORD_UNITS + BigInt(d[k]!);
  }
  // the value is units × 10^(e − digits + 1)
  const shift = e - digits + 1;
  if (shift > 0) units *= pow10(shift);
  return exact(s < 0 ? -units : units, shift < 0 ? -shift : 0);
}

const WORD = 10_000_000;
const WORD_UNITS = 10_000_000n;

/** Digits of a word below 10^7 (1 for 0). */
function digitCount(word: number): number {
  return word < 1e3 ? (word < 10 ? 1 : word < 100 ? 2 : 3) : word < 1e5 ? (word < 1e4 ? 4 : 5) : word < 1e6 ? 6 : 7;
}

/** The value as a Decimal (for what a message says, or an interface that keeps Decimals). */
export function toDecimal(x: Exact): Dec {
  return new D(unitsToString(x.units, x.scale));
}

/** The value as `Decimal#toFixed()` writes it: no exponent, no trailing zeros. */
export function toText(x: Exact): string {
  return unitsToString(x.units, x.scale);
}

/** −1, 0 or 1 as a is below, equal to or above b. */
export function compare(a: Exact, b: Exact): number {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  const x = aligned(a, scale);
  const y = aligned(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** a's and b's units at the finer of their scales (a bigint product costs; most operands share a scale). */
function aligned(x: Exact, scale: number): bigint {
  return x.scale === scale ? x.units : x.units * pow10(scale - x.scale);
}

export function isNegative(x: Exact): boolean {
  return x.units < 0n;
}

export function abs(x: Exact): Exact {
  return x.units < 0n ? exact(-x.units, x.scale) : x;
}

/** Whether decimal.js keeps a result of these units as it is (at most PRECISION digits). */
function kept(units: bigint): boolean {
  return units < BOUND && units > -BOUND;
}

/** `a.plus(b)` as decimal.js gives it. */
export function plus(a: Exact, b: Exact): Exact {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  const units = aligned(a, scale) + aligned(b, scale);
  return kept(units) ? exact(units, scale) : rounded(units, scale, 0n, 1n);
}

/** `a.minus(b)` as decimal.js gives it. */
export function minus(a: Exact, b: Exact): Exact {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  const units = aligned(a, scale) - aligned(b, scale);
  return kept(units) ? exact(units, scale) : rounded(units, scale, 0n, 1n);
}

/** `a.times(b)` as decimal.js gives it. */
export function times(a: Exact, b: Exact): Exact {
  const units = a.units * b.units;
  return kept(units) ? exact(units, a.scale + b.scale) : rounded(units, a.scale + b.scale, 0n, 1n);
}

/**
 * `(units + rest / over) × 10^-scale` (0 ≤ rest < over) rounded to PRECISION significant digits, half
 * to even, as decimal.js rounds every sum, product and quotient (it works out the exact result, then
 * rounds it once); the trailing zeros of an exact result are dropped, so its units stay short.
 */
function rounded(units: bigint, scale: number, rest: bigint, over: bigint): Exact {
  const negative = units < 0n;
  const whole = negative ? -units : units;
  const cut = digitsOf(whole) - PRECISION;
  if (cut <= 0 && rest === 0n) return trimmed(units, scale);
  const unit = pow10(cut > 0 ? cut : 0);
  let keep = whole / unit;
  // what is cut off, with the rest behind it, as a part of one last kept digit: twice it against one
  const twice = 2n * ((whole - keep * unit) * over + rest);
  const one = unit * over;
  if (twice > one || (twice === one && (keep & 1n) === 1n)) keep += 1n;
  const at = scale - (cut > 0 ? cut : 0);
  return trimmed(negative ? -keep : keep, at);
}

/** The value with the trailing zeros of its units dropped (at a scale of 0 or more). */
function trimmed(units: bigint, scale: number): Exact {
  if (scale < 0) return exact(units * pow10(-scale), 0);
  if (units === 0n) return EXACT_ZERO;
  if (scale === 0 || units % 10n !== 0n) return exact(units, scale);
  for (let k = 16; k >= 1; k >>= 1) {
    const p = pow10(k);
    while (scale >= k && units % p === 0n) {
      units /= p;
      scale -= k;
    }
  }
  return exact(units, scale);
}

/**
 * `a.div(b)` as decimal.js gives it: the exact quotient rounded to PRECISION significant digits, half
 * to even, worked out in bigint; undefined when b is 0.
 */
export function dividedBy(a: Exact, b: Exact): Exact | undefined {
  if (b.units === 0n) return undefined;
  if (a.units === 0n) return EXACT_ZERO;
  // a whole quotient of the units (cost × sold / sold, a fee shared by a whole sale) needs no rounding
  const q = a.units / b.units;
  if (q * b.units === a.units && kept(q)) return trimmed(q, a.scale - b.scale);
  const negative = a.units < 0n !== b.units < 0n;
  const n = a.units < 0n ? -a.units : a.units;
  const d = b.units < 0n ? -b.units : b.units;
  // n × 10^k / d, k chosen so that the whole quotient has more digits than are kept (PRECISION + 1 or 2)
  const shift = Math.max(0, PRECISION + 1 + digitsOf(d) - digitsOf(n));
  const scaled = n * pow10(shift);
  const whole = scaled / d;
  // the value is (whole + rest / d) × 10^-(shift + a.scale − b.scale)
  return rounded(negative ? -whole : whole, shift + a.scale - b.scale, scaled - whole * d, d);
}

/** Decimal digits of a positive bigint. */
function digitsOf(x: bigint): number {
  return x.toString().length;
}

/** Whether a is a whole multiple of b: `a.mod(b).isZero()`, which decimal.js decides exactly too (nothing is a multiple of 0). */
export function isMultipleOf(a: Exact, b: Exact): boolean {
  if (b.units === 0n) return false;
  const scale = a.scale > b.scale ? a.scale : b.scale;
  return aligned(a, scale) % aligned(b, scale) === 0n;
}
