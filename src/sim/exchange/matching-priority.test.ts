import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { type PriceSeriesLike } from '../prices/price-data.js';
import { SimPlatform } from '../sim.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

/** BTCUSD flat at `from` for a minute, then at `to` within a second, flat afterwards. */
function step(from: number, to: number): PriceSeriesLike {
  return {
    source: 'memory',
    length: 4,
    times: new Float64Array([0, 60_000, 61_000, 3_600_000]),
    prices: new Float64Array([from, from, to, to]),
  };
}

function newSim(from: number, to: number): { sim: SimPlatform; clock: TestClock } {
  const clock = new TestClock(T0);
  const sim = new SimPlatform({ clock, seed: 7, funding: { USD: '5000000', BTC: '100' }, replay: { BTCUSD: { series: step(from, to) } } });
  return { sim, clock };
}

/**
 * Order ids in the order their fills happened, each id once: with strict price-time priority an
 * order's fills all come before the first fill of any order behind it (no interleaving).
 */
function fillSequence(sim: SimPlatform, ids: readonly string[]): string[] {
  const seq = sim
    .executions()
    .map((e) => e.orderId)
    .filter((id) => ids.includes(id));
  const runs = seq.filter((id, i) => i === 0 || seq[i - 1] !== id);
  return runs;
}

/** Advances one tick at a time until every order is closed, checking the priority invariant after each tick. */
function runUntilFilled(
  sim: SimPlatform,
  clock: TestClock,
  priority: readonly { id: string; status: string; amountFilled: { gt(n: number): boolean } }[],
): void {
  for (let tick = 0; tick < 300 && priority.some((o) => o.status !== 'FILLED'); tick++) {
    clock.advance(1000);
    sim.now();
    // Behind an order that is not yet filled, nothing has filled.
    const firstOpen = priority.findIndex((o) => o.status !== 'FILLED');
    if (firstOpen >= 0)
      for (const later of priority.slice(firstOpen + 1))
        expect(later.amountFilled.gt(0), `${later.id} filled before an order ahead of it`).toBe(false);
  }
  expect(priority.map((o) => o.status)).toEqual(priority.map(() => 'FILLED'));
}

describe('matching engine price-time priority (resting orders)', () => {
  it('bids: the better price fills first, then at one price the earlier order before the later one', () => {
    const { sim, clock } = newSim(60_000, 59_000);
    const place = (price: string) =>
      sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price, baseAmount: '8' });
    const early = place('59500');
    const late = place('59500');
    const worse = place('59400');
    const better = place('59600');
    for (const o of [early, late, worse, better]) expect(o.status).toBe('OPEN');
    runUntilFilled(sim, clock, [better, early, late, worse]);
    expect(fillSequence(sim, [early.id, late.id, worse.id, better.id])).toEqual([better.id, early.id, late.id, worse.id]);
    // Every fill of a resting order is a maker fill at its own price.
    for (const e of sim.executions()) {
      expect(e.liquidity).toBe('MAKER');
      expect(e.price.toFixed()).toBe([early, late, worse, better].find((o) => o.id === e.orderId)!.price!.toFixed());
    }
  });

  it('asks: the lower price fills first, then at one price the earlier order before the later one', () => {
    const { sim, clock } = newSim(60_000, 61_000);
    const place = (price: string) =>
      sim.placeOrder({ profileId: 'default', side: 'SELL', market: 'BTCUSD', type: 'LIMIT', price, baseAmount: '8' });
    const early = place('60500');
    const late = place('60500');
    const worse = place('60600');
    const better = place('60400');
    for (const o of [early, late, worse, better]) expect(o.status).toBe('OPEN');
    runUntilFilled(sim, clock, [better, early, late, worse]);
    expect(fillSequence(sim, [early.id, late.id, worse.id, better.id])).toEqual([better.id, early.id, late.id, worse.id]);
  });

  it('the book lists resting orders at one price as one level and keeps both ahead of a worse price', () => {
    const { sim } = newSim(60_000, 59_000);
    sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59500', baseAmount: '1.5' });
    sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59400', baseAmount: '3' });
    sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59500', baseAmount: '2.25' });
    const market = sim.market('BTCUSD');
    expect(market.bids.map((o) => [o.price!.toFixed(), o.baseAmount!.toFixed()])).toEqual([
      ['59500', '1.5'],
      ['59500', '2.25'],
      ['59400', '3'],
    ]);
    const levels = sim.orderBook('BTCUSD').bids;
    expect(levels.find((l) => l.price === '59500.00')?.amount).toBe('3.75000000');
  });
});
