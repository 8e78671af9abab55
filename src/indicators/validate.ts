import { InputError } from '../core/index.js';

/**
 * Argument checks shared by the indicators. A bad period or a NaN price would otherwise poison
 * running sums silently and forever, so both fail loudly with the field and the fix.
 */

/** Throws InputError unless `value` is an integer in [min, 2^31). */
export function requireInteger(field: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > 0x7fffffff) {
    throw new InputError(field, `must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}

/** Throws InputError unless `value` is a finite number (the hot path calls this per update). */
export function requireFinite(field: string, value: number): void {
  if (!Number.isFinite(value)) throwNotFinite(field, value);
}

/** Throws InputError unless `value` is a finite number greater than zero. */
export function requirePositive(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new InputError(field, `must be a finite number > 0, got ${String(value)}`);
  }
  return value;
}

// Kept out of line so the per-update check stays tiny and inlinable.
function throwNotFinite(field: string, value: unknown): never {
  throw new InputError(field, `must be a finite number, got ${String(value)}; drop or repair the bad point before updating`);
}
