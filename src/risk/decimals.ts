import { D, type Dec } from '../core/index.js';

/**
 * Decimals the risk path makes on every intent, made once per distinct value: a strategy sends the
 * same sizes and prices near the spot again and again, and parsing a string (or a float's digits)
 * into a Decimal is most of what a check of them costs. A Decimal is immutable, so one instance serves
 * every intent with that value. Each cache is bounded (emptied when full), so odd values cannot grow it.
 */
const MAX = 1024;
const fromString = new Map<string, Dec>();
const fromNumber = new Map<number, Dec>();

/** `new D(value)` for a string already checked to be a decimal. */
export function decimalOf(value: string): Dec {
  let d = fromString.get(value);
  if (d === undefined) {
    d = new D(value);
    if (fromString.size >= MAX) fromString.clear();
    fromString.set(value, d);
  }
  return d;
}

/** `new D(value)` for a finite number (a mid price, a limit). */
export function decimalOfNumber(value: number): Dec {
  let d = fromNumber.get(value);
  if (d === undefined) {
    d = new D(value);
    if (fromNumber.size >= MAX) fromNumber.clear();
    fromNumber.set(value, d);
  }
  return d;
}
