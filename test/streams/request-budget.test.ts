import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { SimPlatform } from '../../src/sim/sim.js';
import { LIVE_BUDGET } from '../../src/live/live-bundle.js';
import { PollingMarketSource, RequestBudget } from '../../src/venue/index.js';
import { simMarketDataApi } from '../support/streams-sim-api.js';

const T0 = Date.UTC(2025, 5, 2, 9, 0, 0);

describe('RequestBudget', () => {
  it('serves waiters by priority, then arrival, and low/normal leave their reserve for orders', async () => {
    const clock = new TestClock(0);
    const budget = new RequestBudget({ clock, ratePerSec: 10, burst: 2 });
    await budget.acquire('low', 'GetTicker');
    await budget.acquire('low', 'GetTicker');
    const served: Array<[string, number]> = [];
    const wait = (name: string, p: 'high' | 'normal' | 'low'): void =>
      void budget.acquire(p, name).then(() => served.push([name, clock.now()]));
    wait('low-a', 'low');
    wait('low-b', 'low');
    wait('normal-c', 'normal');
    wait('high-d', 'high');
    await clock.advanceAsync(1_000, 10);
    expect(served).toEqual([
      ['high-d', 100],
      ['normal-c', 300],
      ['low-a', 300],
      ['low-b', 400],
    ]);
  });

  it("a live run's budget lets the first price poll go at once after the start's 25 reads, then keeps 20/s", async () => {
    const clock = new TestClock(0);
    const budget = new RequestBudget({ clock, ...LIVE_BUDGET });
    for (let i = 0; i < 25; i++) budget.observe({ operation: 'ListOrders', attempt: 1 });
    let pricedAt: number | undefined;
    void budget.acquire('low', 'ListPrices').then(() => (pricedAt = clock.now()));
    await clock.advanceAsync(0, 1);
    expect(pricedAt).toBe(0);
    // sustained: 200 more low-priority polls take about 200 / 20 s once the burst is spent
    let last = 0;
    for (let i = 0; i < 200; i++) void budget.acquire('low', 'ListPrices').then(() => (last = clock.now()));
    await clock.advanceAsync(20_000, 50);
    expect(last).toBeGreaterThan(8_000);
    expect(last).toBeLessThan(12_000);
  });

  it('charges requests it did not grant (orders, retries) and excuses the first attempt of a granted one', async () => {
    const clock = new TestClock(0);
    const budget = new RequestBudget({ clock, ratePerSec: 5 });
    await budget.acquire('low', 'GetTicker');
    budget.observe({ operation: 'GetTicker', attempt: 1 });
    expect(budget.spent()).toBe(1);
    budget.observe({ operation: 'GetTicker', attempt: 2 });
    budget.observe({ operation: 'CreateOrder', attempt: 1 });
    expect(budget.spent()).toBe(3);
  });

  it('makes market data wait while orders spend the budget (the balance may go negative)', async () => {
    const clock = new TestClock(0);
    const budget = new RequestBudget({ clock, ratePerSec: 10, burst: 4, reserve: { low: 0, normal: 0 } });
    for (let i = 0; i < 10; i++) budget.charge();
    let servedAt: number | undefined;
    void budget.acquire('low', 'GetTicker').then(() => (servedAt = clock.now()));
    await clock.advanceAsync(2_000, 10);
    expect(servedAt).toBe(700);
  });

  it('rejects settings that cannot work, naming them', () => {
    expect(() => new RequestBudget({ clock: new TestClock(0), ratePerSec: 0 })).toThrow(/ratePerSec/);
  });
});

describe('one budget shared by every stream of a source', () => {
  const MARKETS = ['BTCUSD', 'ETHUSD', 'LTCUSD', 'BCHUSD', 'LINKUSD', 'AAVEUSD', 'UNIUSD', 'PAXGUSD'];

  async function saturated(ordersPerSec: number): Promise<{ calls: Map<string, number>; spent: number; seconds: number }> {
    const clock = new TestClock(T0);
    const sim = new SimPlatform({ clock, seed: 3, funding: { USD: '1000' } });
    const calls = new Map<string, number>();
    const api = simMarketDataApi(sim, { onCall: (op) => calls.set(op, (calls.get(op) ?? 0) + 1) });
    const budget = new RequestBudget({ clock, ratePerSec: 20, burst: 20 });
    const source = new PollingMarketSource({
      api,
      clock,
      budget,
      profileId: sim.profiles.defaultId,
      intervals: {
        tickerMs: 100,
        bookMs: 100,
        pricesMs: 100,
        quotesMs: 1_000,
        balancesMs: 1_000,
        ordersMs: 1_000,
        fillsMs: 1_000,
        quoteExecutionsMs: 1_000,
      },
    });
    source.start(MARKETS.map((market) => ({ market, kinds: new Set(['ticker', 'book', 'price'] as const) })));
    const seconds = 30;
    for (let ms = 0; ms < seconds * 1_000; ms += 50) {
      if (ordersPerSec > 0 && ms % (1_000 / ordersPerSec) === 0) budget.observe({ operation: 'CreateOrder', attempt: 1 });
      await clock.advanceAsync(50, 50);
    }
    await source.stop();
    return { calls, spent: budget.spent(), seconds };
  }

  it('keeps the sum of every stream under the budget while each stream still gets its turn', async () => {
    const { calls, spent, seconds } = await saturated(0);
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(20 * seconds + 20);
    expect(total).toBeGreaterThan(20 * seconds * 0.9);
    expect(spent).toBe(total);
    const perTickerStream = (calls.get('GetTicker') ?? 0) / MARKETS.length;
    expect(perTickerStream).toBeGreaterThan(20);
    expect(calls.get('ListPrices')).toBeGreaterThan(20);
  });

  it('gives quote executions (high) and account reads (normal) their full cadence while market data is throttled', async () => {
    const { calls, seconds } = await saturated(0);
    expect(calls.get('ListQuoteExecutions')).toBeGreaterThanOrEqual(seconds);
    expect(calls.get('ListProfileBalances')).toBeGreaterThanOrEqual(seconds);
    expect(calls.get('GetTicker')! / MARKETS.length).toBeLessThan(seconds * 10 * 0.2);
  });

  it('takes orders out of the same budget: market data polls less while orders flow', async () => {
    const quiet = await saturated(0);
    const busy = await saturated(5);
    const md = (c: Map<string, number>): number => (c.get('GetTicker') ?? 0) + (c.get('GetOrderBook') ?? 0) + (c.get('ListPrices') ?? 0);
    expect(md(busy.calls)).toBeLessThan(md(quiet.calls) - 100);
    expect(busy.spent).toBeLessThanOrEqual(20 * busy.seconds + 20);
    expect(busy.calls.get('ListQuoteExecutions')).toBeGreaterThanOrEqual(busy.seconds);
  });
});
