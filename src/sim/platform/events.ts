import { hashLabel, rngFor } from '../hash.js';
import { type OrderRecord } from '../exchange/order-types.js';
import { type SimIdentity, summaryStatus } from './identities.js';
import { type SimTransfer } from './transfers.js';

/** What an event is about: the record it was raised for. */
export type EventSubject =
  | { readonly kind: 'order'; readonly order: OrderRecord }
  | { readonly kind: 'transfer'; readonly transfer: SimTransfer }
  | { readonly kind: 'identity'; readonly identity: SimIdentity; readonly oldStatus: string; readonly newStatus: string };

/** An event of the platform's event feed (ListEvents / GetEvent), derived from the sim's records. */
export interface SimEvent {
  readonly id: string;
  /** e.g. `identity.approved`, `transfer.crypto_deposit.completed`, `order.filled`. */
  readonly type: string;
  readonly objectType: string;
  readonly createdAt: number;
  readonly subject: EventSubject;
}

/** The records one entity owns, as the event feed reads them. */
export interface EventSources {
  readonly orders: readonly OrderRecord[];
  readonly transfers: readonly SimTransfer[];
  readonly identities: readonly SimIdentity[];
  /** Key that keeps ids of two worlds apart (the instance id, else the seed). */
  readonly world: string;
}

const ORDER_ENDS: Readonly<Record<string, string>> = { FILLED: 'order.filled', CANCELLED: 'order.cancelled', REJECTED: 'order.rejected' };
const IDENTITY_ENDS: Readonly<Record<string, string>> = {
  APPROVED: 'identity.approved',
  DENIED: 'identity.denied',
  DISABLED: 'identity.disabled',
};

/**
 * The event feed of one entity, ascending by `created_at` (ties in a fixed order), derived from its
 * records rather than kept beside them, so it is as durable as the records (the state file) and
 * costs no memory of its own:
 * - an order raises `order.created` when placed and `order.filled` / `order.cancelled` /
 *   `order.rejected` when it ends;
 * - a transfer raises `transfer.<type>.pending` when it waited (crypto deposits and withdrawals as
 *   `crypto_deposit` / `crypto_withdrawal`, others by their lower-cased type) and
 *   `transfer.<type>.completed` / `.failed` when it ends;
 * - an identity whose summary status is APPROVED, DENIED or DISABLED raises `identity.<status>` at
 *   its last update (object: the change from PENDING).
 * Ids are UUIDs fixed by (world, record, event type), so GetEvent finds the same event again.
 */
export function deriveEvents(src: EventSources): SimEvent[] {
  // ties at one millisecond keep a fixed order: by kind (orders, transfers, identities), record, then start before end
  const out: { event: SimEvent; rank: readonly number[] }[] = [];
  const make = (
    recordId: string,
    type: string,
    objectType: string,
    createdAt: number,
    subject: EventSubject,
    rank: readonly number[],
  ): void => {
    out.push({
      event: { id: rngFor(hashLabel(`${src.world}:event:${recordId}:${type}`), 0).uuid(), type, objectType, createdAt, subject },
      rank: [createdAt, rank[1]!, rank[2]!, rank[0]!],
    });
  };
  for (const order of src.orders) {
    make(order.id, 'order.created', 'order', order.createdAt, { kind: 'order', order }, [0, 0, order.seq]);
    const end = ORDER_ENDS[order.status];
    if (end !== undefined) make(order.id, end, 'order', order.modifiedAt, { kind: 'order', order }, [1, 0, order.seq]);
  }
  for (const transfer of src.transfers) {
    const name = `transfer.${transferEventName(transfer.type)}`;
    const waited = transfer.status === 'PENDING' || transfer.updatedAt > transfer.createdAt;
    if (waited) make(transfer.id, `${name}.pending`, 'transfer', transfer.createdAt, { kind: 'transfer', transfer }, [0, 1, transfer.seq]);
    if (transfer.status === 'COMPLETED' || transfer.status === 'FAILED')
      make(transfer.id, `${name}.${transfer.status.toLowerCase()}`, 'transfer', transfer.updatedAt, { kind: 'transfer', transfer }, [
        1,
        1,
        transfer.seq,
      ]);
  }
  for (const identity of src.identities) {
    const status = summaryStatus(identity);
    const end = IDENTITY_ENDS[status];
    if (end !== undefined)
      make(
        identity.id,
        end,
        'identity_summary_status_change',
        identity.updatedAt,
        { kind: 'identity', identity, oldStatus: 'PENDING', newStatus: status },
        [1, 2, identity.seq],
      );
  }
  const before = (a: readonly number[], b: readonly number[]): number => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  };
  return out.sort((a, b) => before(a.rank, b.rank)).map((x) => x.event);
}

function transferEventName(type: string): string {
  return type.toLowerCase();
}

/** Event types the feed can raise (the `type` filter accepts these). */
export const EVENT_TYPE_PATTERN = /^(order|transfer|identity)\.[a-z_]+(\.[a-z_]+)?$/;
