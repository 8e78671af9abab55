import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { D } from '../../core/decimal.js';
import { InvariantError } from '../../core/errors.js';
import { Ledger } from './ledger.js';
import { type PriceSeriesLike } from '../prices/price-data.js';
import { SimPlatform } from '../sim.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);
const step: PriceSeriesLike = {
  source: 'step',
  length: 4,
  times: new Float64Array([0, 60_000, 61_000, 3_600_000]),
  prices: new Float64Array([60_000, 60_000, 59_000, 59_000]),
};

function setup(): { sim: SimPlatform; clock: TestClock } {
  const clock = new TestClock(T0);
  const sim = new SimPlatform({ clock, seed: 5, funding: { USD: '1000000', BTC: '2' }, replay: { BTCUSD: { series: step } } });
  return { sim, clock };
}

describe('order lifecycle in the sim', () => {
  it('holds a stop-loss untriggered, then sells at market once the mid falls to its stop price', () => {
    const { sim, clock } = setup();
    const stop = sim.placeOrder({
      profileId: 'default',
      side: 'SELL',
      market: 'BTCUSD',
      type: 'STOP_MARKET',
      baseAmount: '0.5',
      stopPrice: '59500',
    });
    expect([stop.status, stop.isTriggered]).toEqual(['OPEN', false]);
    expect(sim.accounts.balance('default', 'BTC').trading.toFixed()).toBe('0.5');
    clock.advance(60_000);
    sim.now();
    expect(stop.isTriggered).toBe(false);
    clock.advance(2_000);
    sim.now();
    expect([stop.status, stop.isTriggered, stop.amountFilled.toFixed()]).toEqual(['FILLED', true, '0.5']);
    expect(sim.accounts.balance('default', 'BTC')).toEqual({ asset: 'BTC', available: new D('1.5'), trading: new D(0) });
  });

  it('turns a triggered stop-limit into a limit sell at its price', () => {
    const { sim, clock } = setup();
    const stop = sim.placeOrder({
      profileId: 'default',
      side: 'SELL',
      market: 'BTCUSD',
      type: 'STOP_LIMIT',
      baseAmount: '0.1',
      stopPrice: '59500',
      price: '58000',
    });
    clock.advance(62_000);
    sim.now();
    expect(stop.status).toBe('FILLED');
    expect(
      sim
        .executions()
        .filter((e) => e.orderId === stop.id)
        .every((e) => e.price.gte(58_000)),
    ).toBe(true);
  });

  it('expires GTT orders at their time and rejects ones expiring within 10 s', () => {
    const { sim, clock } = setup();
    const gtt = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'ETHUSD',
      type: 'LIMIT',
      price: '100',
      baseAmount: '1',
      timeInForce: 'GTT',
      expirationDate: String(T0 + 30_000),
    });
    expect(gtt.status).toBe('OPEN');
    clock.advance(30_000);
    sim.now();
    expect([gtt.status, gtt.reason]).toEqual(['CANCELLED', 'GTT expired']);
    const soon = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'ETHUSD',
      type: 'LIMIT',
      price: '100',
      baseAmount: '1',
      timeInForce: 'GTT',
      expirationDate: String(clock.now() + 5_000),
    });
    expect(soon.status).toBe('REJECTED');
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
  });

  it('kills a fill-or-kill order it cannot fill completely, and cancels the rest of an IOC order', () => {
    const { sim } = setup();
    const fok = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '60100',
      baseAmount: '15',
      timeInForce: 'FOK',
    });
    expect([fok.status, fok.amountFilled.toFixed()]).toEqual(['CANCELLED', '0']);
    const small = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '60100',
      baseAmount: '0.01',
      timeInForce: 'FOK',
    });
    expect(small.status).toBe('FILLED');
    const ioc = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '60020',
      baseAmount: '15',
      timeInForce: 'IOC',
    });
    expect(ioc.status).toBe('CANCELLED');
    expect(ioc.amountFilled.gt(0) && ioc.amountFilled.lt(15)).toBe(true);
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
  });

  it('cancels the older resting order when a new order of the same customer would match it', () => {
    const { sim } = setup();
    const resting = sim.placeOrder({
      profileId: 'default',
      side: 'SELL',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '60003',
      baseAmount: '0.2',
    });
    expect(resting.status).toBe('OPEN');
    const taker = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '60010',
      baseAmount: '0.1',
      timeInForce: 'IOC',
    });
    expect(resting.status).toBe('CANCELLED');
    expect(resting.reason).toMatch(/^self-match/);
    expect(taker.amountFilled.toFixed()).toBe('0.1');
    expect(sim.executions().every((e) => e.orderId !== resting.id)).toBe(true);
  });

  it('credits the proceeds to recipient_profile_id while the owner pays', () => {
    const { sim } = setup();
    const other = sim.profiles.create('receiver', undefined, T0);
    const order = sim.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'MARKET',
      quoteAmount: '600',
      recipientProfileId: other.id,
    });
    expect(sim.accounts.balance(other.id, 'BTC').available.toFixed()).toBe(order.amountFilled.toFixed());
    expect(sim.accounts.balance('default', 'BTC').available.toFixed()).toBe('2');
  });
});

describe('Ledger', () => {
  it('applies all legs of a movement or none of them', () => {
    const ledger = new Ledger();
    ledger.credit('p', 'USD', new D(10));
    expect(() =>
      ledger.apply([
        { profileId: 'p', asset: 'BTC', available: new D(1) },
        { profileId: 'p', asset: 'USD', available: new D(-11) },
      ]),
    ).toThrow(InvariantError);
    expect(ledger.get('p', 'BTC').available.toFixed()).toBe('0');
    expect(ledger.get('p', 'USD').available.toFixed()).toBe('10');
    expect(() => ledger.reserve('p', 'USD', new D(11))).toThrow(
      expect.objectContaining({
        kind: 'insufficient-funds',
        meta: { profile_id: 'p', asset: 'USD', available: '10', needed: '11' },
      }) as unknown as Error,
    );
  });
});
