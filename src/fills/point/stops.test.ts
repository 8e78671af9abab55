import { describe, expect, it } from 'vitest';
import { InputError } from '../../core/errors.js';
import { SimError } from '../../sim/errors.js';
import { PointMarket } from './market.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

function market(options: ConstructorParameters<typeof PointMarket>[0] = {}): PointMarket {
  const m = new PointMarket({ funding: { USD: '1000', BTC: '1' }, ...options });
  m.point('BTCUSD', T0, 90);
  return m;
}

const btc = (m: PointMarket): [string, string] => [m.balance('BTC').available.toFixed(), m.balance('BTC').trading.toFixed()];
const usd = (m: PointMarket): string => m.balance('USD').available.toFixed();

describe('point replay stop orders', () => {
  it('fires a STOP_MARKET at the first later point at or below the stop, never at its own point or a point above', () => {
    const m = market();
    // placed while the price (90) is already below the stop: the placement point never triggers it
    const o = m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' });
    expect(btc(m)).toEqual(['0', '1']);
    expect(m.point('BTCUSD', T0 + H, 100)).toHaveLength(0);
    expect(m.point('BTCUSD', T0 + 2 * H, 95.01)).toHaveLength(0);
    expect(m.getOrder(o.id).status).toBe('OPEN');
    const [fill] = m.point('BTCUSD', T0 + 3 * H, 95);
    // a market sell at 95: gross 95, fee 0.095, credited floor2(94.905) = 94.9
    expect(fill).toMatchObject({ orderId: o.id, side: 'SELL', at: T0 + 3 * H });
    expect(fill!.price.toFixed()).toBe('95');
    expect(fill!.quoteAmount.toFixed()).toBe('94.9');
    expect(btc(m)).toEqual(['0', '0']);
    expect(usd(m)).toBe('1094.9');
    expect(m.getOrder(o.id).status).toBe('FILLED');
  });

  it('fills a triggered STOP_MARKET at the trigger point price moved by the slippage', () => {
    const m = market({ slippageBps: 50 });
    m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '0.5', stopPrice: '95' });
    m.point('BTCUSD', T0 + H, 100);
    const [fill] = m.point('BTCUSD', T0 + 2 * H, 80);
    expect(fill!.price.toFixed()).toBe('79.6'); // 80 × (1 − 0.005)
    expect(btc(m)).toEqual(['0.5', '0']);
  });

  it('turns a triggered STOP_LIMIT into a limit sell: filled at once when marketable, capped at its limit', () => {
    const m = market();
    m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_LIMIT', baseAmount: '1', stopPrice: '95', price: '93' });
    m.point('BTCUSD', T0 + H, 100);
    const [fill] = m.point('BTCUSD', T0 + 2 * H, 94);
    expect(fill!.price.toFixed()).toBe('94');
  });

  it('rests a triggered STOP_LIMIT that is not marketable, then fills it at its limit once the price reaches it', () => {
    const m = market();
    const o = m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_LIMIT', baseAmount: '1', stopPrice: '95', price: '93' });
    m.point('BTCUSD', T0 + H, 100);
    expect(m.point('BTCUSD', T0 + 2 * H, 90)).toHaveLength(0); // triggered, 90 < 93: rests
    expect(m.getOrder(o.id).status).toBe('OPEN');
    expect(btc(m)).toEqual(['0', '1']);
    expect(m.point('BTCUSD', T0 + 3 * H, 92.99)).toHaveLength(0);
    // back above the stop: a triggered order no longer waits for the stop, only for its limit
    const [fill] = m.point('BTCUSD', T0 + 4 * H, 97);
    expect(fill!.price.toFixed()).toBe('93');
    expect(btc(m)).toEqual(['0', '0']);
  });

  it('cancels an untriggered stop: its base returns and a later fall below the stop fills nothing', () => {
    const m = market();
    const o = m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '0.4', stopPrice: '95' });
    expect(btc(m)).toEqual(['0.6', '0.4']);
    expect(m.cancel(o.id).status).toBe('CANCELLED');
    expect(btc(m)).toEqual(['1', '0']);
    expect(m.point('BTCUSD', T0 + H, 50)).toHaveLength(0);
    expect(m.openOrders()).toHaveLength(0);
  });

  it('expires an untriggered GTT stop at its expiry, before a trigger at the same point', () => {
    const m = market();
    const o = m.place({
      refId: 's',
      market: 'BTCUSD',
      side: 'SELL',
      type: 'STOP_LIMIT',
      baseAmount: '1',
      stopPrice: '95',
      price: '90',
      timeInForce: 'GTT',
      expiresAt: T0 + 2 * H,
    });
    expect(m.point('BTCUSD', T0 + H, 100)).toHaveLength(0);
    expect(m.point('BTCUSD', T0 + 2 * H, 91)).toHaveLength(0);
    expect(m.getOrder(o.id)).toMatchObject({ status: 'CANCELLED', reason: 'GTT expired' });
    expect(m.closedAtLastPoint().map((x) => x.id)).toEqual([o.id]);
    expect(btc(m)).toEqual(['1', '0']);
  });

  it('refuses stop buys, a missing stop_price and a stop beyond the available base', () => {
    const m = market();
    expect(() => m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' })).toThrow(
      InputError,
    );
    expect(() => m.place({ refId: 'b', market: 'BTCUSD', side: 'SELL', type: 'STOP_LIMIT', baseAmount: '1', price: '93' })).toThrow(
      /stop_price/,
    );
    expect(() =>
      m.place({ refId: 'c', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', price: '93', stopPrice: '95' }),
    ).toThrow(/price: not allowed on STOP_MARKET orders/);
    expect(() => m.place({ refId: 'd', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1.5', stopPrice: '95' })).toThrow(
      SimError,
    );
    expect(btc(m)).toEqual(['1', '0']);
  });
});
