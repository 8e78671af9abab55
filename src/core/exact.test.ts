import { describe, expect, it } from 'vitest';
import { D, type Dec } from './decimal.js';
import {
  abs,
  compare,
  dividedBy,
  exactOf,
  exactOfDecimal,
  exactOfNumber,
  isMultipleOf,
  minus,
  plus,
  times,
  toDecimal,
  toText,
  type Exact,
} from './exact.js';
import { Rng } from './rng.js';

/** A random decimal text: up to `int` whole digits and `dec` decimals, sometimes with trailing zeros or a sign. */
function text(rng: Rng, int: number, dec: number, signed = false): string {
  let whole = '';
  const w = rng.int(0, int);
  for (let i = 0; i < w; i++) whole += String(rng.int(0, 9));
  let frac = '';
  const f = rng.int(0, dec);
  for (let i = 0; i < f; i++) frac += String(rng.int(0, 9));
  const body = `${whole || '0'}${frac ? `.${frac}` : ''}`;
  return signed && rng.chance(0.3) ? `-${body}` : body;
}

function x(t: string): Exact {
  const e = exactOf(t);
  if (e === undefined) throw new Error(`not a decimal: ${t}`);
  return e;
}

/** The Exact and the Decimal agree: same value, same text. */
function same(e: Exact, d: Dec): void {
  expect(toText(e)).toBe(d.toFixed());
  expect(toDecimal(e).eq(d)).toBe(true);
}

