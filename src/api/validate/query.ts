import { ValidationError } from '../errors.js';
import type { OperationSpec, QueryParamSpec } from '../operation-spec.js';
import { QUERY_RULES } from './rules.js';

/** A query value as callers give it; arrays for array filters, a single string is one value. */
export type QueryValue = string | number | boolean | readonly string[] | undefined | null;
export type QueryInput = Readonly<Record<string, QueryValue>>;

/** RFC 3339 date-time, as the platform's filters accept it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Validates `query` against the operation's parameters and encodes it exactly as on the wire:
 * arrays as repeated plain names, dotted names verbatim, booleans as true/false.
 */
/** The encoded query string (without `?`): `encodeQuery`, skipped for an operation that has none. */
export function queryString(spec: OperationSpec, query: QueryInput | undefined): string {
  if (query === undefined && !QUERY_RULES[spec.id]) {
    let params = false;
    for (const _ in spec.query) {
      params = true;
      break;
    }
    if (!params) return '';
  }
  return encodeQuery(spec, query).toString();
}

export function encodeQuery(spec: OperationSpec, query: QueryInput | undefined): URLSearchParams {
  const out = new URLSearchParams();
  const given = query ?? {};
  for (const name of Object.keys(given)) {
    if (!(name in spec.query)) {
      const known = Object.keys(spec.query);
      throw new ValidationError(spec.id, name, known.length ? `is not a query parameter of ${spec.id}: use one of ${known.join(', ')}` : `${spec.id} takes no query parameters`);
    }
  }
  for (const [name, param] of Object.entries(spec.query)) {
    const value = given[name];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
      if (param.required) throw new ValidationError(spec.id, name, 'is required');
      continue;
    }
    for (const v of encodeValue(spec.id, name, param, value)) out.append(name, v);
  }
  for (const [a, b] of QUERY_RULES[spec.id]?.exactlyOne ?? []) {
    if ((out.has(a) ? 1 : 0) + (out.has(b) ? 1 : 0) !== 1) throw new ValidationError(spec.id, `${a}/${b}`, `give exactly one of ${a} and ${b}`);
  }
  return out;
}

function encodeValue(op: string, name: string, param: QueryParamSpec, value: Exclude<QueryValue, undefined | null>): string[] {
  const fail = (message: string): never => {
    throw new ValidationError(op, name, message);
  };
  switch (param.kind) {
    case 'array': {
      const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : fail('must be a string or an array of strings');
      if (param.maxItems !== undefined && values.length > param.maxItems) fail(`has ${values.length} values; at most ${param.maxItems} are allowed`);
      for (const v of values) if (typeof v !== 'string' || v === '') fail('values must be non-empty strings');
      return [...values];
    }
    case 'bool':
      if (value === true || value === 'true') return ['true'];
      if (value === false || value === 'false') return ['false'];
      return fail('must be true or false');
    case 'int': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) fail(`must be an integer, got ${JSON.stringify(value)}`);
      if (param.min !== undefined && n < param.min) fail(`must be at least ${param.min}`);
      if (param.max !== undefined && n > param.max) fail(`must be at most ${param.max}`);
      return [String(n)];
    }
    case 'time':
      if (typeof value !== 'string' || !RFC3339.test(value)) fail(`must be an RFC 3339 date-time such as 2024-05-01T00:00:00Z, got ${JSON.stringify(value)}`);
      return [value as string];
    case 'scalar':
      if (typeof value === 'string' && value !== '') return [value];
      if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
      return fail('must be a single non-empty string');
  }
}

/** A path template cut once at its `{name}` parameters: literal, name, literal, name, …, literal. */
const PATH_PARTS = new WeakMap<OperationSpec, readonly string[]>();

/** Fills `{name}` path parameters (URL-encoded); every one must be a non-empty string. */
export function fillPath(spec: OperationSpec, params: Readonly<Record<string, string>> | undefined): string {
  const given = params ?? {};
  for (const name of Object.keys(given)) {
    if (!spec.pathParams.includes(name)) {
      throw new ValidationError(spec.id, name, spec.pathParams.length ? `is not a path parameter of ${spec.id}: use ${spec.pathParams.join(', ')}` : `${spec.id} takes no path parameters`);
    }
  }
  let parts = PATH_PARTS.get(spec);
  if (parts === undefined) {
    parts = spec.path.split(/\{([a-z_]+)\}/);
    PATH_PARTS.set(spec, parts);
  }
  let out = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    const name = parts[k]!;
    const v = given[name];
    if (typeof v !== 'string' || v.trim() === '') throw new ValidationError(spec.id, name, 'path parameter is required (a non-empty string)');
    out += encodeURIComponent(v) + parts[k + 1]!;
  }
  return out;
}
