import { describe, expect, it } from 'vitest';
import { D, type Dec } from '../../core/decimal.js';
import { exactOfDecimal, exactOfNumber, toText, type Exact } from '../../core/exact.js';
import { Rng } from '../../core/rng.js';
import { unitsOf, unitsToString } from '../../core/units.js';
import { buyByBase, buyByQuote, rateOfBps, sellByBase, slipped, type FillAmounts } from './fills.js';

const P = { baseDp: 8, quoteDp: 2 };

/** The rules in decimal.js (40 significant digits, half-even), as point replay computed them before units. */
const decimal = {
  fee: (bps: number): Dec => new D(bps).div(10_000),
  slipped: (price: Dec, side: 'BUY' | 'SELL', bps: number): Dec =>
    bps === 0 ? price : price.times(side === 'BUY' ? decimal.fee(bps).plus(1) : new D(1).minus(decimal.fee(bps))),
  buyByQuote: (quote: Dec, price: Dec, fee: Dec): string[] => {
    const feePaid = quote.times(fee);
    return [
      quote.minus(feePaid).div(price).toDecimalPlaces(8, D.ROUND_DOWN).toFixed(),
      quote.toFixed(),
      feePaid.toFixed(),
      price.toFixed(),
    ];
  },
  buyByBase: (base: Dec, price: Dec, fee: Dec): string[] => {
    const notional = base.times(price);
    const cost = notional.times(fee.plus(1)).toDecimalPlaces(2, D.ROUND_UP);
    return [base.toFixed(), cost.toFixed(), cost.minus(notional).toFixed(), price.toFixed()];
  },
  sellByBase: (base: Dec, price: Dec, fee: Dec): string[] => {
    const gross = base.times(price);
    const feePaid = gross.times(fee);
    return [base.toFixed(), gross.minus(feePaid).toDecimalPlaces(2, D.ROUND_DOWN).toFixed(), feePaid.toFixed(), price.toFixed()];
  },
};

/** A fill's amounts as text: base, quote, fee, price. */
const text = (x: FillAmounts): string[] => [
  unitsToString(x.base, P.baseDp),
  unitsToString(x.quote, P.quoteDp),
  toText(x.fee),
  toText(x.price),
];
const units = (value: string, dp: number): bigint => unitsOf(value, dp)!;

describe('the fill rules in exact units', () => {
  it('size a quote-sized buy: 100 USD less the 0.1 fee at 30001.37 buys 0.00332984 BTC; 99.9 / 7 rounds down to 14.27142857', () => {
    expect(text(buyByQuote(10000n, exactOfNumber(30001.37)!, rateOfBps(10), P))).toEqual(['0.00332984', '100', '0.1', '30001.37']);
    expect(text(buyByQuote(10000n, exactOfNumber(7)!, rateOfBps(10), P))).toEqual(['14.27142857', '100', '0.1', '7']);
  });

  it('sell B base for B × price × (1 − f), rounded down to cents, the fee in full', () => {
    // 0.5 × 30001.37 = 15000.685, fee 15.000685, received 14985.684315 → 14985.68
    expect(text(sellByBase(units('0.5', 8), exactOfNumber(30001.37)!, rateOfBps(10), P))).toEqual([
      '0.5',
      '14985.68',
      '15.000685',
      '30001.37',
    ]);
    // 9999.9999 × 0.999 = 9989.99990… → 9989.99
    expect(text(sellByBase(units('0.33333333', 8), exactOfNumber(30000)!, rateOfBps(10), P))[1]).toBe('9989.99');
  });

  it('buy B base for B × price × (1 + f), rounded up to cents; the fee is what it costs beyond the notional', () => {
    // 1 × 90 × 1.001 = 90.09
    expect(text(buyByBase(units('1', 8), exactOfNumber(90)!, rateOfBps(10), P))).toEqual(['1', '90.09', '0.09', '90']);
    // 0.00012345 × 30001.37 = 3.7036691… × 1.001 = 3.70737… → 3.71
    expect(text(buyByBase(units('0.00012345', 8), exactOfNumber(30001.37)!, rateOfBps(10), P)).slice(1, 3)).toEqual([
      '3.71',
      '0.0063308735',
    ]);
  });

  it("give decimal.js's results on 20,000 seeded random fills of every kind, fees and slippage included", () => {
    const rng = new Rng(2201);
    for (let n = 0; n < 20_000; n++) {
      const places = Math.floor(rng.next() * 11);
      const priceNumber = (Math.floor(rng.next() * 1e9) + 1) / 10 ** places + (rng.next() < 0.3 ? rng.next() : 0);
      const bps = [0, 1, 2.5, 10, 25, 100][Math.floor(rng.next() * 6)]!;
      const slip = [0, 1, 5, 7.5][Math.floor(rng.next() * 4)]!;
      const side = rng.next() < 0.5 ? 'BUY' : 'SELL';
      const quote = new D((Math.floor(rng.next() * 1e8) + 1) / 100);
      const base = new D((Math.floor(rng.next() * 1e10) + 1) / 1e8);
      const price = slipped(exactOfNumber(priceNumber)!, side, rateOfBps(slip));
      const priceDec = decimal.slipped(new D(priceNumber), side, slip);
      const fee = rateOfBps(bps);
      const cases: Array<[string[], string[]]> = [
        [text(buyByQuote(units(quote.toFixed(), 2), price, fee, P)), decimal.buyByQuote(quote, priceDec, decimal.fee(bps))],
        [text(buyByBase(units(base.toFixed(), 8), price, fee, P)), decimal.buyByBase(base, priceDec, decimal.fee(bps))],
        [text(sellByBase(units(base.toFixed(), 8), price, fee, P)), decimal.sellByBase(base, priceDec, decimal.fee(bps))],
      ];
      for (const [got, want] of cases) if (got.join() !== want.join()) expect({ n, got }).toEqual({ n, got: want });
    }
  });

  it('round as decimal.js does where a product passes its 40 significant digits', () => {
    const priceDec = new D('12345.678901234567890123456789');
    const price: Exact = exactOfDecimal(priceDec)!;
    const base = new D('123456.12345678');
    expect(text(sellByBase(units(base.toFixed(), 8), price, rateOfBps(10), P))).toEqual(
      decimal.sellByBase(base, priceDec, decimal.fee(10)),
    );
    expect(text(buyByBase(units(base.toFixed(), 8), price, rateOfBps(10), P))).toEqual(decimal.buyByBase(base, priceDec, decimal.fee(10)));
    expect(toText(slipped(price, 'BUY', rateOfBps(1.2345678901234)))).toBe(decimal.slipped(priceDec, 'BUY', 1.2345678901234).toFixed());
  });
});
