import { describe, expect, it } from 'vitest';
import { D } from './decimal.js';
import { Rng } from './rng.js';
import { decimalsOf, divide, rescale, unitsOf, unitsToDecimal, unitsToFixed, unitsToNumber, unitsToString } from './units.js';

describe('units: exact money as whole units of 10^-scale', () => {
  it('reads decimal strings exactly, refusing what is finer than the scale', () => {
    expect(unitsOf('12.5', 2)).toBe(1250n);
    expect(unitsOf('-0.001', 8)).toBe(-100000n);
    expect(unitsOf('.5', 1)).toBe(5n);
    expect(unitsOf('1.500', 2)).toBe(150n);
    expect(unitsOf('1e-7', 8)).toBe(10n);
    expect(unitsOf('1.5E+3', 0)).toBe(1500n);
    expect(unitsOf('0.123', 2)).toBeUndefined();
    expect(unitsOf('abc', 2)).toBeUndefined();
    expect(unitsOf('', 2)).toBeUndefined();
    expect(unitsOf('1.2.3', 2)).toBeUndefined();
    expect(unitsOf('1e', 2)).toBeUndefined();
    expect(unitsOf('-', 2)).toBeUndefined();
    expect(unitsOf('1e+', 2)).toBeUndefined();
    expect(unitsOf('1e5x', 2)).toBeUndefined();
    expect(unitsOf('0e-400', 2)).toBe(0n);
    expect(unitsOf('1e-400', 2)).toBeUndefined();
  });

  it('reads values of more than 15 significant digits through their text, as exactly', () => {
    expect(unitsOf('1234567890123456.78', 2)).toBe(123456789012345678n);
    expect(unitsOf('-0.1234567890123456789', 19)).toBe(-1234567890123456789n);
    expect(unitsOf('0.1234567890123456789', 18)).toBeUndefined();
    expect(unitsOf('12345678901234567890e-2', 0)).toBeUndefined();
    expect(unitsOf('12345678901234567800e-2', 0)).toBe(123456789012345678n);
    expect(unitsOf('123456789012345.6', 1)).toBe(1234567890123456n);
  });

  it('tells the scale a decimal string needs, so that reading it there is exact', () => {
    expect([
      decimalsOf('12.50'),
      decimalsOf('7'),
      decimalsOf('.5'),
      decimalsOf('1e-7'),
      decimalsOf('1.25e-3'),
      decimalsOf('1.5E+3'),
      decimalsOf('12345.6e2'),
    ]).toEqual([2, 0, 1, 7, 5, 0, 0]);
    for (const x of [30123.45, 0.1 + 0.2, 1e-7, 1.234567890123e-10, 1.5e21, 42]) {
      const text = String(x);
      const units = unitsOf(text, decimalsOf(text)!);
      expect(units === undefined ? undefined : unitsToDecimal(units, decimalsOf(text)!).eq(new D(x))).toBe(true);
    }
    expect(decimalsOf('1e')).toBeUndefined();
    expect(decimalsOf('1e1.5')).toBeUndefined();
  });

  it('writes units back as Decimal#toFixed does', () => {
    expect(unitsToString(150n, 2)).toBe('1.5');
    expect(unitsToString(-5n, 3)).toBe('-0.005');
    expect(unitsToString(0n, 8)).toBe('0');
    expect(unitsToString(100n, 2)).toBe('1');
    expect(unitsToFixed(150n, 2)).toBe('1.50');
    expect(unitsToFixed(-5n, 3)).toBe('-0.005');
    expect(unitsToDecimal(12345n, 8).eq(new D('0.00012345'))).toBe(true);
    expect(unitsToNumber(3012345n, 2)).toBe(30123.45);
  });

  it('divides and rescales with the named rounding', () => {
    expect(divide(7n, 2n, 'down')).toBe(3n);
    expect(divide(-7n, 2n, 'down')).toBe(-3n);
    expect(divide(7n, 2n, 'up')).toBe(4n);
    expect(divide(-7n, 2n, 'up')).toBe(-4n);
    expect(divide(-7n, 2n, 'floor')).toBe(-4n);
    expect(divide(-7n, 2n, 'ceil')).toBe(-3n);
    expect(divide(5n, 2n, 'half-even')).toBe(2n);
    expect(divide(7n, 2n, 'half-even')).toBe(4n);
    expect(divide(-7n, 2n, 'half-even')).toBe(-4n);
    expect(divide(5n, 2n, 'half-up')).toBe(3n);
    expect(divide(-5n, 2n, 'half-up')).toBe(-3n);
    expect(divide(7n, 3n, 'half-up')).toBe(2n);
    expect(divide(8n, 3n, 'half-up')).toBe(3n);
    expect(divide(-8n, -3n, 'half-up')).toBe(3n);
    expect(divide(6n, 3n, 'up')).toBe(2n);
    expect(rescale(12345n, 4, 2, 'down')).toBe(123n);
    expect(rescale(12345n, 4, 2, 'up')).toBe(124n);
    expect(rescale(123n, 2, 4, 'down')).toBe(12300n);
  });

  it('agrees with decimal.js on random sums, products and roundings', () => {
    const rng = new Rng(7);
    const text = (): string => {
      const whole = Math.floor(rng.next() * 100_000);
      const frac = String(Math.floor(rng.next() * 1e8)).padStart(8, '0');
      return `${rng.next() < 0.3 ? '-' : ''}${whole}.${frac}`;
    };
    for (let k = 0; k < 2_000; k++) {
      const a = text();
      const b = text();
      const ua = unitsOf(a, 8)!;
      const ub = unitsOf(b, 8)!;
      expect(unitsToString(ua + ub, 8)).toBe(new D(a).plus(b).toFixed());
      expect(unitsToString(ua * ub, 16)).toBe(new D(a).times(b).toFixed());
      expect(unitsToString(rescale(ua * ub, 16, 2, 'down'), 2)).toBe(new D(a).times(b).toDecimalPlaces(2, D.ROUND_DOWN).toFixed());
      expect(unitsToString(rescale(ua * ub, 16, 2, 'up'), 2)).toBe(new D(a).times(b).toDecimalPlaces(2, D.ROUND_UP).toFixed());
      expect(unitsToString(rescale(ua, 8, 3, 'half-up'), 3)).toBe(new D(a).toDecimalPlaces(3, D.ROUND_HALF_UP).toFixed());
      if (ub !== 0n)
        expect(unitsToString(divide(ua * 10n ** 8n, ub, 'down'), 8)).toBe(new D(a).div(b).toDecimalPlaces(8, D.ROUND_DOWN).toFixed());
    }
  });
});
