import { type SimTransfer } from './transfers.js';

/** Comparison bounds on one timestamp (the wire's `created_at.lt` … `created_at.gt`). */
export interface TimeBounds {
  readonly lt?: number;
  readonly lte?: number;
  readonly eq?: number;
  readonly gte?: number;
  readonly gt?: number;
}

/** List Transfers' filters (TRADING.md §6.2); every given filter must match, arrays match any value. */
export interface TransferFilter {
  readonly profileIds?: readonly string[];
  readonly identityIds?: readonly string[];
  readonly accountIds?: readonly string[];
  readonly refIds?: readonly string[];
  readonly ids?: readonly string[];
  readonly types?: readonly string[];
  readonly groupIds?: readonly string[];
  readonly cryptoTxHashes?: readonly string[];
  readonly statuses?: readonly string[];
  /** Travel-rule and customer states (deposits waiting for or refused after originator information). */
  readonly secondaryStatuses?: readonly string[];
  readonly created?: TimeBounds;
  readonly updated?: TimeBounds;
  readonly orderBy?: 'CREATED_AT' | 'UPDATED_AT';
  readonly order?: 'ASC' | 'DESC';
}

/** True when `t` satisfies every bound. */
export function withinBounds(t: number, b: TimeBounds | undefined): boolean {
  if (b === undefined) return true;
  return !(
    (b.lt !== undefined && t >= b.lt) ||
    (b.lte !== undefined && t > b.lte) ||
    (b.eq !== undefined && t !== b.eq) ||
    (b.gte !== undefined && t < b.gte) ||
    (b.gt !== undefined && t <= b.gt)
  );
}

function anyOf(values: readonly string[] | undefined, value: string | undefined): boolean {
  return values === undefined || values.length === 0 || (value !== undefined && values.includes(value));
}

/**
 * Transfers matching `f`, sorted by the paging key: creation order (`seq`) for CREATED_AT, update
 * order (`updateSeq`) for UPDATED_AT; DESC by default, ASC by default when ordered by UPDATED_AT.
 */
export function queryTransfers(
  all: readonly SimTransfer[],
  f: TransferFilter,
): { items: SimTransfer[]; keyOf: (t: SimTransfer) => number; descending: boolean } {
  const byUpdate = f.orderBy === 'UPDATED_AT';
  const descending = (f.order ?? (byUpdate ? 'ASC' : 'DESC')) === 'DESC';
  const items = all.filter(
    (t) =>
      anyOf(f.secondaryStatuses, t.secondaryStatus) &&
      anyOf(f.profileIds, t.profileId) &&
      anyOf(f.identityIds, t.identityId) &&
      anyOf(f.accountIds, t.accountId) &&
      anyOf(f.refIds, t.refId) &&
      anyOf(f.ids, t.id) &&
      anyOf(f.types, t.type) &&
      anyOf(f.groupIds, t.groupId) &&
      anyOf(f.cryptoTxHashes, t.cryptoTxHash) &&
      anyOf(f.statuses, t.status) &&
      withinBounds(t.createdAt, f.created) &&
      withinBounds(t.updatedAt, f.updated),
  );
  const keyOf = byUpdate ? (t: SimTransfer) => t.updateSeq : (t: SimTransfer) => t.seq;
  items.sort((a, b) => (descending ? keyOf(b) - keyOf(a) : keyOf(a) - keyOf(b)));
  return { items, keyOf, descending };
}
