import { describe, expect, it } from 'vitest';
import { D } from '../core/decimal.js';
import {
  byDecimal,
  byNumber,
  crosses,
  fokCovered,
  gttExpired,
  gttTooSoon,
  isStopType,
  MIN_GTT_MS,
  POST_ONLY_TAKES,
  postOnlyRefusal,
  stopFires,
  takesOnly,
} from './order-life.js';

describe('the platform rules of an entered order (order-life.ts)', () => {
  it('a stop fires once the reference price is at or below its stop price, numbers and Decimals alike', () => {
    expect(stopFires(100, 100, byNumber)).toBe(true);
    expect(stopFires(99.99, 100, byNumber)).toBe(true);
    expect(stopFires(100.01, 100, byNumber)).toBe(false);
    expect(stopFires(new D('100.00'), new D('100'), byDecimal)).toBe(true);
    expect(stopFires(new D('100.000000001'), new D('100'), byDecimal)).toBe(false);
    expect(['STOP_MARKET', 'STOP_LIMIT', 'LIMIT', 'MARKET', 'POST_ONLY_LIMIT'].map(isStopType)).toEqual([true, true, false, false, false]);
  });

  it('a GTT order expires at its time, and one expiring within 10 s of placement is too soon', () => {
    expect(gttExpired(undefined, 1e15)).toBe(false);
    expect(gttExpired(5_000, 4_999)).toBe(false);
    expect(gttExpired(5_000, 5_000)).toBe(true);
    expect(MIN_GTT_MS).toBe(10_000);
    expect(gttTooSoon(10_000, 0)).toBe(true);
    expect(gttTooSoon(10_001, 0)).toBe(false);
    expect(gttTooSoon(undefined, 0)).toBe(false);
    expect(gttTooSoon(2_000, 0, 1_000)).toBe(false);
  });

  it('a post-only order that would take is refused in the platform words; one that would rest is not', () => {
    expect(postOnlyRefusal('POST_ONLY_LIMIT', true)).toBe(POST_ONLY_TAKES);
    expect(POST_ONLY_TAKES).toBe('post-only order would take liquidity');
    expect(postOnlyRefusal('POST_ONLY_LIMIT', false)).toBeUndefined();
    expect(postOnlyRefusal('LIMIT', true)).toBeUndefined();
  });

  it('a buy crosses at or below its limit, a sell at or above; an absent (NaN) limit crosses nothing', () => {
    expect([99, 100, 101].map((p) => crosses('BUY', p, 100, byNumber))).toEqual([true, true, false]);
    expect([99, 100, 101].map((p) => crosses('SELL', p, 100, byNumber))).toEqual([false, true, true]);
    expect(crosses('BUY', new D('100.01'), new D('100'), byDecimal)).toBe(false);
    expect(crosses('SELL', new D('100.01'), new D('100'), byDecimal)).toBe(true);
    expect(crosses('BUY', 100, Number.NaN, byNumber) || crosses('SELL', 100, Number.NaN, byNumber)).toBe(false);
  });

  it('partial fills: market, stop-market, IOC and FOK remainders are cancelled, the others rest; FOK needs the whole amount', () => {
    expect(takesOnly('MARKET', 'IOC')).toBe(true);
    expect(takesOnly('STOP_MARKET', 'GTC')).toBe(true);
    expect(takesOnly('LIMIT', 'FOK')).toBe(true);
    expect(takesOnly('LIMIT', 'GTC')).toBe(false);
    expect(takesOnly('STOP_LIMIT', 'GTT')).toBe(false);
    const levels = [{ amount: new D('0.4') }, { amount: new D('0.6') }];
    expect(fokCovered(new D('1'), levels)).toBe(true);
    expect(fokCovered(new D('1.00000001'), levels)).toBe(false);
    expect(fokCovered(new D('0.1'), [])).toBe(false);
  });
});
