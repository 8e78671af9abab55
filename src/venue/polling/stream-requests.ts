import type { ApiClient, Priority } from '../../api/index.js';
import { invariant } from '../../core/index.js';
import type { PlannedStream } from './stream-plan.js';

/** The client methods a polling source uses: the real ApiClient, or an in-process fake in benchmarks. */
export type MarketDataApi = Pick<
  ApiClient,
  | 'listPrices'
  | 'getTicker'
  | 'getOrderBook'
  | 'listQuotes'
  | 'listProfileBalances'
  | 'listProfileOrders'
  | 'listProfileExecutions'
  | 'listQuoteExecutions'
  | 'listHistoricalPrices'
> &
  Partial<Pick<ApiClient, 'listRecentExecutions'>>;

/** Poll interval of each stream, ms. */
export interface PollIntervals {
  readonly pricesMs: number;
  readonly tickerMs: number;
  readonly bookMs: number;
  readonly quotesMs: number;
  readonly balancesMs: number;
  /** Open orders. */
  readonly ordersMs: number;
  readonly fillsMs: number;
  readonly quoteExecutionsMs: number;
  /** Recent trades of each subscribed market (`streams.trades_ms`); unset: no trades stream. */
  readonly tradesMs?: number;
}

export const DEFAULT_INTERVALS: PollIntervals = {
  pricesMs: 1_000,
  tickerMs: 2_000,
  bookMs: 1_000,
  quotesMs: 1_000,
  balancesMs: 2_000,
  ordersMs: 1_000,
  fillsMs: 1_000,
  quoteExecutionsMs: 1_000,
};

/** How a stream asks: operation id (for the budget), priority, interval and the call itself. */
export interface StreamRequest {
  readonly operation: string;
  readonly priority: Priority;
  readonly intervalMs: number;
  send(signal: AbortSignal): Promise<unknown>;
}

export interface RequestDeps {
  readonly api: MarketDataApi;
  readonly profileId: string | undefined;
  readonly intervals: PollIntervals;
  /** Start of the fills window (epoch ms); moves forward with the newest fill seen. */
  readonly fillsSince: () => number;
}

/** Open orders and pending quote executions fetched per poll (one page; bots keep far fewer). */
const ACCOUNT_PAGE = 500;

/**
 * The request behind each planned stream. Market data goes at `low` priority, account reads at
 * `normal`, and quote executions at `high` with the orders (they settle trades the bot made).
 */
export function requestFor(stream: PlannedStream, d: RequestDeps): StreamRequest {
  const { api, intervals: iv } = d;
  const market = stream.markets[0] ?? '';
  const profile = (): string => {
    invariant(d.profileId !== undefined, `${stream.name} is planned only with a profile id`);
    return d.profileId;
  };
  switch (stream.id.kind) {
    case 'ticker':
      return {
        operation: 'GetTicker',
        priority: 'low',
        intervalMs: iv.tickerMs,
        send: (signal) => api.getTicker(market, { signal, priority: 'low' }),
      };
    case 'book':
      return {
        operation: 'GetOrderBook',
        priority: 'low',
        intervalMs: iv.bookMs,
        send: (signal) => api.getOrderBook(market, { signal, priority: 'low' }),
      };
    case 'prices':
      return {
        operation: 'ListPrices',
        priority: 'low',
        intervalMs: iv.pricesMs,
        send: (signal) => api.listPrices(stream.markets, { signal, priority: 'low' }),
      };
    case 'quotes':
      return {
        operation: 'ListQuotes',
        priority: 'low',
        intervalMs: iv.quotesMs,
        send: (signal) => api.listQuotes(stream.markets, { signal, priority: 'low' }),
      };
    case 'balances':
      return {
        operation: 'ListProfileBalances',
        priority: 'normal',
        intervalMs: iv.balancesMs,
        send: (signal) => api.listProfileBalances(profile(), undefined, { signal, priority: 'normal' }),
      };
    case 'open-orders':
      return {
        operation: 'ListProfileOrders',
        priority: 'normal',
        intervalMs: iv.ordersMs,
        send: (signal) => api.listProfileOrders(profile(), { status: 'OPEN', limit: ACCOUNT_PAGE }, { signal, priority: 'normal' }),
      };
    case 'fills':
      return {
        operation: 'ListProfileExecutions',
        priority: 'normal',
        intervalMs: iv.fillsMs,
        send: (signal) =>
          api.listProfileExecutions(
            profile(),
            { 'range.begin': new Date(d.fillsSince()).toISOString(), limit: ACCOUNT_PAGE },
            { signal, priority: 'normal' },
          ),
      };
    case 'quote-executions':
      return {
        operation: 'ListQuoteExecutions',
        priority: 'high',
        intervalMs: iv.quoteExecutionsMs,
        send: (signal) => api.listQuoteExecutions(profile(), { status: 'CREATED', limit: ACCOUNT_PAGE }, { signal, priority: 'high' }),
      };
    case 'trades': {
      const list = api.listRecentExecutions;
      invariant(
        list !== undefined && iv.tradesMs !== undefined,
        'trades is planned only with streams.trades_ms and a client that lists recent executions',
      );
      return {
        operation: 'ListRecentExecutions',
        priority: 'low',
        intervalMs: iv.tradesMs,
        send: (signal) => list(market, { signal, priority: 'low' }),
      };
    }
    case 'history':
      return invariantFailed('history is loaded by warmUp, never polled');
  }
}

function invariantFailed(message: string): never {
  invariant(false, message);
}
