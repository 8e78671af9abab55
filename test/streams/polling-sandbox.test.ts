import { afterEach, describe, expect, it } from 'vitest';
import { MarketStore, AccountStore, midOf, quoteTimeLeftMs } from '../../src/state/index.js';
import { PollingMarketSource, type MarketSubscription } from '../../src/venue/index.js';
import type { MarketEvent } from '../../src/core/index.js';
import type { AccountEvent } from '../../src/state/index.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { startTestSandbox, T0, DROP_AT, type TestSandbox } from '../support/sandbox-fixture.js';
import { loggedClient, stepClock, type LoggedClient } from '../support/streams-harness.js';

const subs = (market: string, ...kinds: Array<'price' | 'ticker' | 'book' | 'quote'>): MarketSubscription => ({
  market,
  kinds: new Set(kinds),
});

interface Rig {
  readonly sb: TestSandbox;
  readonly client: LoggedClient;
  readonly source: PollingMarketSource;
  readonly events: MarketEvent[];
  readonly account: AccountEvent[];
  step(totalMs: number, stepMs?: number): Promise<void>;
}

let rig: Rig | undefined;

async function setUp(withProfile = false, options: Partial<SandboxOptions> = {}): Promise<Rig> {
  const sb = await startTestSandbox(options);
  const client = loggedClient(sb.clock, { apiUrl: sb.handle.apiUrl, tokenUrl: sb.handle.tokenUrl });
  const source = new PollingMarketSource({
    api: client.api,
    clock: sb.clock,
    ...(withProfile ? { profileId: sb.handle.sim.profiles.defaultId } : {}),
    intervals: { tickerMs: 2_000, bookMs: 1_000, pricesMs: 1_000 },
  });
  const events: MarketEvent[] = [];
  const account: AccountEvent[] = [];
  source.events$.subscribe((e) => events.push(e));
  source.account$.subscribe((e) => account.push(e));
  const step = (totalMs: number, stepMs = 100): Promise<void> =>
    stepClock(sb.clock, totalMs, stepMs, () => source.pendingRequests() === 0 && client.outstanding() === 0);
  rig = { sb, client, source, events, account, step };
  return rig;
}

afterEach(async () => {
  if (!rig) return;
  await rig.source.stop();
  await rig.client.api.close();
  await rig.sb.close();
  rig = undefined;
});

