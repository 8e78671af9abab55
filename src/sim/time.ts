import { InputError } from '../core/errors.js';

/** RFC 3339 UTC with milliseconds, as the platform's timestamps are written. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp filter; throws an InputError naming `field` with the expected form. */
export function parseIsoTime(value: string, field: string): number {
  const ms = RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new InputError(field, `expected an RFC 3339 timestamp such as "2025-03-04T10:00:00Z", got ${JSON.stringify(value)}`);
  }
  return ms;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Start of the UTC day containing `ms`. */
export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
