import { badRequest } from './problem.js';

export interface Page<T> {
  readonly items: T[];
  readonly nextPageCursor: string;
}

/**
 * Cursor paging over a list already sorted by an integer key (ascending or descending). The
 * cursor is opaque to clients (base64url of the last key seen), so inserts between calls neither
 * repeat nor skip records. An empty `nextPageCursor` means the last page.
 */
export function pageOf<T>(
  sorted: readonly T[],
  keyOf: (item: T) => number,
  descending: boolean,
  cursor: string | undefined,
  limit: number,
): Page<T> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  let start = 0;
  if (after !== undefined) {
    while (start < sorted.length && (descending ? keyOf(sorted[start]!) >= after : keyOf(sorted[start]!) <= after)) start++;
  }
  const items = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  const last = items[items.length - 1];
  return { items, nextPageCursor: more && last !== undefined ? encodeCursor(keyOf(last)) : '' };
}

export function encodeCursor(key: number): string {
  return Buffer.from(`tl1:${key}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^tl1:(\d{1,15})$/.exec(text);
  if (m === null)
    throw badRequest('page_cursor', 'not a cursor this server issued: pass next_page_cursor from the previous page unchanged');
  return Number(m[1]);
}
