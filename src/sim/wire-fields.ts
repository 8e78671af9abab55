/**
 * Checks of wire fields that many operations of the simulated platform share (metadata maps, optional
 * strings), apart from any one operation's rules. Errors are InputErrors naming the wire field.
 */
import { InputError } from '../core/errors.js';

const MAX_METADATA_PAIRS = 6;
const MAX_METADATA_TEXT = 100;

/** Validates a metadata map (≤ 6 pairs, ≤ 100 characters each), naming the offending key. */
export function metadata(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new InputError('metadata', 'expected an object of string keys and string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_METADATA_PAIRS) throw new InputError('metadata', `at most ${MAX_METADATA_PAIRS} pairs, got ${entries.length}`);
  for (const [k, v] of entries) {
    if (typeof v !== 'string') throw new InputError(`metadata.${k}`, 'values must be strings');
    if (k.length > MAX_METADATA_TEXT || v.length > MAX_METADATA_TEXT)
      throw new InputError(`metadata.${k}`, `keys and values are at most ${MAX_METADATA_TEXT} characters`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** An optional string field of at most `max` characters (empty counts as absent). */
export function optionalString(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new InputError(field, 'expected a string');
  if (value.length > max) throw new InputError(field, `at most ${max} characters`);
  return value;
}
