import { MalformedResponseError, ValidationError } from './errors.js';
import type { CallInput, CallOptions } from './http/executor.js';
import type { OperationSpec } from './operation-spec.js';
import type { QueryInput } from './validate/query.js';

type CallFn = (spec: OperationSpec, input: CallInput, opts: CallOptions) => Promise<unknown>;

interface Page {
  readonly items: readonly unknown[];
  readonly next_page_cursor?: string | null;
  readonly total_count?: number;
}

/**
 * Iterates over every item of a list operation, page by page: cursor lists follow
 * `next_page_cursor` into `page_cursor` until it is missing or empty; ListHistoricalPrices moves
 * `pagination.offset` until a short page or `total_count`. Pages are fetched lazily.
 */
export async function* paginate<T>(call: CallFn, spec: OperationSpec, input: CallInput = {}, opts: CallOptions = {}): AsyncGenerator<T, void, undefined> {
  if (spec.paging === 'none') {
    throw new ValidationError(spec.id, 'operation', `${spec.id} is not paged: call it directly`);
  }
  if (spec.paging === 'offset') {
    yield* offsetPages<T>(call, spec, input, opts);
    return;
  }
  const seen = new Set<string>();
  const base = (input.query ?? {}) as QueryInput;
  let cursor = typeof base.page_cursor === 'string' ? base.page_cursor : undefined;
  for (;;) {
    const query = { ...base, page_cursor: cursor };
    const page = (await call(spec, { ...input, query }, opts)) as Page;
    for (const item of page.items) yield item as T;
    const next = page.next_page_cursor;
    if (typeof next !== 'string' || next === '' || page.items.length === 0) return;
    if (seen.has(next)) {
      throw new MalformedResponseError(`${spec.id}: the server repeated page cursor ${JSON.stringify(next)}; stopping to avoid a loop`, { operation: spec.id });
    }
    seen.add(next);
    cursor = next;
  }
}

async function* offsetPages<T>(call: CallFn, spec: OperationSpec, input: CallInput, opts: CallOptions): AsyncGenerator<T, void, undefined> {
  const base = (input.query ?? {}) as QueryInput;
  const limit = Number(base['pagination.limit'] ?? 100);
  let offset = Number(base['pagination.offset'] ?? 0);
  for (;;) {
    const query = { ...base, 'pagination.limit': limit, 'pagination.offset': offset };
    const page = (await call(spec, { ...input, query }, opts)) as Page;
    for (const item of page.items) yield item as T;
    offset += page.items.length;
    const total = typeof page.total_count === 'number' ? page.total_count : undefined;
    if (page.items.length < limit || page.items.length === 0 || (total !== undefined && offset >= total)) return;
  }
}

/** Every item of a list operation in one array (mind the memory for big lists). */
export async function collect<T>(iter: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iter) out.push(item);
  return out;
}
