import { readDecimal } from '../../core/decimal.js';
import { getPath } from '../validate/body.js';
import type { RefIdSpec } from '../operation-spec.js';

/**
 * ref_id handling for writes: every write that can carry one gets one (the caller's, or a fresh
 * id), and a record found by ref_id — through a lookup or a 409's `meta.existing` — counts as ours
 * only when the fields we sent agree with it.
 */

/** Returns the body with a ref_id at `spec.field`, keeping the caller's when present. */
export function withRefId(spec: RefIdSpec, body: Record<string, unknown>, makeRefId: () => string): { body: Record<string, unknown>; refId: string } {
  const existing = getPath(body, spec.field);
  if (typeof existing === 'string' && existing !== '') return { body, refId: existing };
  const refId = makeRefId();
  const keys = spec.field.split('.');
  return { body: setPath(body, keys, refId), refId };
}

function setPath(obj: Record<string, unknown>, keys: readonly string[], value: string): Record<string, unknown> {
  const [head, ...rest] = keys;
  if (head === undefined) return obj;
  if (rest.length === 0) return { ...obj, [head]: value };
  const child = obj[head];
  const inner = child !== null && typeof child === 'object' && !Array.isArray(child) ? (child as Record<string, unknown>) : {};
  return { ...obj, [head]: setPath(inner, rest, value) };
}

/** Request fields whose response form differs by design (epoch-ms vs RFC 3339, write-only knobs). */
const NOT_ECHOED = new Set(['ref_id', 'expiration_date', 'await_fill_millis', 'time_in_force', 'self_match_prevention_id']);

/**
 * The first top-level string field the request and the existing record both carry with different
 * values (decimals compared by value: "1.50" equals "1.5"), or undefined when they agree.
 */
export function refIdMismatch(body: Record<string, unknown>, existing: unknown, path: Readonly<Record<string, string>> = {}): string | undefined {
  if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) return undefined;
  return firstDifference({ ...path, ...body }, existing as Record<string, unknown>, '', true);
}

/** Walks what was sent: string leaves both sides carry must agree, nested objects included. */
function firstDifference(sent: Record<string, unknown>, record: Record<string, unknown>, prefix: string, top: boolean): string | undefined {
  for (const [key, value] of Object.entries(sent)) {
    if (top && NOT_ECHOED.has(key)) continue;
    const other = record[key];
    const name = `${prefix}${key}`;
    if (typeof value === 'string') {
      if (isAlias(key, value) || typeof other !== 'string' || other === '') continue;
      if (!sameValue(value, other)) return name;
    } else if (isPlainObject(value) && isPlainObject(other)) {
      const inner = firstDifference(value, other, `${name}.`, false);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `default` in a profile_id names the default profile; the record carries its UUID instead. */
function isAlias(key: string, value: string): boolean {
  return key.endsWith('profile_id') && value.toLowerCase() === 'default';
}

function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const da = /^[0-9]*\.?[0-9]+$/.test(a) ? readDecimal(a) : undefined;
  const db = da ? readDecimal(b) : undefined;
  return da !== undefined && db !== undefined && da.eq(db);
}

/** Picks the record with this ref_id (and the lookup's `match` fields) from a list page. */
export function pickByRefId(items: readonly unknown[], refId: string, match: Readonly<Record<string, string>> = {}): unknown {
  return items.find((item) => {
    if (item === null || typeof item !== 'object') return false;
    const r = item as Record<string, unknown>;
    return r.ref_id === refId && Object.entries(match).every(([k, v]) => r[k] === undefined || r[k] === v || isAlias(k, v));
  });
}