describe('PollingMarketSource against the local sandbox', () => {
  it('polls each stream at its own cadence and only what is subscribed: prices of all markets in one call', async () => {
    const { source, client, step } = await setUp();
    source.start([subs('BTCUSD', 'price', 'ticker', 'book'), subs('ETHUSD', 'price')]);
    await step(10_000);
    expect(source.streams().sort()).toEqual(['book:BTCUSD', 'prices', 'ticker:BTCUSD']);
    const prices = client.requests.filter((r) => r.operation === 'ListPrices');
    expect(prices).toHaveLength(11);
    expect(prices[0]?.query).toBe('markets=BTCUSD&markets=ETHUSD');
    expect(client.times('GetOrderBook')).toEqual(Array.from({ length: 11 }, (_, i) => T0 + i * 1_000));
    expect(client.times('GetTicker')).toEqual(Array.from({ length: 6 }, (_, i) => T0 + i * 2_000));
    expect(client.count('GetTicker', '/markets/ETHUSD/ticker')).toBe(0);
    expect(client.count('GetOrderBook', '/markets/ETHUSD/order-book')).toBe(0);
  });

  it('stamps events with the local receive time and keeps snapshot_at beside it; the store builds snapshots from them', async () => {
    const { sb, source, events, step } = await setUp();
    const store = new MarketStore(sb.clock);
    source.events$.subscribe((e) => store.apply(e));
    source.start([subs('BTCUSD', 'price', 'ticker', 'book')]);
    await step(3_000);
    const ticker = events.find((e) => e.kind === 'ticker');
    expect(ticker?.at).toBe(T0);
    expect(ticker?.kind === 'ticker' && ticker.serverAt).toBe(T0);
    const s = store.snapshot('BTCUSD');
    expect(s.price?.value).toBe(60_000);
    expect(s.bestBid?.value.price).toBeLessThan(s.bestAsk?.value.price ?? 0);
    expect(midOf(s)).toBeGreaterThan(59_000);
    expect(s.book?.value.bids.length).toBeGreaterThan(0);
    expect(s.book?.value.bids.length).toBeLessThanOrEqual(50);
    expect(s.price?.at).toBe(T0 + 3_000);
  });

  it('follows a price move: the store sees the step down within one poll interval', async () => {
    const { sb, source, step } = await setUp();
    const store = new MarketStore(sb.clock);
    source.events$.subscribe((e) => store.apply(e));
    source.start([subs('BTCUSD', 'price')]);
    await step(DROP_AT - T0 + 1_000, 500);
    expect(store.snapshot('BTCUSD').price?.value).toBe(59_000);
    expect(store.snapshot('BTCUSD').price?.at).toBe(DROP_AT + 1_000);
  });

  it('polls balances, open orders, fills and quote executions of the profile; balances stay Decimal', async () => {
    const { sb, source, account, step } = await setUp(true);
    const accounts = new AccountStore(sb.clock);
    source.account$.subscribe((e) => accounts.apply(e));
    const fills: string[] = [];
    source.fills$.subscribe((list) => fills.push(...list.map((f) => f.fillId)));
    source.start([]);
    await step(2_000);
    expect(source.streams().sort()).toEqual(['balances', 'fills', 'open-orders', 'quote-executions']);
    expect(accounts.available('USD').toFixed()).toBe('2000000');
    const profileId = sb.handle.sim.profiles.defaultId;
    const order = sb.handle.sim.placeOrder({
      profileId,
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '59500',
      baseAmount: '1',
      refId: 'stream-test-1',
    });
    await step(2_000);
    const open = accounts.snapshot.openOrders?.value ?? [];
    expect(open.map((o) => o.orderId)).toEqual([order.id]);
    expect(open[0]?.price?.toFixed()).toBe('59500');
    expect(accounts.snapshot.balances?.value.get('USD')?.trading.gt(0)).toBe(true);
    await step(DROP_AT - sb.clock.now() + 3_000, 500);
    expect(fills.length).toBeGreaterThan(0);
    expect(new Set(fills).size).toBe(fills.length);
    expect(accounts.snapshot.openOrders?.value).toEqual([]);
    expect(account.filter((e) => e.kind === 'balances').length).toBeGreaterThan(5);
    expect(account.some((e) => e.kind === 'quote-executions')).toBe(true);
    expect(source.health().every((h) => h.consecutiveErrors === 0 && h.polls > 0)).toBe(true);
  });

  it('warms up with recent one-minute prices per market, oldest first, stamped with their own times', async () => {
    const { sb, source } = await setUp();
    sb.clock.advance(3 * 3_600_000);
    const events = await source.warmUp(['BTCUSD', 'ETHUSD'], 50);
    expect(events).toHaveLength(100);
    const now = sb.clock.now();
    for (let i = 1; i < events.length; i++) expect(events[i]!.at).toBeGreaterThanOrEqual(events[i - 1]!.at);
    for (const m of ['BTCUSD', 'ETHUSD']) {
      const own = events.filter((e) => e.market === m);
      expect(own).toHaveLength(50);
      expect(own.every((e) => e.kind === 'price' && e.at <= now && e.at > now - 51 * 60_000)).toBe(true);
    }
    const store = new MarketStore(sb.clock);
    for (const e of events) store.apply(e);
    expect(store.history('BTCUSD').length).toBe(50);
    expect(store.heldEvents()).toBe(0);
  });

  it('marks data stale when the streams stop answering, and health says when they last succeeded', async () => {
    const { sb, source, step } = await setUp();
    const store = new MarketStore(sb.clock, { staleAfterMs: 5_000 });
    source.events$.subscribe((e) => store.apply(e));
    source.start([subs('BTCUSD', 'price')]);
    await step(2_000);
    expect(store.isStale('BTCUSD')).toBe(false);
    await source.stop();
    sb.clock.advance(5_001);
    expect(store.isStale('BTCUSD')).toBe(true);
  });

  it('polls held-rate quotes once per second, shows their time left, and follows a quote execution from pending to settled', async () => {
    const { sb, source, step } = await setUp(true, { sim: { quotes: { settleDelayMs: 5_000 } } });
    const store = new MarketStore(sb.clock);
    const accounts = new AccountStore(sb.clock);
    source.events$.subscribe((e) => store.apply(e));
    source.account$.subscribe((e) => accounts.apply(e));
    source.start([subs('BTCUSD', 'quote')]);
    await step(3_000);
    const buy = store.snapshot('BTCUSD').quotes.BUY;
    expect(buy?.at).toBe(T0 + 3_000);
    expect(Number(buy?.value.price)).toBeGreaterThan(60_000);
    expect(quoteTimeLeftMs(buy, sb.clock.now())).toBeGreaterThan(25_000);
    const x = sb.handle.sim.executeQuote({
      profileId: sb.handle.sim.profiles.defaultId,
      quoteId: buy!.value.quoteId,
      quoteAmount: '1000',
      refId: 'qx-1',
    });
    await step(1_000);
    expect(accounts.snapshot.pendingQuoteExecutions?.value.map((p) => p.executionId)).toEqual([x.id]);
    expect(accounts.snapshot.pendingQuoteExecutions?.value[0]?.quoteAmount.toFixed()).toBe('1000');
    await step(5_000);
    expect(accounts.snapshot.pendingQuoteExecutions?.value).toEqual([]);
    await source.stop();
    const last = store.snapshot('BTCUSD').quotes.BUY;
    sb.clock.advance(31_000);
    expect(quoteTimeLeftMs(last, sb.clock.now())).toBeLessThanOrEqual(0);
  });
});