describe('exact: decimal.js arithmetic in bigint units', () => {
  it('reads numbers as their shortest decimal (at the scale it needs), and Decimals', () => {
    expect(exactOfNumber(30123.45)).toEqual({ units: 3012345n, scale: 2 });
    expect(exactOfNumber(0.1 + 0.2)).toEqual({ units: 30000000000000004n, scale: 17 });
    expect(exactOfNumber(42)).toEqual({ units: 42n, scale: 0 });
    expect(exactOfNumber(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(exactOfNumber(Number.NaN)).toBeUndefined();
    expect(toText(exactOfDecimal(new D('0.00012345'))!)).toBe('0.00012345');
  });

  it('reads strings, numbers and Decimals at the scale they need, without rounding', () => {
    expect(exactOf('12.50')).toEqual({ units: 1250n, scale: 2 });
    expect(exactOf('.5')).toEqual({ units: 5n, scale: 1 });
    expect(exactOf('1e-7')).toEqual({ units: 1n, scale: 7 });
    expect(exactOf('abc')).toBeUndefined();
    expect(exactOf('1e')).toBeUndefined();
    expect(toText(exactOfNumber(0.1 + 0.2)!)).toBe('0.30000000000000004');
    expect(toText(exactOfNumber(1.234e-9)!)).toBe(new D(1.234e-9).toFixed());
    expect(toText(exactOfNumber(1.5e21)!)).toBe('1500000000000000000000');
    expect(exactOfNumber(Number.NaN)).toBeUndefined();
    expect(exactOfNumber(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(toText(exactOfDecimal(new D('1.5e-30'))!)).toBe(new D('1.5e-30').toFixed());
    expect(exactOfDecimal(new D(Number.NaN))).toBeUndefined();
    expect(exactOfDecimal(new D(Number.NEGATIVE_INFINITY))).toBeUndefined();
    for (const t of [
      '0',
      '-0',
      '-12345.67',
      '1e-30',
      '1.5e+50',
      '9999999',
      '10000000',
      '0.0000001',
      '123456789012345678901234567890.123456789',
    ]) {
      expect(toText(exactOfDecimal(new D(t))!)).toBe(new D(t).toFixed());
    }
    // the one-value memo hands back the same reading, and forgets it for the next value
    expect(exactOfNumber(60_000.5)).toBe(exactOfNumber(60_000.5));
    expect(toText(exactOfNumber(60_000.25)!)).toBe('60000.25');
  });

  it('gives what decimal.js gives for sums, differences, products and quotients of money', () => {
    const rng = new Rng('exact-money');
    for (let i = 0; i < 3_000; i++) {
      const a = text(rng, 9, 8, true);
      const b = text(rng, 9, 8, true);
      const [da, db] = [new D(a), new D(b)];
      same(exactOfDecimal(da)!, da);
      same(plus(x(a), x(b)), da.plus(db));
      same(minus(x(a), x(b)), da.minus(db));
      same(times(x(a), x(b)), da.times(db));
      expect(compare(x(a), x(b))).toBe(da.comparedTo(db));
      same(abs(x(a)), da.abs());
      if (!db.isZero()) {
        same(dividedBy(x(a), x(b))!, da.div(db));
        expect(isMultipleOf(x(a), x(b))).toBe(da.mod(db).isZero());
      }
    }
  });

  it('rounds as decimal.js does (40 significant digits, half-even) where a result has more digits', () => {
    const rng = new Rng('exact-long');
    for (let i = 0; i < 2_000; i++) {
      const a = text(rng, 25, 25, true);
      const b = text(rng, 25, 25, true);
      const [da, db] = [new D(a), new D(b)];
      same(exactOfDecimal(da.times(db))!, da.times(db));
      same(plus(x(a), x(b)), da.plus(db));
      same(minus(x(a), x(b)), da.minus(db));
      same(times(x(a), x(b)), da.times(db));
      expect(compare(x(a), x(b))).toBe(da.comparedTo(db));
    }
    // a product of 41 digits is rounded, as decimal.js rounds it: 1.(20 zeros)1 × 1.(19 zeros)1
    const p = times(x('1.000000000000000000001'), x('1.00000000000000000001'));
    expect(toText(p)).toBe(new D('1.000000000000000000001').times('1.00000000000000000001').toFixed());
    expect(toText(p)).not.toBe('1.00000000000000000001100000000000000000001');
  });

  it('rounds quotients, and sums and products past 40 digits, as decimal.js does, halves included (in bigint)', () => {
    const rng = new Rng('exact-quotients');
    const digits = (n: number): string => {
      let t = String(rng.int(1, 9));
      for (let i = 1; i < n; i++) t += String(rng.int(0, 9));
      return t;
    };
    const at = (units: string, dp: number): string =>
      dp === 0 ? units : dp >= units.length ? `0.${'0'.repeat(dp - units.length)}${units}` : `${units.slice(0, -dp)}.${units.slice(-dp)}`;
    const signed = (t: string): string => (rng.chance(0.3) ? `-${t}` : t);
    for (let i = 0; i < 4_000; i++) {
      const a = signed(at(digits(rng.int(1, 45)), rng.int(0, 30)));
      const b = signed(at(digits(rng.int(1, 45)), rng.int(0, 30)));
      same(dividedBy(x(a), x(b))!, new D(a).div(b));
      same(plus(x(a), x(b)), new D(a).plus(b));
      same(times(x(a), x(b)), new D(a).times(b));
    }
    for (let i = 0; i < 2_000; i++) {
      // a quotient of 41 digits ending in 5 (exactly half way), and a sum whose 41st digit is a 5
      const half = `${digits(40)}5`;
      const b = digits(rng.int(1, 15));
      const a = signed(at((BigInt(half) * BigInt(b)).toString(), rng.int(0, 20)));
      const bs = at(b, rng.int(0, 20));
      same(dividedBy(x(a), x(bs))!, new D(a).div(bs));
      const c = signed(at(half, rng.int(0, 41)));
      same(plus(x(c), x('0')), new D(c).plus(0));
      same(minus(x(c), x(at('1', 60))), new D(c).minus(at('1', 60)));
    }
    // 1/3 to 40 digits; 2/3 rounds up; a whole quotient is exact
    expect(toText(dividedBy(x('1'), x('3'))!)).toBe(`0.${'3'.repeat(40)}`);
    expect(toText(dividedBy(x('2'), x('3'))!)).toBe(`0.${'6'.repeat(39)}7`);
    expect(dividedBy(x('100.000'), x('0.001'))).toEqual({ units: 100000n, scale: 0 });
  });

  it('tells multiples on any tick, as Decimal#mod does', () => {
    expect(isMultipleOf(x('60000.25'), x('0.25'))).toBe(true);
    expect(isMultipleOf(x('60000.10'), x('0.25'))).toBe(false);
    expect(isMultipleOf(x('15'), x('5'))).toBe(true);
    expect(isMultipleOf(x('0.70125'), x('0.0001'))).toBe(false);
    expect(isMultipleOf(x('1'), x('0'))).toBe(new D(1).mod(0).isZero());
    expect(dividedBy(x('1'), x('0'))).toBeUndefined();
  });
});
