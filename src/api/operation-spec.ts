/**
 * The vocabulary of the operations table: how one platform operation is called on the wire.
 * Keeping operations as data lets the generic `client.call`, the CLI, the validator, pagination
 * and the retry policy share one description instead of 74 hand-written request builders.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Kinds of query parameters: `scalar` string, `time` (RFC 3339 string), `array` (repeated plain
 * name on the wire), `bool` (`true`/`false`), `int` (JSON number, sent as digits).
 */
export type QueryKind = 'scalar' | 'time' | 'array' | 'bool' | 'int';

export interface QueryParamSpec {
  readonly kind: QueryKind;
  readonly required?: boolean;
  /** Arrays: most values accepted (platform: 100 for id filters). */
  readonly maxItems?: number;
  /** Ints: inclusive bounds. */
  readonly min?: number;
  readonly max?: number;
}

export type Paging = 'cursor' | 'offset' | 'none';

/**
 * How a write with a `ref_id` is made safe to retry. `list`: look the record up through a list
 * operation filtered by ref_id before resending. `resend`: no filter exists, so resend the same
 * ref_id and accept a 409 carrying `meta.existing`.
 */
export type RefIdLookup =
  | {
      readonly kind: 'list';
      readonly operation: string;
      /** Query filter of the list operation (`ref_ids` array or `ref_id` scalar). */
      readonly filter: string;
      /** Copies request fields into the lookup's query (`profile_id` of the path, say). */
      readonly scopeBy?: Readonly<Record<string, string>>;
      /** Picks among several records with the ref_id (both legs of a transfer). */
      readonly match?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'resend' };

export interface RefIdSpec {
  /** Dotted location of the ref_id in the body (`ref_id`, or `account.ref_id`). */
  readonly field: string;
  readonly lookup: RefIdLookup;
}

/** Normalisation of responses that come in two documented shapes. */
export type ResponseShape =
  | 'object'
  | 'page'
  | 'items'
  | 'tickers'
  | 'prices'
  | 'historical-prices'
  | 'empty';

export type Priority = 'high' | 'normal' | 'low';

export interface OperationSpec {
  readonly id: string;
  readonly area: string;
  readonly method: HttpMethod;
  /** Relative to the base URL that ends in `/v2`, with `{name}` path parameters. */
  readonly path: string;
  readonly pathParams: readonly string[];
  /** OAuth scope, or undefined for a public operation. */
  readonly scope: string | undefined;
  readonly query: Readonly<Record<string, QueryParamSpec>>;
  readonly body: 'required' | 'optional' | 'none';
  readonly paging: Paging;
  readonly response: ResponseShape;
  readonly refId: RefIdSpec | undefined;
  /** Default scheduling priority when the rate budget is tight. */
  readonly priority: Priority;
  /** Exists only on the platform's sandbox. */
  readonly sandboxOnly: boolean;
  /** Exists only in the older API version (kept by name for the platform spec). */
  readonly legacy: boolean;
}

/** Options of `op()`; everything but method and path has a sensible default. */
export interface OpOptions {
  readonly scope?: string;
  readonly query?: Readonly<Record<string, QueryParamSpec>>;
  readonly body?: 'required' | 'optional' | 'none';
  readonly paging?: Paging;
  readonly response?: ResponseShape;
  readonly refId?: RefIdSpec;
  readonly priority?: Priority;
  readonly sandboxOnly?: boolean;
  readonly legacy?: boolean;
}

/** Builds one table row; path parameters come from the template. */
export function op(id: string, area: string, method: HttpMethod, path: string, o: OpOptions = {}): OperationSpec {
  const pathParams = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  const paging = o.paging ?? 'none';
  return Object.freeze({
    id,
    area,
    method,
    path,
    pathParams,
    scope: o.scope,
    query: Object.freeze({ ...(o.query ?? {}) }),
    body: o.body ?? (method === 'POST' || method === 'PUT' ? 'required' : 'none'),
    paging,
    response: o.response ?? (paging === 'cursor' ? 'page' : 'object'),
    refId: o.refId,
    priority: o.priority ?? 'normal',
    sandboxOnly: o.sandboxOnly ?? false,
    legacy: o.legacy ?? false,
  });
}

// Query parameter building blocks -----------------------------------------------------------------

export const S: QueryParamSpec = { kind: 'scalar' };
export const T: QueryParamSpec = { kind: 'time' };
export const B: QueryParamSpec = { kind: 'bool' };
/** An array filter of at most 100 values (the platform's rule for id filters). */
export const A: QueryParamSpec = { kind: 'array', maxItems: 100 };
export const required = (p: QueryParamSpec): QueryParamSpec => ({ ...p, required: true });

/** `name.lt`, `name.lte`, `name.eq`, `name.gte`, `name.gt` comparison filters. */
export function cmp(name: string): Record<string, QueryParamSpec> {
  return Object.fromEntries(['lt', 'lte', 'eq', 'gte', 'gt'].map((s) => [`${name}.${s}`, T]));
}

/** Inclusive `name.begin` / `name.end` range filters. */
export function range(name: string): Record<string, QueryParamSpec> {
  return { [`${name}.begin`]: T, [`${name}.end`]: T };
}

/** Cursor paging parameters with the operation's page-size cap. */
export function cursor(maxLimit = 1000): Record<string, QueryParamSpec> {
  return { limit: { kind: 'int', min: 1, max: maxLimit }, page_cursor: S };
}

/** `order` (ASC/DESC) and, when given, `order_by`. */
export function ordering(withOrderBy = true): Record<string, QueryParamSpec> {
  return withOrderBy ? { order: S, order_by: S } : { order: S };
}

/** A ref_id write looked up through `operation` filtered by `filter`. */
export function lookupBy(operation: string, filter: string, extra: Omit<Extract<RefIdLookup, { kind: 'list' }>, 'kind' | 'operation' | 'filter'> = {}): RefIdSpec {
  return { field: 'ref_id', lookup: { kind: 'list', operation, filter, ...extra } };
}

/** A ref_id write without a lookup filter: resend and accept 409 with meta.existing. */
export function resendRefId(field = 'ref_id'): RefIdSpec {
  return { field, lookup: { kind: 'resend' } };
}
