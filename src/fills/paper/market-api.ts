import type { ApiClient } from '../../api/index.js';
import type { MarketSymbol } from '../../core/index.js';
import type { MarketDataApi } from '../../venue/polling/index.js';

/**
 * The scopes paper mode on real data asks for: quotes, historical prices (warm-up) and the profile
 * (the journal is bound to it). Order books, tickers and prices need none. No write scope: a paper
 * run's credential should not be able to trade.
 */
export const PAPER_READ_SCOPES: readonly string[] = ['exchange:read_quote', 'exchange:historical_prices', 'funding:read_profile'];

/** The platform reads paper mode on real data makes: market data and quotes, nothing of the account. */
export type PaperMarketReads = Pick<ApiClient, 'listPrices' | 'getTicker' | 'getOrderBook' | 'listQuotes' | 'listHistoricalPrices'> &
  Partial<Pick<ApiClient, 'listRecentExecutions'>>;

export interface PaperReadWatchers {
  /** Told when ListQuotes starts failing (with the error) and when it answers again (undefined). */
  readonly onQuotes?: (error: unknown) => void;
  /** Given each ListRecentExecutions answer (`streams.trades_ms`): the paper venue fills resting limits on the trades. */
  readonly onTrades?: (market: MarketSymbol, body: unknown) => void;
}

/**
 * The only door from a paper run to the platform: an object holding the market-data reads of
 * `api` and nothing else (no write method is reachable through it, whatever the caller casts it to).
 * The account reads a polling source could make answer with an error: paper mode's account is the
 * paper venue's. `onQuotes` hears when quotes stop (and start again) being readable, so the run can
 * say so in words: quotes need an authenticated client, and a credential may lack their scope.
 * `onTrades` sees the public trades a `streams.trades_ms` stream reads (the recent-executions read is
 * there only when the client has it).
 */
export function paperMarketReads(api: PaperMarketReads, watch: PaperReadWatchers = {}): MarketDataApi {
  const { onQuotes, onTrades } = watch;
  const trades = api.listRecentExecutions;
  let failing = false;
  const noAccount = (what: string) => async (): Promise<never> => {
    throw new Error(`paper mode on real data reads no account (${what}): the paper venue keeps the account`);
  };
  return Object.freeze({
    listPrices: (...a: Parameters<ApiClient['listPrices']>) => api.listPrices(...a),
    getTicker: (...a: Parameters<ApiClient['getTicker']>) => api.getTicker(...a),
    getOrderBook: (...a: Parameters<ApiClient['getOrderBook']>) => api.getOrderBook(...a),
    listHistoricalPrices: (...a: Parameters<ApiClient['listHistoricalPrices']>) => api.listHistoricalPrices(...a),
    listQuotes: async (...a: Parameters<ApiClient['listQuotes']>) => {
      try {
        const quotes = await api.listQuotes(...a);
        if (failing) onQuotes?.(undefined);
        failing = false;
        return quotes;
      } catch (e) {
        // a poll stopped with the run is not a failure to read
        if (e instanceof Error && e.name === 'AbortError') throw e;
        if (!failing) onQuotes?.(e);
        failing = true;
        throw e;
      }
    },
    ...(trades && {
      listRecentExecutions: async (...a: Parameters<ApiClient['listRecentExecutions']>) => {
        const body = await trades(...a);
        onTrades?.(a[0], body);
        return body;
      },
    }),
    listProfileBalances: noAccount('balances'),
    listProfileOrders: noAccount('orders'),
    listProfileExecutions: noAccount('fills'),
    listQuoteExecutions: noAccount('quote executions'),
  });
}
