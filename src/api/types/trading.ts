import type { MarketSymbol } from '../../core/markets.js';
import type {
  CursorQuery, DecimalString, Increment, Metadata, OrderingQuery, OrderSide, OrderStatus, OrderType,
  QuoteExecutionStatus, TimeInForce, Timestamp,
} from './common.js';

/** Wire types of orders, executions, quotes, quote executions, market data and pricing. */

export interface CreateOrderRequest {
  readonly side: OrderSide;
  readonly market: MarketSymbol;
  readonly type: OrderType;
  /** Idempotency key; the client fills a fresh one when absent. */
  readonly ref_id?: string;
  readonly base_amount?: DecimalString;
  readonly quote_amount?: DecimalString;
  readonly price?: DecimalString;
  readonly stop_price?: DecimalString;
  readonly time_in_force?: TimeInForce;
  /** GTT only: epoch milliseconds as a digit string, more than 10 s ahead. */
  readonly expiration_date?: string;
  /** Block until filled or this many ms (≤ 10000). */
  readonly await_fill_millis?: number;
  readonly metadata?: Metadata;
  readonly identity_id?: string;
  readonly identity_account_id?: string;
  readonly recipient_profile_id?: string;
  readonly self_match_prevention_id?: string;
}

export interface Order {
  readonly id: string;
  readonly profile_id?: string;
  readonly ref_id?: string;
  readonly status?: OrderStatus;
  readonly side?: OrderSide;
  readonly market?: MarketSymbol;
  readonly type?: OrderType;
  readonly base_amount?: DecimalString;
  readonly price?: DecimalString;
  readonly quote_amount?: DecimalString;
  readonly metadata?: Metadata;
  readonly created_at?: Timestamp;
  readonly modified_at?: Timestamp;
  readonly amount_filled?: DecimalString;
  readonly volume_weighted_average_price?: DecimalString;
  readonly time_in_force?: TimeInForce;
  readonly expiration_date?: Timestamp;
  readonly identity_id?: string;
  readonly identity_account_id?: string;
  readonly stop_price?: DecimalString;
  readonly recipient_profile_id?: string;
  readonly is_triggered?: boolean;
}

interface OrderFilters extends CursorQuery {
  readonly market?: MarketSymbol;
  readonly status?: OrderStatus;
  readonly 'order_time.begin'?: Timestamp;
  readonly 'order_time.end'?: Timestamp;
  readonly ref_ids?: readonly string[];
}

export interface ListOrdersQuery extends OrderFilters {
  readonly profile_id?: string;
  readonly account_id?: string;
}

export type ListProfileOrdersQuery = OrderFilters;

export interface Execution {
  readonly execution_id?: string;
  readonly order_id?: string;
  readonly executed_at?: Timestamp;
  readonly market?: MarketSymbol;
  readonly side?: OrderSide;
  readonly amount?: DecimalString;
  readonly price?: DecimalString;
  readonly commission?: DecimalString;
  readonly commission_asset?: string;
  readonly rebate?: DecimalString;
  readonly rebate_asset?: string;
  readonly account_id?: string;
  readonly gross_trade_amount?: DecimalString;
}

export interface ListProfileExecutionsQuery extends CursorQuery {
  readonly order_id?: string;
  readonly since_execution_id?: string;
  readonly 'range.begin'?: Timestamp;
  readonly 'range.end'?: Timestamp;
}

export interface ListExecutionsQuery extends ListProfileExecutionsQuery {
  readonly profile_id?: string;
  readonly account_id?: string;
}

export interface Quote {
  readonly id: string;
  readonly market: MarketSymbol;
  readonly side: OrderSide;
  readonly price: DecimalString;
  readonly base_asset: string;
  readonly quote_asset: string;
  readonly created_at: Timestamp;
  readonly expires_at: Timestamp;
}

export interface CreateQuoteExecutionRequest {
  readonly quote_id: string;
  readonly ref_id?: string;
  /** Crypto amount, ≤ 8 decimals; exactly one of base_amount / quote_amount. */
  readonly base_amount?: DecimalString;
  /** Fiat amount, ≤ 2 decimals. */
  readonly quote_amount?: DecimalString;
  readonly metadata?: Metadata;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly recipient_profile_id?: string;
}

export interface QuoteExecution {
  readonly id: string;
  readonly profile_id: string;
  readonly quote_id: string;
  readonly ref_id?: string;
  readonly status: QuoteExecutionStatus;
  readonly market: MarketSymbol;
  readonly side: OrderSide;
  readonly price: DecimalString;
  readonly base_amount: DecimalString;
  readonly base_asset: string;
  readonly quote_amount: DecimalString;
  readonly quote_asset: string;
  readonly created_at: Timestamp;
  readonly settled_at?: Timestamp;
  readonly metadata?: Metadata;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly recipient_profile_id?: string;
}

export interface ListQuoteExecutionsQuery extends CursorQuery, OrderingQuery {
  readonly side?: OrderSide;
  readonly market?: MarketSymbol;
  readonly status?: QuoteExecutionStatus;
  readonly 'created_at.begin'?: Timestamp;
  readonly 'created_at.end'?: Timestamp;
}

export interface QuoteExecutionPage {
  readonly items: readonly QuoteExecution[];
  readonly next_page_cursor?: string;
  readonly total_count?: number;
}

export interface BookLevel {
  readonly price: DecimalString;
  readonly amount: DecimalString;
}

export interface OrderBook {
  readonly market: MarketSymbol;
  readonly asks: readonly BookLevel[];
  readonly bids: readonly BookLevel[];
}

export interface RecentExecution {
  readonly match_number?: string;
  readonly price: DecimalString;
  readonly amount: DecimalString;
  readonly executed_at: Timestamp;
}

/** Daily statistics; the schema has `range`, the examples `start_time`/`end_time`: read either. */
export interface ExchangeStats {
  readonly high?: DecimalString;
  readonly low?: DecimalString;
  readonly open?: DecimalString;
  readonly volume?: DecimalString;
  readonly volume_weighted_average_price?: DecimalString;
  readonly range?: { readonly begin?: Timestamp; readonly end?: Timestamp };
  readonly start_time?: Timestamp;
  readonly end_time?: Timestamp;
}

export interface Ticker {
  readonly market: MarketSymbol;
  readonly best_bid?: BookLevel;
  readonly best_ask?: BookLevel;
  readonly last_execution?: BookLevel;
  readonly last_day?: ExchangeStats;
  readonly today?: ExchangeStats;
  readonly snapshot_at?: Timestamp;
}

export interface MarketDetails {
  readonly market: MarketSymbol;
  readonly base_asset: string;
  readonly quote_asset: string;
  readonly tick_rate: DecimalString;
}

export interface Price {
  readonly market: MarketSymbol;
  readonly current_price: DecimalString;
  readonly yesterday_price?: DecimalString;
  readonly snapshot_at?: Timestamp;
}

export interface HistoricalPrice {
  readonly average_price: DecimalString;
  readonly timestamp: Timestamp;
}

/** Exactly one of `increment` / `max_data_points`. */
export interface ListHistoricalPricesQuery {
  readonly increment?: Increment;
  readonly max_data_points?: number;
  readonly 'range.begin'?: Timestamp;
  readonly 'range.end'?: Timestamp;
  readonly 'pagination.limit'?: number;
  readonly 'pagination.offset'?: number;
}

/** Normalised: `items` whichever key (`prices`/`items`) the server used. */
export interface HistoricalPrices {
  readonly items: readonly HistoricalPrice[];
  readonly total_count?: number;
  readonly market?: MarketSymbol;
}

