import type { CreatedAtQuery, CryptoNetwork, Open, OrderingQuery, Timestamp, CursorQuery } from './common.js';

/** An event of the feed (ListEvents, GetEvent): `object` is the record it is about (`object_type`). */
export interface Event {
  readonly id: string;
  /** e.g. `identity.approved`, `transfer.crypto_deposit.completed`, `order.filled`. */
  readonly type: string;
  readonly object_type: string;
  readonly object: Readonly<Record<string, unknown>>;
  readonly created_at: Timestamp;
  readonly undelivered_webhooks?: number;
}

/** ListEvents: ascending by `created_at`; page by moving `created_at.gt` past the last event. */
export interface ListEventsQuery extends CreatedAtQuery {
  /** 1 to 100. */
  readonly limit?: number;
  readonly type?: string;
  readonly is_test?: boolean;
}

export interface ListEventsResponse {
  readonly events: readonly Event[];
}

export interface CryptoDestinationAddress {
  readonly id: string;
  readonly crypto_network: CryptoNetwork;
  readonly address: string;
  readonly nickname?: string;
  readonly status?: Open<'PENDING' | 'APPROVED' | 'REJECTED'>;
  readonly created_at?: Timestamp;
  readonly bookmarked?: boolean;
  readonly travelrule_metadata?: Readonly<Record<string, unknown>>;
}

/** PutCryptoDestinationAddress: either `id` (update) or `crypto_network` and `address` (create or update). */
export interface PutCryptoDestinationAddressRequest {
  readonly id?: string;
  readonly crypto_network?: CryptoNetwork;
  readonly address?: string;
  readonly nickname?: string;
  readonly bookmarked_status?: boolean;
  readonly travelrule_metadata?: Readonly<Record<string, unknown>>;
}

export interface ListCryptoDestinationAddressesQuery extends CreatedAtQuery, CursorQuery, OrderingQuery {
  readonly ids?: readonly string[];
  readonly crypto_networks?: readonly CryptoNetwork[];
  readonly addresses?: readonly string[];
  readonly nicknames?: readonly string[];
  readonly bookmarked_status?: boolean;
}

/** A list of the operations beyond the platform spec: items under the resource's own key. */
export type NamedList<K extends string, T = Readonly<Record<string, unknown>>> = { readonly [P in K]: readonly T[] } & { readonly next_page_cursor?: string };

/** Query of those lists: their filters are passed through by wire name. */
export type BeyondQuery = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;
