import type { MarketSymbol } from '../../core/markets.js';
import type { CallOptions } from '../http/executor.js';
import type { Empty, Items, Page } from '../types/common.js';
import type {
  CreateOrderRequest, CreateQuoteExecutionRequest, Execution, HistoricalPrices, ListExecutionsQuery,
  ListHistoricalPricesQuery, ListOrdersQuery, ListProfileExecutionsQuery, ListProfileOrdersQuery,
  ListQuoteExecutionsQuery, MarketDetails, Order, OrderBook, Price, Quote, QuoteExecution, QuoteExecutionPage,
  RecentExecution, Ticker,
} from '../types/trading.js';
import type { Caller } from './caller.js';

/**
 * Typed methods of orders, executions, held-rate quotes, quote executions, market data and
 * pricing. Writes carry a ref_id (filled when absent) and are resolved by it on unknown outcomes.
 */
export function tradingMethods(call: Caller) {
  return {
    /** CreateOrder: places an order; a retry never creates a second one (ref_id lookup). */
    createOrder: (profileId: string, body: CreateOrderRequest, opts?: CallOptions) =>
      call<Order>('CreateOrder', { path: { profile_id: profileId }, body }, opts),
    /** GetOrder. */
    getOrder: (profileId: string, orderId: string, opts?: CallOptions) =>
      call<Order>('GetOrder', { path: { profile_id: profileId, id: orderId } }, opts),
    /** CancelOrder: acknowledges only; poll getOrder until CANCELLED or FILLED. */
    cancelOrder: (profileId: string, orderId: string, opts?: CallOptions) =>
      call<Empty>('CancelOrder', { path: { profile_id: profileId, id: orderId } }, opts),
    /** ListOrders (one page; use paginate('ListOrders') for all). */
    listOrders: (query: ListOrdersQuery = {}, opts?: CallOptions) => call<Page<Order>>('ListOrders', { query }, opts),
    /** ListProfileOrders. */
    listProfileOrders: (profileId: string, query: ListProfileOrdersQuery = {}, opts?: CallOptions) =>
      call<Page<Order>>('ListProfileOrders', { path: { profile_id: profileId }, query }, opts),
    /** ListExecutions. */
    listExecutions: (query: ListExecutionsQuery = {}, opts?: CallOptions) => call<Page<Execution>>('ListExecutions', { query }, opts),
    /** ListProfileExecutions (page size ≤ 500). */
    listProfileExecutions: (profileId: string, query: ListProfileExecutionsQuery = {}, opts?: CallOptions) =>
      call<Page<Execution>>('ListProfileExecutions', { path: { profile_id: profileId }, query }, opts),
    /** ListQuotes: one BUY and one SELL quote per market. */
    listQuotes: (markets: readonly MarketSymbol[], opts?: CallOptions) => call<Items<Quote>>('ListQuotes', { query: { markets } }, opts),
    /** CreateQuoteExecution: exactly one of base_amount (≤ 8 dp) / quote_amount (≤ 2 dp). */
    createQuoteExecution: (profileId: string, body: CreateQuoteExecutionRequest, opts?: CallOptions) =>
      call<QuoteExecution>('CreateQuoteExecution', { path: { profile_id: profileId }, body }, opts),
    /** ListQuoteExecutions. */
    listQuoteExecutions: (profileId: string, query: ListQuoteExecutionsQuery = {}, opts?: CallOptions) =>
      call<QuoteExecutionPage>('ListQuoteExecutions', { path: { profile_id: profileId }, query }, opts),
    /** GetQuoteExecution: poll until SETTLED. */
    getQuoteExecution: (profileId: string, id: string, opts?: CallOptions) =>
      call<QuoteExecution>('GetQuoteExecution', { path: { profile_id: profileId, id } }, opts),
    /** GetOrderBook (public). */
    getOrderBook: (market: MarketSymbol, opts?: CallOptions) => call<OrderBook>('GetOrderBook', { path: { market } }, opts),
    /** ListRecentExecutions (public; latest 2000). */
    listRecentExecutions: (market: MarketSymbol, opts?: CallOptions) =>
      call<Items<RecentExecution>>('ListRecentExecutions', { path: { market } }, opts),
    /** GetTicker (public). */
    getTicker: (market: MarketSymbol, opts?: CallOptions) => call<Ticker>('GetTicker', { path: { market } }, opts),
    /** ListTickers (public), normalised to an array whichever shape the server sent. */
    listTickers: (opts?: CallOptions) => call<readonly Ticker[]>('ListTickers', {}, opts),
    /** ListMarkets (public). */
    listMarkets: (opts?: CallOptions) => call<{ readonly markets: readonly MarketDetails[] }>('ListMarkets', {}, opts),
    /** ListPrices (public), normalised to `items` (`prices ?? items`). */
    listPrices: (markets: readonly MarketSymbol[], opts?: CallOptions) => call<Items<Price>>('ListPrices', { query: { markets } }, opts),
    /** ListHistoricalPrices, normalised to `items`; exactly one of increment / max_data_points. */
    listHistoricalPrices: (market: MarketSymbol, query: ListHistoricalPricesQuery, opts?: CallOptions) =>
      call<HistoricalPrices>('ListHistoricalPrices', { path: { market }, query }, opts),
  };
}

export type TradingApi = ReturnType<typeof tradingMethods>;
