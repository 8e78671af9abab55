import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import type { MarketEvent } from '../../src/core/index.js';
import { MarketStore } from '../../src/state/index.js';
import { PollingMarketSource } from '../../src/venue/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { loggedClient, quiet, settle, stepClock, type LoggedClient } from '../support/streams-harness.js';

const T0 = Date.UTC(2025, 4, 1, 12, 0, 0);

let fake: FakePlatform | undefined;
let source: PollingMarketSource | undefined;
let client: LoggedClient | undefined;
afterEach(async () => {
  await source?.stop();
  await client?.api.close();
  await fake?.close();
  fake = source = client = undefined;
});

/**
 * The venue drops every connection for 10 s: the client's breaker opens after 3 failures, the poll
 * streams keep running without sending (their health says since when the venue is unreachable),
 * the market data only ages and goes stale, and within about a second of the venue's return the
 * breaker's probe finds it and every stream polls again.
 */
describe('poll streams while the venue is unreachable', () => {
  it('send one probe a second, report the outage in health(), let prices go stale, and resume', async () => {
    const clock = new TestClock(T0);
    fake = await FakePlatform.start();
    client = loggedClient(clock, { apiUrl: fake.baseUrl, tokenUrl: fake.tokenUrl, breakerFailures: 3 });
    let down = false;
    fake.on(
      'GET',
      '/markets/:market/ticker',
      (r) => {
        if (down) return { destroy: true };
        const mid = r.params.market === 'BTCUSD' ? 100 : 10;
        const level = (p: number) => ({ price: String(p), amount: '1' });
        return {
          json: {
            market: r.params.market,
            best_bid: level(mid - 1),
            best_ask: level(mid + 1),
            last_execution: level(mid),
            today: { high: '1', low: '1', open: '1', volume: '1' },
            snapshot_at: new Date(clock.now()).toISOString(),
          },
        };
      },
      { public: true },
    );
    const s = new PollingMarketSource({ api: client.api, clock, intervals: { tickerMs: 250 }, backoff: { baseMs: 500, maxMs: 30_000 } });
    source = s;
    const market = new MarketStore(clock, { staleAfterMs: 2_000 });
    const events: MarketEvent[] = [];
    s.events$.subscribe((e) => {
      events.push(e);
      market.apply(e);
    });
    const quietNow = quiet(s, client);
    const step = (ms: number): Promise<void> => stepClock(clock, ms, 50, quietNow);
    s.start(['BTCUSD', 'ETHUSD', 'LTCEUR'].map((m) => ({ market: m, kinds: new Set(['ticker'] as const) })));
    await settle(quietNow);
    await step(1_000);
    expect(market.isStale('BTCUSD')).toBe(false);

    down = true;
    const downAt = clock.now();
    await step(2_000);
    const sentAfterOpening = client.requests.length;
    const since = client.api.venueReachability().unreachableSince;
    expect(since).toBeGreaterThanOrEqual(downAt);
    await step(10_000);
    // one probe a second at most while open, from all three streams together
    expect(client.requests.length - sentAfterOpening).toBeLessThanOrEqual(10);
    expect(client.requests.length - sentAfterOpening).toBeGreaterThanOrEqual(8);
    expect(s.health().map((h) => h.unreachableSince)).toEqual([since, since, since]);
    expect(s.health().every((h) => h.lastError?.startsWith('VENUE_UNREACHABLE: GetTicker not sent: venue unreachable since'))).toBe(true);
    expect(market.isStale('BTCUSD')).toBe(true);

    down = false;
    const upAt = clock.now();
    const before = events.length;
    // a probe within a second, then every stream within the next second
    await step(2_000);
    expect(client.api.venueReachability().unreachableSince).toBeUndefined();
    expect(s.health().map((h) => h.unreachableSince)).toEqual([undefined, undefined, undefined]);
    expect(s.health().every((h) => (h.lastSuccessAt ?? 0) > upAt)).toBe(true);
    expect(events.length).toBeGreaterThan(before);
    expect(market.isStale('BTCUSD')).toBe(false);
  });
});
