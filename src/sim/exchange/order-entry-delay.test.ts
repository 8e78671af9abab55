import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { InputError } from '../../core/errors.js';
import { type PriceSeriesLike } from '../prices/price-data.js';
import { SimPlatform } from '../sim.js';
import { parseSnapshot } from '../snapshot.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);
const flat: PriceSeriesLike = {
  source: 'flat',
  length: 2,
  times: new Float64Array([0, 7_200_000]),
  prices: new Float64Array([60_000, 60_000]),
};
const FUNDING = { USD: '1000000', BTC: '2' };

function newSim(submitDelayMs: number | undefined, extra: { cancelDelayMs?: number } = {}): { sim: SimPlatform; clock: TestClock } {
  const clock = new TestClock(T0);
  const rules = { ...(submitDelayMs !== undefined ? { submitDelayMs } : {}), ...extra };
  const sim = new SimPlatform({ clock, seed: 5, funding: FUNDING, replay: { BTCUSD: { series: flat } }, rules });
  return { sim, clock };
}

const restingBuy = { profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59000', baseAmount: '0.1' } as const;
const marketBuy = { profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'MARKET', quoteAmount: '6000' } as const;

function at(sim: SimPlatform, clock: TestClock, ms: number): void {
  clock.advanceTo(ms);
  sim.now();
}

describe('order-entry delay (rules.submitDelayMs)', () => {
  it('answers SUBMITTED with funds reserved, and enters the order at the first tick at or after createdAt + delay', () => {
    const { sim, clock } = newSim(2000);
    at(sim, clock, T0 + 500);
    const order = sim.placeOrder({ ...restingBuy, refId: 'r1' });
    expect(order.status).toBe('SUBMITTED');
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('5905.9');
    at(sim, clock, T0 + 2_999);
    expect(sim.getOrder('default', order.id).status).toBe('SUBMITTED');
    expect(sim.listOrdersNow({ profileId: 'default', status: 'SUBMITTED' }).map((o) => o.id)).toEqual([order.id]);
    expect(sim.listOrdersNow({ profileId: 'default', status: 'OPEN' })).toEqual([]);
    expect(sim.orderBook('BTCUSD').bids.some((l) => l.price === '59000.00')).toBe(false);
    at(sim, clock, T0 + 3_000);
    expect([order.status, order.modifiedAt]).toEqual(['OPEN', T0 + 3_000]);
    expect(sim.orderBook('BTCUSD').bids.some((l) => l.price.startsWith('59000'))).toBe(true);
  });

  it('fills a market order only once it is entered, at the book of its entry tick', () => {
    const { sim, clock } = newSim(1000);
    const order = sim.placeOrder(marketBuy);
    expect([order.status, order.amountFilled.toFixed()]).toEqual(['SUBMITTED', '0']);
    expect(sim.executions()).toEqual([]);
    at(sim, clock, T0 + 1_000);
    expect(order.status).toBe('FILLED');
    expect(sim.executions().map((e) => [e.orderId, e.executedAt, e.liquidity])).toEqual(
      sim.executions().map(() => [order.id, T0 + 1_000, 'TAKER']),
    );
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
  });

  it('puts a stop order OPEN and untriggered at entry, and rejects a crossing post-only order then, releasing its funds', () => {
    const { sim, clock } = newSim(1000);
    const stop = sim.placeOrder({
      profileId: 'default',
      side: 'SELL',
      market: 'BTCUSD',
      type: 'STOP_MARKET',
      baseAmount: '0.5',
      stopPrice: '50000',
    });
    const post = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'POST_ONLY_LIMIT',
      price: '60500',
      baseAmount: '0.1',
    });
    expect([stop.status, post.status]).toEqual(['SUBMITTED', 'SUBMITTED']);
    expect(sim.accounts.balance('default', 'BTC').trading.toFixed()).toBe('0.5');
    at(sim, clock, T0 + 1_000);
    expect([stop.status, stop.isTriggered]).toEqual(['OPEN', false]);
    expect([post.status, post.reason]).toEqual(['REJECTED', 'post-only order would take liquidity']);
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
  });

  it('cancels a SUBMITTED order without it ever matching, funds released', () => {
    const { sim, clock } = newSim(3000);
    const order = sim.placeOrder(marketBuy);
    at(sim, clock, T0 + 1_000);
    sim.cancelOrder('default', order.id);
    at(sim, clock, T0 + 10_000);
    expect([order.status, order.amountFilled.toFixed(), order.reason]).toEqual(['CANCELLED', '0', 'cancelled by request']);
    expect(sim.executions()).toEqual([]);
    expect(sim.accounts.balance('default', 'USD').available.toFixed()).toBe('1000000');
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
  });

  it('keeps an order SUBMITTED past its entry time while a slower cancel is pending, then cancels it unmatched', () => {
    const { sim, clock } = newSim(1000, { cancelDelayMs: 5000 });
    const order = sim.placeOrder(marketBuy);
    sim.cancelOrder('default', order.id);
    at(sim, clock, T0 + 4_000);
    expect(order.status).toBe('SUBMITTED');
    at(sim, clock, T0 + 5_000);
    expect([order.status, order.closedAt]).toEqual(['CANCELLED', T0 + 5_000]);
    expect(sim.executions()).toEqual([]);
  });

  it('keeps submitted orders across a snapshot and enters them after the restore', () => {
    const { sim, clock } = newSim(5000);
    const early = sim.placeOrder({ ...restingBuy, refId: 'early' });
    at(sim, clock, T0 + 2_000);
    const late = sim.placeOrder({ ...marketBuy, refId: 'late' });
    const text = JSON.stringify(sim.snapshot());
    const restored = new SimPlatform({
      clock,
      funding: { USD: '1' },
      rules: { submitDelayMs: 5000 },
      replay: { BTCUSD: { series: flat } },
      restore: parseSnapshot(text, 'state.json'),
    });
    expect([restored.getOrder('default', early.id).status, restored.getOrder('default', late.id).status]).toEqual([
      'SUBMITTED',
      'SUBMITTED',
    ]);
    expect(restored.accounts.balances('default')).toEqual(sim.accounts.balances('default'));
    expect(() => restored.placeOrder({ ...restingBuy, refId: 'early' })).toThrow(/already exists/);
    at(restored, clock, T0 + 5_000);
    expect([restored.getOrder('default', early.id).status, restored.getOrder('default', late.id).status]).toEqual(['OPEN', 'SUBMITTED']);
    at(restored, clock, T0 + 7_000);
    expect(restored.getOrder('default', late.id).status).toBe('FILLED');
  });

  it('enters orders whose entry time passed while the sim was down at its first tick after the restore', () => {
    const { sim, clock } = newSim(1000);
    const order = sim.placeOrder(restingBuy);
    const snap = parseSnapshot(JSON.stringify(sim.snapshot()), 'state.json');
    clock.advanceTo(T0 + 60_500);
    const restored = new SimPlatform({ clock, rules: { submitDelayMs: 1000 }, replay: { BTCUSD: { series: flat } }, restore: snap });
    expect(restored.getOrder('default', order.id).status).toBe('SUBMITTED');
    at(restored, clock, T0 + 61_000);
    expect(restored.getOrder('default', order.id)).toMatchObject({ status: 'OPEN', modifiedAt: T0 + 61_000 });
  });

  it('enters at its due tick even when a long idle stretch is caught up in one step', () => {
    const { sim, clock } = newSim(3000);
    const order = sim.placeOrder(restingBuy);
    at(sim, clock, T0 + 3_600_000);
    expect([order.status, order.modifiedAt]).toEqual(['OPEN', T0 + 3_000]);
  });

  it('cancels a GTT order whose expiry passed while it waited, and rejects one expiring within 10 s of placement', () => {
    const { sim, clock } = newSim(20_000);
    const gtt = (expiry: number): ReturnType<SimPlatform['placeOrder']> =>
      sim.placeOrder({ ...restingBuy, timeInForce: 'GTT', expirationDate: String(expiry) });
    const waited = gtt(T0 + 15_000);
    const soon = gtt(T0 + 8_000);
    const fine = gtt(T0 + 60_000);
    at(sim, clock, T0 + 20_000);
    expect([waited.status, waited.reason]).toEqual(['CANCELLED', 'GTT expired before the order was entered']);
    expect(soon.status).toBe('REJECTED');
    expect(fine.status).toBe('OPEN');
    at(sim, clock, T0 + 60_000);
    expect([fine.status, fine.reason]).toEqual(['CANCELLED', 'GTT expired']);
  });

  it('behaves exactly as without the rule when the delay is 0', () => {
    const run = (delay: number | undefined): unknown => {
      const { sim, clock } = newSim(delay);
      const a = sim.placeOrder(marketBuy);
      const b = sim.placeOrder(restingBuy);
      const c = sim.placeOrder({
        profileId: 'default',
        side: 'SELL',
        market: 'BTCUSD',
        type: 'STOP_LIMIT',
        baseAmount: '0.1',
        stopPrice: '50000',
        price: '49000',
      });
      expect([a.status, b.status, c.status]).toEqual(['FILLED', 'OPEN', 'OPEN']);
      at(sim, clock, T0 + 30_000);
      sim.cancelOrder('default', b.id);
      at(sim, clock, T0 + 31_000);
      return {
        orders: sim.orders().map((o) => ({ ...o })),
        executions: sim.executions(),
        balances: sim.accounts.balances('default'),
        snapshot: sim.snapshot(),
      };
    };
    expect(run(0)).toEqual(run(undefined));
  });

  it('refuses a delay that is not a whole number of milliseconds, naming the rule', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      expect(() => newSim(bad)).toThrow(InputError);
      expect(() => newSim(bad)).toThrow(/submitDelayMs: expected a whole number of milliseconds/);
    }
  });
});
