import { describe, expect, it } from 'vitest';
import { D } from '../core/index.js';
import { decimalOf, decimalOfNumber } from './decimals.js';

describe('decimalOf / decimalOfNumber', () => {
  it('gives the Decimal new D would, one instance per value', () => {
    for (const s of ['0.001', '60000.37', '1', '.5', '12345678901234567890.123456789']) {
      expect(decimalOf(s).toFixed()).toBe(new D(s).toFixed());
      expect(decimalOf(s)).toBe(decimalOf(s));
    }
    for (const n of [60_000.37, 0.1, 1e-9, 99.99999999999999]) {
      expect(decimalOfNumber(n).toFixed()).toBe(new D(n).toFixed());
      expect(decimalOfNumber(n)).toBe(decimalOfNumber(n));
    }
  });

  it('stays right when values share a slot: many distinct values, each read back', () => {
    for (let i = 0; i < 5_000; i++) {
      expect(decimalOf(`${i}.25`).toFixed()).toBe(`${i}.25`);
      expect(decimalOfNumber(i + 0.125).toFixed()).toBe(new D(i + 0.125).toFixed());
    }
    for (let i = 4_999; i >= 0; i -= 7) expect(decimalOf(`${i}.25`).toFixed()).toBe(`${i}.25`);
    expect(decimalOf('7.25').toFixed()).toBe('7.25');
  });

  it('keeps the sign of zero and passes non-finite numbers to D', () => {
    expect(decimalOfNumber(-0).isNegative()).toBe(new D(-0).isNegative());
    expect(decimalOfNumber(0).isNegative()).toBe(false);
    expect(decimalOfNumber(Number.NaN).isNaN()).toBe(true);
    expect(decimalOfNumber(Number.POSITIVE_INFINITY).isFinite()).toBe(false);
  });

  it('throws as new D does on a string that is not a number, and keeps nothing for it', () => {
    expect(() => decimalOf('abc')).toThrow();
    expect(() => decimalOf('abc')).toThrow();
  });
});
