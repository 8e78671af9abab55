import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import type { MarketEvent } from '../../src/core/index.js';
import { MarketStore, quoteTimeLeftMs } from '../../src/state/index.js';
import { PollingMarketSource, type MarketSubscription, type PollingMarketSourceOptions } from '../../src/venue/index.js';
import { FakePlatform, problem, type Reply } from '../support/fake-platform.js';
import { loggedClient, quiet, settle, stepClock, turns, until, type LoggedClient } from '../support/streams-harness.js';

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();
const sub = (market: string, ...kinds: Array<'price' | 'ticker' | 'book' | 'quote'>): MarketSubscription => ({
  market,
  kinds: new Set(kinds),
});

function tickerReply(clock: TestClock, price = 100): Reply {
  return {
    json: {
      market: 'BTCUSD',
      best_bid: { price: String(price - 1), amount: '1' },
      best_ask: { price: String(price + 1), amount: '2' },
      last_execution: { price: String(price), amount: '0.5' },
      today: { high: '110', low: '90', open: '95', volume: '12.5' },
      snapshot_at: iso(clock.now()),
    },
  };
}

interface Rig {
  readonly clock: TestClock;
  readonly fake: FakePlatform;
  readonly client: LoggedClient;
  readonly source: PollingMarketSource;
  readonly events: MarketEvent[];
  step(totalMs: number, stepMs?: number): Promise<void>;
}

let rig: Rig | undefined;

async function setUp(options: Partial<PollingMarketSourceOptions> = {}): Promise<Rig> {
  const clock = new TestClock(T0);
  const fake = await FakePlatform.start();
  const client = loggedClient(clock, {
    apiUrl: fake.baseUrl,
    tokenUrl: fake.tokenUrl,
    clientId: 'test-client',
    clientSecret: 'test-secret',
    localCredential: false,
  });
  const source = new PollingMarketSource({
    api: client.api,
    clock,
    intervals: { tickerMs: 1_000, quotesMs: 1_000 },
    backoff: { baseMs: 500, maxMs: 8_000 },
    ...options,
  });
  const events: MarketEvent[] = [];
  source.events$.subscribe((e) => events.push(e));
  const step = (totalMs: number, stepMs = 100): Promise<void> => stepClock(clock, totalMs, stepMs, quiet(source, client));
  rig = { clock, fake, client, source, events, step };
  return rig;
}

afterEach(async () => {
  if (!rig) return;
  await rig.source.stop();
  await rig.client.api.close();
  await rig.fake.close();
  rig = undefined;
});

describe('PollingMarketSource under slow and failing responses', () => {
  it('never overlaps polls of a stream: a slow response delays the next poll to the next slot after it', async () => {
    const { clock, fake, client, source, events } = await setUp();
    let release: (() => void) | undefined;
    let calls = 0;
    fake.on(
      'GET',
      '/markets/:market/ticker',
      () => {
        calls++;
        if (calls > 1) return tickerReply(clock);
        return new Promise<Reply>((resolve) => (release = () => resolve(tickerReply(clock))));
      },
      { public: true },
    );
    source.start([sub('BTCUSD', 'ticker')]);
    await until(() => release !== undefined, 'the first request');
    for (let i = 0; i < 55; i++) {
      clock.advance(100);
      await turns(2);
    }
    expect(calls).toBe(1);
    expect(source.pendingRequests()).toBe(1);
    release!();
    await until(() => events.length === 1, 'the slow response');
    expect(events[0]?.at).toBe(T0 + 5_500);
    await stepClock(clock, 2_000, 100, quiet(source, client));
    expect(client.times('GetTicker')).toEqual([T0, T0 + 6_000, T0 + 7_000]);
  });

  it('recovers from a 5xx, a 429 with Retry-After and a dropped connection, backing off on the clock without ending', async () => {
    const { clock, fake, client, source, events, step } = await setUp();
    const replies: Reply[] = [
      problem(500, 'Internal Server Error'),
      { ...problem(429, 'Too Many Requests'), headers: { 'content-type': 'application/problem+json', 'retry-after': '3' } },
      { destroy: true },
    ];
    fake.on('GET', '/markets/:market/ticker', () => replies.shift() ?? tickerReply(clock), { public: true });
    source.start([sub('BTCUSD', 'ticker')]);
    const health = () => source.health().find((h) => h.stream === 'ticker:BTCUSD')!;
    await settle(quiet(source, client));
    expect(health().consecutiveErrors).toBe(1);
    expect(health().lastError).toMatch(/^SERVER_ERROR/);
    await step(600, 50);
    expect(health().consecutiveErrors).toBe(2);
    expect(health().lastError).toMatch(/^RATE_LIMITED/);
    await step(2_800, 50);
    expect(health().consecutiveErrors).toBe(2);
    await step(200, 50);
    expect(health().consecutiveErrors).toBe(3);
    expect(health().lastError).toMatch(/TRANSPORT|TIMEOUT|ERROR/);
    await step(2_100, 50);
    expect(health().consecutiveErrors).toBe(0);
    expect(health().lastSuccessAt).toBeDefined();
    const times = client.times('GetTicker').map((t) => t - T0);
    expect(times.length).toBeGreaterThanOrEqual(4);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(250);
    expect(times[1]! - times[0]!).toBeLessThanOrEqual(500);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(3_000);
    expect(times[3]! - times[2]!).toBeGreaterThanOrEqual(1_000);
    expect(times[3]! - times[2]!).toBeLessThanOrEqual(2_000);
    const before = events.length;
    await step(3_000);
    expect(events.length).toBe(before + 3);
    expect(health().polls).toBe(client.count('GetTicker'));
    expect(health().consecutiveErrors).toBe(0);
  });

  it('counts a malformed body as an error of that stream and keeps polling', async () => {
    const { clock, fake, source, events, step } = await setUp();
    const replies: Reply[] = [{ json: [1, 2] }];
    fake.on('GET', '/markets/:market/ticker', () => replies.shift() ?? tickerReply(clock), { public: true });
    source.start([sub('BTCUSD', 'ticker')]);
    await step(100);
    expect(source.health()[0]?.consecutiveErrors).toBe(1);
    await step(2_000);
    expect(source.health()[0]?.consecutiveErrors).toBe(0);
    expect(events.length).toBeGreaterThan(0);
  });

  it('stop() aborts the poll in flight and resolves with nothing outstanding', async () => {
    const { fake, source } = await setUp();
    let arrived = false;
    fake.on(
      'GET',
      '/markets/:market/ticker',
      () => {
        arrived = true;
        return new Promise<Reply>(() => undefined);
      },
      { public: true },
    );
    source.start([sub('BTCUSD', 'ticker')]);
    await until(() => arrived, 'the request');
    await source.stop();
    expect(source.pendingRequests()).toBe(0);
    expect(source.streams()).toEqual([]);
  });
});

