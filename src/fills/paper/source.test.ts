/**
 * The paper source and the paper run's door to the platform: every book reaches the paper venue
 * before the engine sees it (an order decided on a book meets that book), books are polled for every
 * market but reach the engine only when asked for, the account reported is the paper venue's, and the
 * object the polling streams get holds market-data reads only.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../api/index.js';
import type { MarketEvent } from '../../core/index.js';
import type { AccountEvent } from '../../state/index.js';
import type { MarketSource, MarketSubscription } from '../../venue/market-source.js';
import { paperMarketReads, type PaperMarketReads } from './market-api.js';
import { PaperMarketSource } from './source.js';
import { PaperVenue } from './venue.js';
import type { VenueFill } from '../../venue/venue.js';

function fakeMarket(): MarketSource & { emit(e: MarketEvent): void; started: MarketSubscription[][] } {
  const events = new Subject<MarketEvent>();
  const started: MarketSubscription[][] = [];
  return {
    events$: events.asObservable(),
    account$: new Subject<AccountEvent>().asObservable(),
    warmUp: async () => [],
    start: (s) => void started.push([...s]),
    stop: async () => undefined,
    health: () => [],
    emit: (e) => events.next(e),
    started,
  };
}

const book = (at: number, ask: number) => ({
  kind: 'book' as const,
  market: 'BTCUSD',
  at,
  bids: [{ price: ask - 1, amount: 1 }],
  asks: [{ price: ask, amount: 1 }],
});

describe('PaperMarketSource', () => {
  it('shows each book to the paper venue before the engine, so an order decided on it fills at its price', async () => {
    let now = 1_000;
    const venue = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: () => now });
    const market = fakeMarket();
    const source = new PaperMarketSource({ market, venue, clock: { now: () => now } });
    const fills: VenueFill[] = [];
    source.fills$.subscribe((f) => fills.push(...f));
    const placed: Promise<unknown>[] = [];
    source.events$.subscribe((e) => {
      if (e.kind === 'book')
        placed.push(venue.placeOrder({ refId: `r${e.at}`, market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' }));
    });
    source.start([{ market: 'BTCUSD', kinds: new Set(['book']) }]);
    market.emit(book(1_000, 100));
    now = 2_000;
    market.emit(book(2_000, 200));
    await Promise.all(placed);
    expect(fills.map((f) => [f.orderId, f.price.toFixed(), f.amount.toFixed()])).toEqual([
      ['paper-1', '100', '0.1'],
      ['paper-2', '200', '0.05'],
    ]);
  });

  it('polls books for every market even when no strategy asked, and passes on only what was asked', async () => {
    const venue = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: () => 1 });
    const market = fakeMarket();
    const source = new PaperMarketSource({ market, venue, clock: { now: () => 1 } });
    const seen: string[] = [];
    source.events$.subscribe((e) => seen.push(e.kind));
    source.start([{ market: 'BTCUSD', kinds: new Set(['price']) }]);
    expect([...market.started[0]![0]!.kinds].sort()).toEqual(['book', 'price']);
    market.emit(book(1, 100));
    market.emit({ kind: 'price', market: 'BTCUSD', at: 1, price: 99.5 });
    expect(seen).toEqual(['price']);
    // the book still reached the venue: a market buy fills on it
    const o = await venue.placeOrder({ refId: 'r', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' });
    expect(o.status).toBe('FILLED');
  });

  it('reports the paper account (balances and open orders) at start and after every change', async () => {
    const venue = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: () => 1 });
    const source = new PaperMarketSource({ market: fakeMarket(), venue, clock: { now: () => 1 } });
    const events: AccountEvent[] = [];
    source.account$.subscribe((e) => events.push(e));
    source.start([{ market: 'BTCUSD', kinds: new Set(['price']) }]);
    await venue.placeOrder({ refId: 'r', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '50' });
    await venue.flush();
    const last = (kind: AccountEvent['kind']) => events.filter((e) => e.kind === kind).at(-1);
    expect((last('open-orders') as Extract<AccountEvent, { kind: 'open-orders' }>).orders.map((o) => o.refId)).toEqual(['r']);
    const usd = (last('balances') as Extract<AccountEvent, { kind: 'balances' }>).items.find((b) => b.asset === 'USD')!;
    expect([usd.available.toFixed(), usd.trading.toFixed()]).toEqual(['950', '50']);
  });
});

describe('paperMarketReads', () => {
  const reads = (listQuotes: PaperMarketReads['listQuotes']): PaperMarketReads =>
    ({
      listPrices: async () => ({ items: [] }),
      getTicker: async () => ({}),
      getOrderBook: async () => ({}),
      listHistoricalPrices: async () => ({ items: [] }),
      listQuotes,
    }) as unknown as PaperMarketReads;

  it('holds the market-data reads and nothing that writes, even given the whole client', async () => {
    const client = {
      ...reads(async () => ({ items: [] })),
      createOrder: async () => ({}),
      createQuoteExecution: async () => ({}),
      createTransfer: async () => ({}),
    } as unknown as ApiClient;
    const door = paperMarketReads(client);
    expect(Object.keys(door).sort()).toEqual([
      'getOrderBook',
      'getTicker',
      'listHistoricalPrices',
      'listPrices',
      'listProfileBalances',
      'listProfileExecutions',
      'listProfileOrders',
      'listQuoteExecutions',
      'listQuotes',
    ]);
    expect(Object.isFrozen(door)).toBe(true);
    await expect(door.listProfileBalances('default')).rejects.toThrow(/paper mode on real data reads no account/);
  });

  it('says once when quotes cannot be read, and once when they can again', async () => {
    let fail = true;
    const heard: unknown[] = [];
    const door = paperMarketReads(
      reads(async () => (fail ? Promise.reject(new Error('403 insufficient scope')) : { items: [] }) as never),
      { onQuotes: (e) => heard.push(e) },
    );
    await expect(door.listQuotes(['BTCUSD'])).rejects.toThrow('403');
    await expect(door.listQuotes(['BTCUSD'])).rejects.toThrow('403');
    fail = false;
    await door.listQuotes(['BTCUSD']);
    await door.listQuotes(['BTCUSD']);
    expect(heard.map((e) => (e instanceof Error ? e.message : e))).toEqual(['403 insufficient scope', undefined]);
  });

  it('hands each recent-trades answer to the paper run, and offers that read only when the client has it', async () => {
    const body = { items: [{ match_number: 'm1', price: '95', amount: '1', executed_at: '2026-01-01T00:00:00Z' }] };
    const seen: Array<[string, unknown]> = [];
    const withTrades = {
      ...reads(async () => ({ items: [] }) as never),
      listRecentExecutions: async () => body,
    } as unknown as PaperMarketReads;
    const door = paperMarketReads(withTrades, { onTrades: (market, b) => seen.push([market, b]) });
    expect(await door.listRecentExecutions!('BTCUSD')).toBe(body);
    expect(seen).toEqual([['BTCUSD', body]]);
    expect(paperMarketReads(reads(async () => ({ items: [] }) as never)).listRecentExecutions).toBeUndefined();
  });
});
