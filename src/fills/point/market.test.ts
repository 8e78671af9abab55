import { describe, expect, it } from 'vitest';
import { D } from '../../core/decimal.js';
import { PointMarket } from './market.js';
import { exactOfNumber, toText } from '../../core/exact.js';
import { unitsToString } from '../../core/units.js';
import { buyByQuote, rateOfBps, sellByBase } from './fills.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

function market(options: ConstructorParameters<typeof PointMarket>[0] = {}): PointMarket {
  return new PointMarket({ funding: { USD: '10000' }, ...options });
}

const usd = (m: PointMarket): string => m.balance('USD').available.toFixed();
const btc = (m: PointMarket): string => m.balance('BTC').available.toFixed();

describe('point replay fills (hand-computed)', () => {
  it('fills a market buy by quote at the next point, spending exactly Q with the fee inside', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    const o = m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' });
    expect(o.status).toBe('OPEN');
    expect(m.balance('USD')).toMatchObject({ available: new D('9000'), trading: new D('1000') });
    // fee = 1000 × 0.001 = 1; base = 999 / 125 = 7.992 (the price of t+1, never 100)
    const fills = m.point('BTCUSD', T0 + H, 125);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ at: T0 + H, side: 'BUY' });
    expect(fills[0]!.price.toFixed()).toBe('125');
    expect(fills[0]!.amount.toFixed()).toBe('7.992');
    expect(fills[0]!.commission.toFixed()).toBe('1');
    expect([usd(m), m.balance('USD').trading.toFixed(), btc(m)]).toEqual(['9000', '0', '7.992']);
    expect(m.getOrder(o.id).status).toBe('FILLED');
  });

  it('takes amounts and prices written with zeros past their decimals as the values they are, as the order rules do', () => {
    const fillsOf = (cmds: ReadonlyArray<Parameters<PointMarket['place']>[0]>): string[][] => {
      const m = market();
      m.point('BTCUSD', T0, 100);
      m.place(cmds[0]!);
      const fills = [...m.point('BTCUSD', T0 + H, 99)];
      m.place(cmds[1]!);
      fills.push(...m.point('BTCUSD', T0 + 2 * H, 98));
      return [...fills.map((f) => [f.side, f.amount.toFixed(), f.price.toFixed(), f.commission.toFixed()]), [usd(m), btc(m)]];
    };
    const plain = fillsOf([
      { refId: 'q', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.5' },
      { refId: 'l', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.5', price: '99.5' },
    ]);
    const padded = fillsOf([
      { refId: 'q', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.5000' },
      { refId: 'l', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.500000000000', price: '99.5000' },
    ]);
    expect(padded).toEqual(plain);
    expect(plain).toHaveLength(3);
  });

  it('moves fundsVersion only when a total may change: fills and quote executions, not placing, resting or cancelling', () => {
    const m = market();
    const totals = (): string[] =>
      ['USD', 'BTC'].map((a) => {
        const b = m.balance(a);
        return b.available.plus(b.trading).toFixed();
      });
    m.point('BTCUSD', T0, 100);
    let funds = m.fundsVersion;
    let seen = totals();
    const step = (fn: () => unknown, moves: boolean): void => {
      const version = m.version;
      fn();
      expect(m.fundsVersion !== funds).toBe(moves);
      if (!moves) expect(totals()).toEqual(seen); // the driver may keep its marks
      funds = m.fundsVersion;
      seen = totals();
      expect(m.version).toBeGreaterThanOrEqual(version);
    };
    step(() => m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' }), false);
    step(() => m.place({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '90.00' }), false);
    step(() => m.point('BTCUSD', T0 + H, 100), true); // the market buy fills
    step(() => m.cancel(m.findOrderByRef('b')!.id), false);
    step(() => m.place({ refId: 'c', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95.00' }), false);
    step(() => m.point('BTCUSD', T0 + 2 * H, 99), false); // above the stop: it waits
    step(() => m.point('BTCUSD', T0 + 3 * H, 94), true); // triggered and filled at this point
    step(() => m.point('BTCUSD', T0 + 4 * H, 94), false);
    const q = m.quotes('BTCUSD').find((x) => x.side === 'SELL')!;
    step(() => m.executeQuote({ refId: 'q', quoteId: q.quoteId, baseAmount: '0.5' }), true);
  });

  it('sells B base for B × price × (1 − fee), rounded down to cents', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' });
    m.point('BTCUSD', T0 + H, 125);
    m.place({ refId: 'b', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '7.992' });
    // gross = 7.992 × 130 = 1038.96; fee = 1.03896; credited = floor2(1037.92104) = 1037.92
    const [sell] = m.point('BTCUSD', T0 + 2 * H, 130);
    expect(sell!.commission.toFixed()).toBe('1.03896');
    expect(sell!.quoteAmount.toFixed()).toBe('1037.92');
    expect([usd(m), btc(m)]).toEqual(['10037.92', '0']);
  });

  it('rounds the base credited down to 8 decimals', () => {
    const x = buyByQuote(10000n, exactOfNumber(7)!, rateOfBps(10), { baseDp: 8, quoteDp: 2 });
    expect(unitsToString(x.base, 8)).toBe('14.27142857'); // 99.9 / 7 = 14.271428571…
    expect(toText(x.fee)).toBe('0.1');
    const s = sellByBase(33333333n, exactOfNumber(30000)!, rateOfBps(10), { baseDp: 8, quoteDp: 2 });
    expect(unitsToString(s.quote, 2)).toBe('9989.99'); // 9999.9999 × 0.999 = 9989.99990… → 9989.99
  });

  it('moves the price against the trader by the slippage', () => {
    const m = market({ slippageBps: 50 });
    m.point('BTCUSD', T0, 200);
    m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' });
    const [buy] = m.point('BTCUSD', T0 + H, 200);
    expect(buy!.price.toFixed()).toBe('201');
    expect(buy!.amount.toFixed()).toBe('4.97014925'); // 999 / 201
    m.place({ refId: 'b', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '4.97014925' });
    const [sell] = m.point('BTCUSD', T0 + 2 * H, 200);
    expect(sell!.price.toFixed()).toBe('199');
  });

  it('rests a limit buy until a later point at or below the limit, then fills in full at the limit', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    const o = m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '90' });
    expect(m.balance('USD').trading.toFixed()).toBe('90.09'); // 90 × 1.001
    expect(m.point('BTCUSD', T0 + H, 95)).toHaveLength(0);
    expect(m.point('BTCUSD', T0 + 2 * H, 90.5)).toHaveLength(0);
    const [fill] = m.point('BTCUSD', T0 + 3 * H, 80);
    expect([fill!.price.toFixed(), fill!.amount.toFixed(), fill!.quoteAmount.toFixed(), fill!.commission.toFixed()]).toEqual([
      '90',
      '1',
      '90.09',
      '0.09',
    ]);
    expect([usd(m), m.balance('USD').trading.toFixed(), btc(m), m.getOrder(o.id).status]).toEqual(['9909.91', '0', '1', 'FILLED']);
  });

  it('fills a limit order marketable at the next point at that point price, releasing the rest', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '110' });
    const [fill] = m.point('BTCUSD', T0 + H, 100);
    expect([fill!.price.toFixed(), fill!.quoteAmount.toFixed()]).toEqual(['100', '100.1']);
    expect([usd(m), m.balance('USD').trading.toFixed()]).toEqual(['9899.9', '0']);
  });

  it('fills a resting limit sell at its limit once a point reaches it', () => {
    const m = new PointMarket({ funding: { BTC: '2' } });
    m.point('BTCUSD', T0, 100);
    m.place({ refId: 'a', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '2', price: '120' });
    expect(m.point('BTCUSD', T0 + H, 119.99)).toHaveLength(0);
    const [fill] = m.point('BTCUSD', T0 + 2 * H, 150);
    expect([fill!.price.toFixed(), fill!.quoteAmount.toFixed(), fill!.commission.toFixed()]).toEqual(['120', '239.76', '0.24']);
  });

  it('rejects post-only orders that would take (as the platform does), cancels IOC orders that cannot fill at the next point', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    const post = m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'POST_ONLY_LIMIT', baseAmount: '1', price: '101' });
    const ioc = m.place({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '99', timeInForce: 'IOC' });
    expect(m.point('BTCUSD', T0 + H, 100)).toHaveLength(0);
    expect([m.getOrder(post.id).status, m.getOrder(post.id).reason, m.getOrder(ioc.id).status, usd(m)]).toEqual([
      'REJECTED',
      'post-only order would take liquidity',
      'CANCELLED',
      '10000',
    ]);
  });

  it('rejects a taker limit order more than 15 % from the point price, as the platform rejects one that far from mid', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    const far = m.place({ refId: 'far', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '120' });
    const near = m.place({ refId: 'near', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '110' });
    expect(m.point('BTCUSD', T0 + H, 100)).toHaveLength(1);
    expect([m.getOrder(far.id).status, m.getOrder(far.id).reason]).toEqual(['REJECTED', 'taker limit price more than 15 % from mid']);
    expect(m.getOrder(near.id).status).toBe('FILLED');
  });

  it('settles a quote execution at the point it is made, at the price moved by the spread', () => {
    const m = market({ quoteSpreadBps: 10 });
    m.point('BTCUSD', T0, 100);
    const [buy, sell] = m.quotes('BTCUSD');
    expect([buy!.price.toFixed(), sell!.price.toFixed(), buy!.expiresAt]).toEqual(['100.1', '99.9', T0 + 30_000]);
    const x = m.executeQuote({ refId: 'q1', quoteId: buy!.quoteId, quoteAmount: '100.10' });
    expect([x.status, x.baseAmount.toFixed(), x.quoteAmount.toFixed()]).toEqual(['SETTLED', '1', '100.1']);
    expect([usd(m), btc(m)]).toEqual(['9899.9', '1']);
    expect(m.executeQuote({ refId: 'q1', quoteId: buy!.quoteId, quoteAmount: '100.10' }).executionId).toBe(x.executionId);
    m.point('BTCUSD', T0 + H, 100);
    expect(() => m.executeQuote({ refId: 'q2', quoteId: buy!.quoteId, quoteAmount: '1.00' })).toThrow(/not offered/);
  });

  it('refuses orders beyond the balance (stop sells too) and bad precision with the field named', () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    expect(() => m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10000.01' })).toThrow(
      /insufficient USD/,
    );
    expect(() => m.place({ refId: 'b', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '90' })).toThrow(
      /insufficient BTC/,
    );
    expect(() => m.place({ refId: 'c', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1.001' })).toThrow(
      /quote_amount: 1.001 has more precision than allowed: use at most 2 decimal places/,
    );
    expect(() => m.place({ refId: 'd', market: 'BTCUSD', side: 'BUY', type: 'MARKET', baseAmount: '1' })).toThrow(
      /quote_amount: required for MARKET BUY orders/,
    );
  });
});