describe('the quote stream', () => {
  /** A server whose clock runs `skewMs` ahead, quoting 30-second quotes for the requested markets. */
  function quoteServer(r: Rig, skewMs: number): { fail: boolean; markets: string[][] } {
    const state = { fail: false, markets: [] as string[][] };
    let seq = 0;
    r.fake.on('GET', '/quotes', (req) => {
      if (state.fail) return problem(503, 'Service Unavailable');
      const markets = req.query.getAll('markets');
      state.markets.push(markets);
      const created = r.clock.now() + skewMs;
      const items = markets.flatMap((market) =>
        (['BUY', 'SELL'] as const).map((side) => ({
          id: `q-${++seq}`,
          market,
          side,
          price: side === 'BUY' ? '100.5' : '99.5',
          base_asset: market.slice(0, 3),
          quote_asset: 'USD',
          created_at: iso(created),
          expires_at: iso(created + 30_000),
        })),
      );
      return { json: { items } };
    });
    return state;
  }

  it('polls ListQuotes once per second for the subscribed markets and keeps the latest quote per side', async () => {
    const r = await setUp();
    const server = quoteServer(r, 0);
    const store = new MarketStore(r.clock);
    r.source.events$.subscribe((e) => store.apply(e));
    r.source.start([sub('BTCUSD', 'quote'), sub('ETHUSD', 'quote', 'ticker')]);
    r.fake.on('GET', '/markets/:market/ticker', () => tickerReply(r.clock), { public: true });
    await r.step(3_000);
    expect(r.client.times('ListQuotes')).toEqual([T0, T0 + 1_000, T0 + 2_000, T0 + 3_000]);
    expect(server.markets[0]).toEqual(['BTCUSD', 'ETHUSD']);
    const s = store.snapshot('ETHUSD');
    expect(s.quotes.BUY?.value.price).toBe('100.5');
    expect(s.quotes.SELL?.at).toBe(T0 + 3_000);
    expect(quoteTimeLeftMs(s.quotes.BUY, r.clock.now())).toBe(30_000);
  });

  it('expires a quote on the local clock even when the server clock runs ahead, and the store shows it expired once polls fail', async () => {
    const r = await setUp();
    const server = quoteServer(r, 10_000);
    const store = new MarketStore(r.clock);
    r.source.events$.subscribe((e) => store.apply(e));
    r.source.start([sub('BTCUSD', 'quote')]);
    await r.step(1_000);
    const buy = store.snapshot('BTCUSD').quotes.BUY;
    expect(buy?.value.expiresAt).toBe(T0 + 1_000 + 30_000);
    server.fail = true;
    await r.step(29_000, 500);
    expect(quoteTimeLeftMs(store.snapshot('BTCUSD').quotes.BUY, r.clock.now())).toBe(1_000);
    await r.step(1_000, 500);
    expect(quoteTimeLeftMs(store.snapshot('BTCUSD').quotes.BUY, r.clock.now())).toBeLessThanOrEqual(0);
    expect(r.source.health()[0]?.consecutiveErrors).toBeGreaterThan(0);
    expect(r.source.health()[0]?.lastSuccessAt).toBe(T0 + 1_000);
  });
});
