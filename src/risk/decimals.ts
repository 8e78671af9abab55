import { D, type Dec } from '../core/index.js';

/**
 * Decimals the risk path makes on every intent, made once per value while it recurs: a live strategy
 * sends the same sizes and prices near the spot again and again, and parsing a string (or a float's
 * digits) into a Decimal is most of what checking them costs. A Decimal is immutable, so one instance
 * serves every intent with that value.
 *
 * Each cache is a fixed table of slots chosen by a hash of the value (a string's last 12 characters),
 * one value a slot: a value that does not recur (a backtest's sizes and mid prices, nearly all
 * distinct) costs a slot read and a comparison on top of the parse, with no allocation and nothing to
 * grow or clear, so caching pays where values recur and costs next to nothing where they do not.
 */
const SLOTS = 4096;
const stringKeys: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
const stringValues: (Dec | undefined)[] = new Array<Dec | undefined>(SLOTS).fill(undefined);
const numberKeys = new Float64Array(SLOTS).fill(Number.NaN);
const numberValues: (Dec | undefined)[] = new Array<Dec | undefined>(SLOTS).fill(undefined);

function slotOfString(s: string): number {
  const n = s.length;
  let h = n;
  for (let i = n > 12 ? n - 12 : 0; i < n; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) & (SLOTS - 1);
}

/** `new D(value)` for a string (one already checked to be a decimal, as the risk path does). */
export function decimalOf(value: string): Dec {
  const slot = slotOfString(value);
  if (stringKeys[slot] === value) return stringValues[slot]!;
  const d = new D(value);
  stringKeys[slot] = value;
  stringValues[slot] = d;
  return d;
}

/** `new D(value)` for a number (a mid price, a limit); zero, whose sign a Decimal keeps, is not cached. */
export function decimalOfNumber(value: number): Dec {
  if (value === 0 || !Number.isFinite(value)) return new D(value);
  const h = Math.imul((value * 1000) | 0, 0x9e3779b1);
  const slot = (h ^ (h >>> 15)) & (SLOTS - 1);
  if (numberKeys[slot] === value) return numberValues[slot]!;
  const d = new D(value);
  numberKeys[slot] = value;
  numberValues[slot] = d;
  return d;
}