describe('point replay with a window of closed orders and fills', () => {
  /** Buys 10 USD at each of `n` points; each order fills at the next point. */
  function trade(m: PointMarket, n: number): string[] {
    const ids: string[] = [];
    for (let k = 0; k < n; k++) {
      m.point('BTCUSD', T0 + k * H, 100);
      ids.push(m.place({ refId: `r-${k}`, market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10.00' }).id);
    }
    m.point('BTCUSD', T0 + n * H, 100);
    return ids;
  }

  it('forgets the oldest closed orders and fills beyond the window; ref_ids stay taken and fills stay counted', () => {
    const m = market({ keepClosed: 3 });
    const ids = trade(m, 10);
    expect(() => m.getOrder(ids[0]!)).toThrow(/not found/);
    expect(m.findOrderByRef('r-0')).toBeUndefined();
    expect(m.getOrder(ids[9]!).status).toBe('FILLED');
    expect(() => m.place({ refId: 'r-0', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10.00' })).toThrow(/already exists/);
    expect(m.executionCount).toBe(10);
    expect(m.executions().length).toBeLessThan(6);
    expect(m.executionsFrom(9).map((x) => x.refId)).toEqual(['r-9']);
    expect(m.executionsFrom(10)).toEqual([]);
    expect(() => m.executionsFrom(0)).toThrow(/forgotten/);
    // balances are untouched by forgetting: 10 buys of 10 USD
    expect(usd(m)).toBe('9900');
  });

  it('keeps every record by default, and refuses a window below one', () => {
    const m = market();
    const ids = trade(m, 10);
    expect(m.getOrder(ids[0]!).status).toBe('FILLED');
    expect(m.executionsFrom(0)).toHaveLength(10);
    expect(() => market({ keepClosed: 0 })).toThrow(/at least 1/);
  });

  it("keeps each market at its own point when two are replayed: an order fills at its own market's next point only", () => {
    const m = market();
    m.point('BTCUSD', T0, 100);
    m.point('ETHUSD', T0, 10);
    m.place({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.10' });
    expect(m.point('ETHUSD', T0 + H, 11)).toHaveLength(0);
    expect(m.point('ETHUSD', T0 + 2 * H, 12)).toHaveLength(0);
    expect([m.price('BTCUSD'), m.price('ETHUSD')]).toEqual([100, 12]);
    const [fill] = m.point('BTCUSD', T0 + 2 * H, 100);
    expect([fill!.market, fill!.price.toFixed(), fill!.amount.toFixed()]).toEqual(['BTCUSD', '100', '0.999999']); // 100.10 less 0.1001 fee, at 100
    expect(m.point('ETHUSD', T0 + 3 * H, 13)).toHaveLength(0);
    expect([m.price('BTCUSD'), m.price('ETHUSD')]).toEqual([100, 13]);
  });
});
