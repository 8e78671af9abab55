import { InputError } from '../../core/errors.js';
import { parseIsoTime } from '../time.js';

/**
 * Field checks shared by the platform areas (identities, accounts, fiat, crypto, settlements …):
 * wire values arrive as `unknown` and leave as typed values, or an InputError naming the field and
 * the fix (the sandbox answers it as a 400).
 */

export type JsonObject = Record<string, unknown>;

/** A present, non-empty string (at most `max` characters). */
export function requiredText(value: unknown, field: string, example: string, max = 500): string {
  if (value === undefined || value === null || value === '') throw new InputError(field, `required, e.g. ${example}`);
  if (typeof value !== 'string') throw new InputError(field, `expected a string, e.g. ${example}`);
  if (value.length > max) throw new InputError(field, `at most ${max} characters`);
  return value;
}

/** An optional string; empty strings and nulls count as absent. */
export function optionalText(value: unknown, field: string, max = 500): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new InputError(field, 'expected a string');
  if (value.length > max) throw new InputError(field, `at most ${max} characters`);
  return value;
}

/** One value of an enumeration (required unless `optional`). */
export function enumValue<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const what = value === undefined || value === null || value === '' ? 'required' : `${JSON.stringify(value)} is not valid`;
  throw new InputError(field, `${what}: use one of ${allowed.join(', ')}`);
}

export function optionalEnum<T extends string>(value: unknown, field: string, allowed: readonly T[]): T | undefined {
  return value === undefined || value === null || value === '' ? undefined : enumValue(value, field, allowed);
}

/** A JSON object (required). */
export function objectValue(value: unknown, field: string, hint: string): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(field, `${value === undefined ? 'required' : 'expected an object'}: ${hint}`);
  }
  return value as JsonObject;
}

export function optionalObject(value: unknown, field: string, hint: string): JsonObject | undefined {
  return value === undefined || value === null ? undefined : objectValue(value, field, hint);
}

/** An array (absent → empty), at most `max` items. */
export function arrayValue(value: unknown, field: string, max = 100): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InputError(field, 'expected an array');
  if (value.length > max) throw new InputError(field, `at most ${max} items, got ${value.length}`);
  return value;
}

export function optionalBool(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new InputError(field, 'expected true or false');
  return value;
}

/** An RFC 3339 timestamp as epoch ms. */
export function optionalTime(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new InputError(field, 'expected an RFC 3339 timestamp such as "2025-03-04T10:00:00Z"');
  return parseIsoTime(value, field);
}

/** Refuses every key of `body` not in `allowed` (the platform's "other fields forbidden"). */
export function onlyFields(body: JsonObject, allowed: readonly string[], prefix = ''): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new InputError(`${prefix}${key}`, `not allowed here: remove it (allowed: ${allowed.join(', ')})`);
  }
}

const ADDRESS_REQUIRED = ['country', 'address1', 'city', 'province'] as const;
const ADDRESS_FIELDS = [...ADDRESS_REQUIRED, 'address2', 'zip_code'];

/** A postal address: country, address1, city, province required; address2, zip_code optional. */
export function postalAddress(value: unknown, field: string): Readonly<Record<string, string>> {
  const a = objectValue(value, field, 'a postal address {country, address1, city, province, zip_code}');
  onlyFields(a, ADDRESS_FIELDS, `${field}.`);
  const out: Record<string, string> = {};
  for (const k of ADDRESS_REQUIRED) out[k] = requiredText(a[k], `${field}.${k}`, k === 'country' ? '"USA"' : '"…"', 200);
  for (const k of ['address2', 'zip_code']) {
    const v = optionalText(a[k], `${field}.${k}`, 200);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Ids in the sandbox are UUIDs: anything else is a 400 naming the field (a malformed id, not an unknown one). */
export function uuidParam(value: string, field: string): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
    throw new InputError(field, `${JSON.stringify(value)} is not a UUID`);
  return value;
}
