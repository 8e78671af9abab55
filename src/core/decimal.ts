import { Decimal } from 'decimal.js';
import { InputError } from './errors.js';

/**
 * Money is decimal wire to wire. This module is the single place that configures decimal.js and
 * converts between wire strings and Decimal values.
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;

/** The wire pattern of input amounts: unsigned, no exponent (".5" valid, "1." and "-1" not). */
export const WIRE_DECIMAL = /^[0-9]*\.?[0-9]+$/;

export const ZERO: Dec = new D(0);

/** Parses a wire decimal string (strict input pattern); throws InputError naming `field`. */
export function parseWireDecimal(value: unknown, field: string): Dec {
  if (typeof value !== 'string' || !WIRE_DECIMAL.test(value)) {
    throw new InputError(field, `expected an unsigned decimal string such as "12.5", got ${JSON.stringify(value)}`);
  }
  return new D(value);
}

/**
 * Parses a decimal string as servers send it (may be "", "0", ".25", or carry a sign).
 * Empty means zero. Returns undefined for anything that is not a finite decimal.
 */
export function readDecimal(value: unknown): Dec | undefined {
  if (value === '' || value === undefined || value === null) return ZERO;
  if (typeof value !== 'string' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return undefined;
  return new D(value);
}

/** Number of digits after the decimal point in a wire string ("1.50" → 2). */
export function decimalPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** Formats a Decimal for the wire with at most `dp` places, rounding down, without exponent. */
export function toWire(value: Dec, dp?: number): string {
  const v = dp === undefined ? value : value.toDecimalPlaces(dp, D.ROUND_DOWN);
  return v.toFixed();
}

/** Formats with exactly `dp` places (rounding down), e.g. balances "10.00000000". */
export function toFixedWire(value: Dec, dp: number): string {
  return value.toFixed(dp, D.ROUND_DOWN);
}

export function dec(value: string | number | Dec): Dec {
  return new D(value);
}
