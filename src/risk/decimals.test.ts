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

  it('stays bounded: many distinct values still parse right after the cache is emptied', () => {
    for (let i = 0; i < 5_000; i++) expect(decimalOf(`${i}.25`).toFixed()).toBe(`${i}.25`);
    expect(decimalOf('7.25').toFixed()).toBe('7.25');
  });

  it('throws as new D does on a string that is not a number, and keeps nothing for it', () => {
    expect(() => decimalOf('abc')).toThrow();
    expect(() => decimalOf('abc')).toThrow();
  });
});
