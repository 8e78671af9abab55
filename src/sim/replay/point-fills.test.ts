import { describe, expect, it } from 'vitest';
import { D } from '../../core/decimal.js';
import { Rng } from '../../core/rng.js';
import { buyByQuote, divideDown, feeRate } from './point-fills.js';

/** The decimal division it replaces: 40 significant digits, then rounded down to `dp` places. */
const reference = (a: string, b: string, dp: number): string => new D(a).div(new D(b)).toDecimalPlaces(dp, D.ROUND_DOWN).toFixed();

describe('divideDown: a / b rounded down, by integer division', () => {
  it('matches the decimal division on hand-picked cases: exact, repeating, zero, whole and fractional scales', () => {
    const cases: Array<[string, string, number]> = [
      ['99.9', '30001.37', 8], ['100', '3', 8], ['2', '3', 0], ['0', '17.5', 8], ['1', '1', 2], ['12345678.9', '0.0001', 8],
      ['0.00000001', '99999.99', 8], ['75.75', '0.75', 8], ['30.2', '0.3', 8], ['1e-8', '3', 12], ['123.456', '1000', 1],
    ];
    for (const [a, b, dp] of cases) expect([a, b, dp, divideDown(new D(a), new D(b), dp).toFixed()]).toEqual([a, b, dp, reference(a, b, dp)]);
  });

  it('matches it on 20,000 seeded random fills (quote 0.01 to 1,000,000 at 2 decimals, prices at 0 to 10 decimals)', () => {
    const rng = new Rng(22);
    for (let n = 0; n < 20_000; n++) {
      const quote = (Math.floor(rng.next() * 1e8) + 1) / 100;
      const places = Math.floor(rng.next() * 11);
      const price = (Math.floor(rng.next() * 1e9) + 1) / 10 ** places;
      const a = new D(quote).minus(new D(quote).times(feeRate(10))).toFixed();
      const b = new D(price).toFixed();
      const got = divideDown(new D(a), new D(b), 8).toFixed();
      if (got !== reference(a, b, 8)) expect({ a, b, got }).toEqual({ a, b, got: reference(a, b, 8) });
    }
  });

  it('sizes a quote-sized buy as before: 100 USD less the 0.1 fee at 30001.37 buys 0.00332984 BTC', () => {
    const x = buyByQuote(new D('100'), new D('30001.37'), feeRate(10), { baseDp: 8, quoteDp: 2 });
    expect([x.base.toFixed(), x.quote.toFixed(), x.fee.toFixed(), x.price.toFixed()]).toEqual(['0.00332984', '100', '0.1', '30001.37']);
  });
});
