import { withinBounds, type TimeBounds } from '../../sim/index.js';
import { pageOf } from '../paging.js';
import { type Query } from '../query.js';

const BOUNDS = ['lt', 'lte', 'eq', 'gte', 'gt'] as const;

/** `created_at.lt` … `created_at.gt` (or another family) as bounds, undefined when none is given. */
export function timeBounds(q: Query, family: string): TimeBounds | undefined {
  const out: Record<string, number> = {};
  for (const b of BOUNDS) {
    const t = q.time(`${family}.${b}`);
    if (t !== undefined) out[b] = t;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Inclusive `X.begin` / `X.end` ranges as bounds. */
export function rangeBounds(q: Query, family: string): TimeBounds | undefined {
  const begin = q.time(`${family}.begin`);
  const end = q.time(`${family}.end`);
  if (begin === undefined && end === undefined) return undefined;
  return { ...(begin !== undefined ? { gte: begin } : {}), ...(end !== undefined ? { lte: end } : {}) };
}

interface Listed {
  readonly seq: number;
  readonly createdAt: number;
  readonly updatedAt?: number;
}

export interface ListOptions {
  readonly created?: TimeBounds | undefined;
  readonly updated?: TimeBounds | undefined;
  /** Default sort direction (most lists: DESC, newest first). */
  readonly defaultOrder?: 'ASC' | 'DESC';
  readonly defaultLimit?: number;
  /** Whether `order` may be given (some lists have no order parameter). */
  readonly ordered?: boolean;
}

/**
 * One page of a list in creation order: time filters, `order` (ASC/DESC), `order_by` (CREATED_AT
 * only), `limit` (1–1000) and opaque cursors, as the platform's lists take them.
 */
export function listPage<T extends Listed>(q: Query, records: readonly T[], o: ListOptions = {}): { items: T[]; next_page_cursor: string } {
  const order = o.ordered === false ? (o.defaultOrder ?? 'DESC') : (q.oneOf('order', ['ASC', 'DESC'] as const) ?? o.defaultOrder ?? 'DESC');
  if (o.ordered !== false) q.oneOf('order_by', ['CREATED_AT'] as const);
  const filtered = records.filter((r) => withinBounds(r.createdAt, o.created) && withinBounds(r.updatedAt ?? r.createdAt, o.updated));
  const sorted = [...filtered].sort((a, b) => (order === 'DESC' ? b.seq - a.seq : a.seq - b.seq));
  const page = pageOf(sorted, (r) => r.seq, order === 'DESC', q.string('page_cursor'), q.int('limit', 1, 1000) ?? o.defaultLimit ?? 100);
  return { items: page.items, next_page_cursor: page.nextPageCursor };
}

/** Helper for array filters: true when the filter is empty or holds the value. */
export function matches(filter: readonly string[], value: string | undefined): boolean {
  return filter.length === 0 || (value !== undefined && filter.includes(value));
}
