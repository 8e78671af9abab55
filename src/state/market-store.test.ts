import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import type { MarketEvent } from '../core/index.js';
import { MarketStore } from './market-store.js';
import { reduceMarket } from './reduce-market.js';
import { midOf, quoteTimeLeftMs, spreadOf } from './market-snapshot.js';
import { PriceHistory } from './price-history.js';

describe('MarketStore', () => {
  it('builds best bid/ask, mid and spread from a book with observation times', () => {
    const clock = new TestClock(1_000);
    const store = new MarketStore(clock);
    store.apply({
      kind: 'book',
      market: 'BTCUSD',
      at: 1_000,
      serverAt: 5_000,
      bids: [{ price: 100, amount: 1 }],
      asks: [{ price: 102, amount: 2 }],
    });
    const s = store.snapshot('BTCUSD');
    expect(s.bestBid?.value.price).toBe(100);
    expect(s.bestAsk?.at).toBe(1_000);
    expect(s.bestAsk?.serverAt).toBe(5_000);
    expect(midOf(s)).toBe(101);
    expect(spreadOf(s)).toBe(2);
  });

  it('makes a snapshot read after unobserved price points equal to reducing every event in turn', () => {
    const clock = new TestClock(10_000);
    const events: MarketEvent[] = [
      { kind: 'book', market: 'BTCUSD', at: 1_000, bids: [{ price: 99, amount: 1 }], asks: [{ price: 101, amount: 1 }] },
      { kind: 'price', market: 'BTCUSD', at: 3_000, price: 100, serverAt: 2_900 },
      { kind: 'price', market: 'BTCUSD', at: 2_000, price: 101 }, // late: the time stays the latest
      { kind: 'price', market: 'BTCUSD', at: 2_500, price: 102 },
    ];
    const store = new MarketStore(clock);
    let eager = store.snapshot('BTCUSD');
    for (const e of events) {
      store.apply(e);
      eager = reduceMarket(eager, e);
    }
    const read = store.snapshot('BTCUSD');
    expect(read).toEqual(eager);
    expect(read.updatedAt).toBe(3_000);
    expect(read.price).toEqual({ value: 102, at: 2_500 });
    // the same object until the next event, then a new one (snapshots stay immutable)
    expect(store.snapshot('BTCUSD')).toBe(read);
    store.apply({ kind: 'price', market: 'BTCUSD', at: 4_000, price: 103 });
    expect(read.price?.value).toBe(102);
    expect(store.snapshot('BTCUSD').price?.value).toBe(103);
    expect(store.history('BTCUSD').length).toBe(5); // the book's mid, then four prices
  });

  it('still emits every price snapshot to observers of a market or of all changes', () => {
    const store = new MarketStore(new TestClock(10_000));
    store.apply({ kind: 'price', market: 'BTCUSD', at: 1_000, price: 1 });
    const one: number[] = [];
    const all: number[] = [];
    store.select$('BTCUSD').subscribe((s) => one.push(s.price?.value ?? 0));
    store.changes$.subscribe((s) => all.push(s.price?.value ?? 0));
    store.apply({ kind: 'price', market: 'BTCUSD', at: 2_000, price: 2 });
    store.apply({ kind: 'price', market: 'BTCUSD', at: 3_000, price: 3 });
    expect(one).toEqual([1, 2, 3]);
    expect(all).toEqual([2, 3]);
  });

  it('never answers with data newer than the clock', () => {
    const clock = new TestClock(1_000);
    const store = new MarketStore(clock);
    store.apply({ kind: 'price', market: 'BTCUSD', at: 1_000, price: 10 });
    store.apply({ kind: 'price', market: 'BTCUSD', at: 2_000, price: 20 });
    expect(store.snapshot('BTCUSD').price?.value).toBe(10);
    expect(store.history('BTCUSD').length).toBe(1);
    expect(store.heldEvents()).toBe(1);
    clock.advanceTo(2_000);
    expect(store.snapshot('BTCUSD').price?.value).toBe(20);
    expect(store.history('BTCUSD').length).toBe(2);
  });

  it('holds at most maxHeldEvents future events, dropping (and counting) those furthest ahead', () => {
    const clock = new TestClock(0);
    const store = new MarketStore(clock, { maxHeldEvents: 3 });
    for (const at of [5_000, 1_000, 4_000, 2_000, 3_000]) store.apply({ kind: 'price', market: 'BTCUSD', at, price: at / 1_000 });
    expect(store.heldEvents()).toBe(3);
    expect(store.droppedEvents()).toBe(2);
    clock.advanceTo(10_000);
    // the three nearest (1, 2, 3 s) were kept and applied in time order
    expect(store.history('BTCUSD').length).toBe(3);
    expect(store.snapshot('BTCUSD').price?.value).toBe(3);
    expect(store.heldEvents()).toBe(0);
  });

  it('replaces snapshots immutably and emits them to subscribers', () => {
    const clock = new TestClock(0);
    const store = new MarketStore(clock);
    const seen: number[] = [];
    const sub = store.select$('ETHUSD').subscribe((s) => seen.push(s.price?.value ?? -1));
    const before = store.snapshot('ETHUSD');
    store.apply({ kind: 'price', market: 'ETHUSD', at: 0, price: 5 });
    expect(store.snapshot('ETHUSD')).not.toBe(before);
    expect(seen).toEqual([-1, 5]);
    sub.unsubscribe();
  });

  it('marks data older than the stale age as stale', () => {
    const clock = new TestClock(0);
    const store = new MarketStore(clock, { staleAfterMs: 1_000 });
    expect(store.isStale('BTCUSD')).toBe(true);
    store.apply({ kind: 'price', market: 'BTCUSD', at: 0, price: 1 });
    expect(store.isStale('BTCUSD')).toBe(false);
    clock.advance(1_001);
    expect(store.isStale('BTCUSD')).toBe(true);
  });

  it('reports quote time left and keeps the latest quote per side', () => {
    const clock = new TestClock(0);
    const store = new MarketStore(clock);
    store.apply({ kind: 'quote', market: 'BTCUSD', at: 0, quoteId: 'q1', side: 'BUY', price: '100.5', expiresAt: 30_000 });
    store.apply({ kind: 'quote', market: 'BTCUSD', at: 0, quoteId: 'q2', side: 'SELL', price: '99.5', expiresAt: 30_000 });
    clock.advance(25_000);
    const s = store.snapshot('BTCUSD');
    expect(s.quotes.BUY?.value.quoteId).toBe('q1');
    expect(quoteTimeLeftMs(s.quotes.SELL, clock.now())).toBe(5_000);
  });
});

describe('PriceHistory', () => {
  it('keeps only the newest capacity entries', () => {
    const h = new PriceHistory(3);
    for (let i = 1; i <= 5; i++) h.push(i, i * 10);
    expect(h.length).toBe(3);
    expect([h.priceAt(0), h.priceAt(1), h.priceAt(2)]).toEqual([30, 40, 50]);
    expect(h.last()).toBe(50);
    expect(h.countUpTo(4)).toBe(2);
    expect(() => h.priceAt(3)).toThrow(RangeError);
  });
});
