/**
 * Wire types shared by every area, in the platform's snake_case shape. Decimals stay strings (parse
 * them with `readDecimal`/`D` where money moves); enums are open unions so that a value the server
 * adds later still type-checks and flows through.
 */

/** A decimal number as the wire carries it ("12.5", ".25", "" for not set). */
export type DecimalString = string;
/** RFC 3339 date-time in UTC. */
export type Timestamp = string;
/** Known values autocomplete; unknown server values are still accepted. */
export type Open<T extends string> = T | (string & {});
/** At most 6 pairs, keys and values at most 100 characters. */
export type Metadata = Readonly<Record<string, string>>;

/** A cursor page: pass `next_page_cursor` as `page_cursor` for the next one (empty = last page). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly next_page_cursor?: string;
}

/** Result of lists that are not paged. */
export interface Items<T> {
  readonly items: readonly T[];
}

/** `{}`: acknowledgements such as CancelOrder or DeactivateProfile. */
export type Empty = Readonly<Record<string, never>>;

export interface CursorQuery {
  readonly limit?: number;
  readonly page_cursor?: string;
}

export interface OrderingQuery {
  readonly order?: Open<'ASC' | 'DESC'>;
  readonly order_by?: Open<'CREATED_AT' | 'UPDATED_AT'>;
}

/** `created_at.lt` … `created_at.gt` comparison filters (RFC 3339 values). */
export interface CreatedAtQuery {
  readonly 'created_at.lt'?: Timestamp;
  readonly 'created_at.lte'?: Timestamp;
  readonly 'created_at.eq'?: Timestamp;
  readonly 'created_at.gte'?: Timestamp;
  readonly 'created_at.gt'?: Timestamp;
}

export interface UpdatedAtQuery {
  readonly 'updated_at.lt'?: Timestamp;
  readonly 'updated_at.lte'?: Timestamp;
  readonly 'updated_at.eq'?: Timestamp;
  readonly 'updated_at.gte'?: Timestamp;
  readonly 'updated_at.gt'?: Timestamp;
}

export type OrderSide = Open<'BUY' | 'SELL'>;
export type OrderType = Open<'LIMIT' | 'MARKET' | 'POST_ONLY_LIMIT' | 'STOP_MARKET' | 'STOP_LIMIT'>;
export type TimeInForce = Open<'GTC' | 'FOK' | 'IOC' | 'GTT'>;
export type OrderStatus = Open<'PENDING_SUBMISSION' | 'SUBMITTED' | 'OPEN' | 'FILLED' | 'CANCELLED' | 'REJECTED'>;
export type QuoteExecutionStatus = Open<'CREATED' | 'SETTLED'>;
export type Increment = Open<
  | 'ONE_MINUTE' | 'FIVE_MINUTES' | 'FIFTEEN_MINUTES' | 'THIRTY_MINUTES' | 'ONE_HOUR' | 'TWO_HOURS'
  | 'TWELVE_HOURS' | 'ONE_DAY' | 'ONE_WEEK' | 'TWO_WEEKS' | 'FOUR_WEEKS'
>;
export type ProfileType = Open<'NORMAL' | 'DEFAULT'>;
export type TransferType = Open<
  | 'INTERNAL_TRANSFER_DEBIT' | 'INTERNAL_TRANSFER_CREDIT' | 'CRYPTO_DEPOSIT' | 'CRYPTO_WITHDRAWAL'
  | 'WIRE_DEPOSIT' | 'WIRE_WITHDRAWAL' | 'SEN_DEPOSIT' | 'SEN_WITHDRAWAL' | 'BANK_DEPOSIT' | 'BANK_WITHDRAWAL'
  | 'PAXOS_TRANSFER_DEBIT' | 'PAXOS_TRANSFER_CREDIT' | 'SIGNET_DEPOSIT' | 'SIGNET_WITHDRAWAL'
  | 'CBIT_WITHDRAWAL' | 'CBIT_DEPOSIT' | 'CUBIX_DEPOSIT' | 'CUBIX_WITHDRAWAL'
>;
export type TransferStatus = Open<'PENDING' | 'COMPLETED' | 'FAILED'>;
export type TransferDirection = Open<'CREDIT' | 'DEBIT'>;
export type SecondaryStatusName = Open<'TRAVEL_RULE_INFO_REQUESTED' | 'TRAVEL_RULE_REJECTED' | 'CUSTOMER_REJECTED' | 'PENDING_CUSTOMER_APPROVAL'>;
export type CryptoNetwork = Open<
  'BITCOIN' | 'ETHEREUM' | 'BITCOIN_CASH' | 'LITECOIN' | 'SOLANA' | 'POLYGON_POS' | 'BASE' | 'ARBITRUM_ONE' | 'INK' | 'XLAYER'
>;
export type FiatNetwork = Open<'WIRE' | 'DBS_ACT' | 'CUBIX' | 'SCB'>;
export type IdentityStatus = Open<'PENDING' | 'ERROR' | 'APPROVED' | 'DENIED' | 'DISABLED'>;
