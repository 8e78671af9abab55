import type { CallOptions } from '../../src/api/index.js';
import { wireBalance, wireExecution, wireOrder, wirePrice, wireQuote, wireQuoteExecution, wireTicker } from '../../src/sandbox/wire.js';
import { TestClock } from '../../src/clock/test-clock.js';
import { SimPlatform } from '../../src/sim/sim.js';
import { isoTime } from '../../src/sim/time.js';
import type { MarketDataApi } from '../../src/venue/index.js';
import { T0 } from './sandbox-fixture.js';
import { turns } from './streams-harness.js';

export interface SimApiHooks {
  /** Called as each request is made (before the response exists). */
  readonly onCall?: (operation: string, priority: string | undefined) => void;
  /** Called just before each response is handed back (to time the path from there to a subscriber). */
  readonly onRespond?: (operation: string) => void;
}

/**
 * The market-data and account reads of the API client answered in-process from a SimPlatform with
 * the sandbox's wire shapes: no HTTP, so a soak or a budget test measures the streams, not sockets.
 * Each answer resolves on a later microtask, as a response would.
 */
export function simMarketDataApi(sim: SimPlatform, hooks: SimApiHooks = {}): MarketDataApi {
  const answer = <T>(operation: string, opts: CallOptions | undefined, make: () => unknown): Promise<T> => {
    hooks.onCall?.(operation, opts?.priority);
    return Promise.resolve().then(() => {
      const body = make();
      hooks.onRespond?.(operation);
      return body as T;
    });
  };
  const api = {
    listPrices: (markets: readonly string[], opts?: CallOptions) =>
      answer('ListPrices', opts, () => ({ items: markets.map((m) => wirePrice(sim.price(m))) })),
    getTicker: (market: string, opts?: CallOptions) => answer('GetTicker', opts, () => wireTicker(sim.ticker(market))),
    getOrderBook: (market: string, opts?: CallOptions) => answer('GetOrderBook', opts, () => ({ market, ...sim.orderBook(market) })),
    listQuotes: (markets: readonly string[], opts?: CallOptions) =>
      answer('ListQuotes', opts, () => ({ items: sim.listQuotes(markets).map(wireQuote) })),
    listProfileBalances: (profileId: string, _assets?: readonly string[], opts?: CallOptions) =>
      answer('ListProfileBalances', opts, () => ({ items: sim.accounts.balances(profileId).map(wireBalance) })),
    listProfileOrders: (profileId: string, query: { status?: string } = {}, opts?: CallOptions) =>
      answer('ListProfileOrders', opts, () => ({
        items: sim.listOrdersNow({ profileId, ...(query.status ? { status: query.status as 'OPEN' } : {}) }).map(wireOrder),
      })),
    listProfileExecutions: (profileId: string, query: { 'range.begin'?: string } = {}, opts?: CallOptions) =>
      answer('ListProfileExecutions', opts, () => {
        const begin = query['range.begin'];
        return { items: sim.listExecutionsNow({ profileId, ...(begin ? { beginMs: Date.parse(begin) } : {}) }).map(wireExecution) };
      }),
    listQuoteExecutions: (profileId: string, query: { status?: string } = {}, opts?: CallOptions) =>
      answer('ListQuoteExecutions', opts, () => ({
        items: sim
          .listQuoteExecutions({ profileId, ...(query.status ? { status: query.status as 'CREATED' } : {}) })
          .map(wireQuoteExecution),
      })),
    listHistoricalPrices: (
      market: string,
      query: { increment?: string; 'range.begin'?: string; 'pagination.offset'?: number; 'pagination.limit'?: number },
      opts?: CallOptions,
    ) =>
      answer('ListHistoricalPrices', opts, () => {
        const begin = query['range.begin'];
        const page = sim.historicalPrices(market, {
          increment: (query.increment ?? 'ONE_MINUTE') as 'ONE_MINUTE',
          ...(begin ? { beginMs: Date.parse(begin) } : {}),
          offset: query['pagination.offset'] ?? 0,
          limit: query['pagination.limit'] ?? 100,
        });
        return {
          total_count: page.totalCount,
          items: page.items.map((p) => ({ average_price: p.averagePrice, timestamp: isoTime(p.timestamp) })),
        };
      }),
  };
  return api as unknown as MarketDataApi;
}

/**
 * Request times per operation of a market source over the simulated platform, started with no
 * subscriptions (so only the account streams poll) from T0 of the sandbox tests, and run for `forMs`
 * of test time in 250 ms steps.
 */
export async function accountPollTimes(
  build: (api: MarketDataApi, clock: TestClock) => { start(subscriptions: readonly never[]): void; stop(): Promise<void> },
  forMs: number,
): Promise<Record<string, number[]>> {
  const clock = new TestClock(T0);
  const sim = new SimPlatform({ clock, seed: 1, funding: { USD: '1000' } });
  const times: Record<string, number[]> = {};
  const source = build(simMarketDataApi(sim, { onCall: (op) => (times[op] ??= []).push(clock.now()) }), clock);
  source.start([]);
  await turns();
  for (let t = 0; t < forMs; t += 250) {
    clock.advance(250);
    await turns();
  }
  await source.stop();
  return times;
}

/** The times a stream polled every `ms` from T0 (the start of `accountPollTimes`) through `untilMs` later. */
export const pollsEvery = (ms: number, untilMs: number): number[] =>
  Array.from({ length: Math.floor(untilMs / ms) + 1 }, (_, i) => T0 + i * ms);
