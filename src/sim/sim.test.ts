import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/test-clock.js';
import { D } from '../core/decimal.js';
import { SimError } from './errors.js';
import { FractalPriceModel } from './market/price-model.js';
import { type PriceSeriesLike } from './prices/price-data.js';
import { SimPlatform } from './sim.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

/** BTCUSD at 60000 for a minute, then 59000 (a step down the test can rely on). */
function stepSeries(): PriceSeriesLike {
  return {
    source: 'memory',
    length: 4,
    times: new Float64Array([0, 60_000, 61_000, 3_600_000]),
    prices: new Float64Array([60_000, 60_000, 59_000, 59_000]),
  };
}

function newSim(clock = new TestClock(T0)): { sim: SimPlatform; clock: TestClock } {
  const sim = new SimPlatform({ clock, seed: 7, funding: { USD: '1000000' }, replay: { BTCUSD: { series: stepSeries() } } });
  return { sim, clock };
}

describe('SimPlatform', () => {
  it('moves balances atomically when a market buy fills, charging taker commission in USD', () => {
    const { sim } = newSim();
    const order = sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'MARKET', quoteAmount: '1000', refId: 'm1' });
    expect(order.status).toBe('FILLED');
    const fills = sim.executions().filter((e) => e.orderId === order.id);
    const gross = fills.reduce((s, e) => s.plus(e.gross), new D(0));
    const commission = fills.reduce((s, e) => s.plus(e.commission), new D(0));
    expect(commission.toFixed()).toBe(gross.times('0.001').toFixed());
    const btc = sim.accounts.balance('default', 'BTC');
    const usd = sim.accounts.balance('default', 'USD');
    expect(btc.available.toFixed()).toBe(order.amountFilled.toFixed());
    expect(usd.trading.toFixed()).toBe('0');
    expect(usd.available.toFixed()).toBe(new D(1_000_000).minus(gross).minus(commission).toFixed());
    expect(gross.plus(commission).lte(1000)).toBe(true);
  });

  it('rests a limit buy below the market and fills it as maker when the price steps down through it', () => {
    const { sim, clock } = newSim();
    const order = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '59500',
      baseAmount: '0.01',
    });
    expect(order.status).toBe('OPEN');
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('595.595');
    clock.advance(120_000);
    sim.now();
    expect(order.status).toBe('FILLED');
    expect(sim.executions().at(-1)?.liquidity).toBe('MAKER');
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
    expect(sim.accounts.balance('default', 'BTC').available.toFixed()).toBe('0.01');
  });

  it('rejects a post-only order that would take and a taker limit order beyond the 15 % band', () => {
    const { sim } = newSim();
    const postOnly = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'POST_ONLY_LIMIT',
      price: '61000',
      baseAmount: '0.01',
    });
    expect(postOnly.status).toBe('REJECTED');
    const band = sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '70000', baseAmount: '0.01' });
    expect(band.status).toBe('REJECTED');
    expect(sim.accounts.balance('default', 'USD').available.toFixed()).toBe('1000000');
  });

  it('refuses orders above the notional cap and orders it cannot fund', () => {
    const { sim } = newSim();
    const cap = (): unknown =>
      sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '50000', baseAmount: '31' });
    expect(cap).toThrow(expect.objectContaining({ kind: 'notional-value-too-large' }) as unknown as Error);
    const funds = (): unknown =>
      sim.placeOrder({ profileId: 'default', side: 'SELL', market: 'BTCUSD', type: 'LIMIT', price: '65000', baseAmount: '1' });
    expect(funds).toThrow(SimError);
  });

  it('acknowledges a cancel and applies it after the cancel delay', () => {
    const clock = new TestClock(T0);
    const sim = new SimPlatform({ clock, seed: 7, funding: { USD: '100000' }, rules: { cancelDelayMs: 500 } });
    const order = sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'ETHUSD', type: 'LIMIT', price: '1000', baseAmount: '1' });
    sim.cancelOrder('default', order.id);
    expect(order.status).toBe('OPEN');
    clock.advance(499);
    sim.now();
    expect(order.status).toBe('OPEN');
    clock.advance(1);
    sim.now();
    expect(order.status).toBe('CANCELLED');
    expect(sim.accounts.balance('default', 'USD').available.toFixed()).toBe('100000');
    expect(() => sim.cancelOrder('default', order.id)).toThrow(expect.objectContaining({ kind: 'forbidden' }) as unknown as Error);
  });

  it('is deterministic for a seed and different across seeds', () => {
    const a = new SimPlatform({ clock: new TestClock(T0), seed: 1 });
    const b = new SimPlatform({ clock: new TestClock(T0), seed: 1 });
    const c = new SimPlatform({ clock: new TestClock(T0), seed: 2 });
    expect(a.orderBook('ETHUSD')).toEqual(b.orderBook('ETHUSD'));
    expect(a.recentExecutions('ETHUSD').slice(0, 5)).toEqual(b.recentExecutions('ETHUSD').slice(0, 5));
    expect(a.mid('ETHUSD')).not.toBe(c.mid('ETHUSD'));
  });

  it('serves history from before it started, paged without generating skipped points', () => {
    const { sim } = newSim();
    const page = sim.historicalPrices('ETHUSD', { increment: 'ONE_HOUR', beginMs: T0 - 48 * 3_600_000, endMs: T0, offset: 10, limit: 5 });
    expect(page.totalCount).toBe(48);
    expect(page.items.map((p) => p.timestamp)).toEqual([10, 11, 12, 13, 14].map((i) => T0 - 48 * 3_600_000 + i * 3_600_000));
    const auto = sim.historicalPrices('ETHUSD', { maxDataPoints: 30, beginMs: T0 - 86_400_000, endMs: T0, offset: 0, limit: 100 });
    expect(auto.increment).toBe('ONE_HOUR');
    expect(auto.totalCount).toBe(24);
  });
});

describe('FractalPriceModel', () => {
  it('has daily volatility close to its annual target', () => {
    const model = new FractalPriceModel(3, 'BTC', 60_000, 0.6);
    const n = 1500;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const t = T0 - i * 86_400_000 * 1.3;
      const r = Math.log(model.priceAt(t + 86_400_000) / model.priceAt(t));
      s += r;
      s2 += r * r;
    }
    const annual = Math.sqrt(s2 / n - (s / n) ** 2) * Math.sqrt(365.25);
    expect(annual).toBeGreaterThan(0.45);
    expect(annual).toBeLessThan(0.75);
  });
});
