import { WIRE_DECIMAL, decimalPlaces, isFiat } from '../../core/index.js';
import { ValidationError } from '../errors.js';
import { BODY_RULES, METADATA_FIELDS, METADATA_MAX_CHARS, METADATA_MAX_PAIRS, type BodyRules, type DecimalRule } from './rules.js';

/** The wire memo charset: letters, digits, space and / ? : ( ) . , & ' + - */
const MEMO_CHARS = /^[A-Za-z0-9 /?:().,&'+-]*$/;

/** Reads a dotted path (`account.ref_id`) from a JSON body. */
export function getPath(body: unknown, path: string): unknown {
  let cur: unknown = body;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * Checks a request body against the operation's rules; throws a ValidationError naming the first
 * offending field and the fix. Bodies must be JSON objects.
 */
export function validateBody(operation: string, body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError(operation, 'body', 'must be a JSON object such as {"field": "value"}');
  }
  const rules = BODY_RULES[operation];
  if (rules) checkRules(operation, body, rules);
  for (const field of METADATA_FIELDS) checkMetadata(operation, field, getPath(body, field));
}

function checkRules(operation: string, body: object, rules: BodyRules): void {
  const fail = (field: string, message: string): never => {
    throw new ValidationError(operation, field, message);
  };
  for (const field of rules.required ?? []) {
    if (!present(getPath(body, field))) fail(field, 'is required');
  }
  for (const [a, b] of rules.exactlyOne ?? []) {
    const has = [present(getPath(body, a)), present(getPath(body, b))];
    if (has[0] === has[1]) fail(`${a}/${b}`, `give exactly one of ${a} and ${b}`);
  }
  for (const [a, b] of rules.together ?? []) {
    if (present(getPath(body, a)) !== present(getPath(body, b))) fail(`${a}/${b}`, `give both ${a} and ${b}, or neither`);
  }
  for (const [field, rule] of Object.entries(rules.decimals ?? {})) checkDecimal(operation, body, field, rule);
  for (const [field, max] of Object.entries(rules.maxLength ?? {})) {
    const v = getPath(body, field);
    if (present(v) && (typeof v !== 'string' || v.length > max)) fail(field, `must be a string of at most ${max} characters`);
  }
  for (const field of rules.nonEmptyArrays ?? []) {
    const v = getPath(body, field);
    if (!Array.isArray(v) || v.length === 0) fail(field, 'must be a non-empty array');
  }
  for (const [field, max] of Object.entries(rules.memo ?? {})) {
    const v = getPath(body, field);
    if (!present(v)) continue;
    if (typeof v !== 'string' || v.length > max) fail(field, `must be a string of at most ${max} characters`);
    if (!MEMO_CHARS.test(v as string)) fail(field, "may contain only letters, digits, space and / ? : ( ) . , & ' + -");
  }
  for (const [field, { min, max }] of Object.entries(rules.ints ?? {})) {
    const v = getPath(body, field);
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)) {
      fail(field, `must be an integer from ${min} to ${max}`);
    }
  }
  for (const field of rules.digits ?? []) {
    const v = getPath(body, field);
    if (present(v) && !(typeof v === 'string' && /^\d+$/.test(v))) fail(field, 'must be a string of digits (epoch milliseconds, e.g. "1767225600000")');
  }
}

function checkDecimal(operation: string, body: object, field: string, rule: DecimalRule): void {
  const v = getPath(body, field);
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || !WIRE_DECIMAL.test(v)) {
    throw new ValidationError(operation, field, `must be an unsigned decimal string such as "12.5" (no sign, exponent or trailing dot), got ${JSON.stringify(v)}`);
  }
  let maxDp: number | undefined;
  if (typeof rule === 'number') maxDp = rule;
  else if (rule === 'fiat-by-asset') {
    const asset = getPath(body, 'asset');
    if (typeof asset === 'string' && isFiat(asset)) maxDp = 2;
  }
  if (maxDp !== undefined && decimalPlaces(v) > maxDp) {
    throw new ValidationError(operation, field, `has ${decimalPlaces(v)} decimal places; at most ${maxDp} are allowed`);
  }
}

function checkMetadata(operation: string, field: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError(operation, field, 'must be an object of string keys to string values');
  }
  const entries = Object.entries(value);
  if (entries.length > METADATA_MAX_PAIRS) {
    throw new ValidationError(operation, field, `has ${entries.length} pairs; at most ${METADATA_MAX_PAIRS} are allowed`);
  }
  for (const [k, v] of entries) {
    if (typeof v !== 'string') throw new ValidationError(operation, `${field}.${k}`, 'must be a string');
    if (k.length > METADATA_MAX_CHARS || v.length > METADATA_MAX_CHARS) {
      throw new ValidationError(operation, `${field}.${k}`, `keys and values may have at most ${METADATA_MAX_CHARS} characters`);
    }
  }
}
