import { describe, expect, it } from 'vitest';
import { D } from './decimal.js';
import { formatAmount, formatDecimal, formatMoney, formatPrice, shownDecimals } from './money-format.js';

describe('money for people', () => {
  it('shows an amount at its asset precision: fiat 2 decimals, crypto 8', () => {
    expect(formatAmount('80000.0004151604257', 'USD')).toBe('80000.00');
    expect(formatAmount(2061.7459188883386, 'USD')).toBe('2061.75');
    expect(formatAmount(new D('0.123456789'), 'BTC')).toBe('0.12345679');
    expect(formatAmount('1', 'EUR')).toBe('1.00');
    expect(formatMoney('10000', 'USD')).toBe('10000.00 USD');
  });

  it('shows a price at the tick decimals, halves away from zero', () => {
    expect(formatPrice('33298.01542458', 2)).toBe('33298.02');
    expect(formatPrice(0.125, 2)).toBe('0.13');
    expect(formatPrice('100', 0)).toBe('100');
  });

  it('never prints -0.00, and prints "-" for a value that is not a number', () => {
    expect(formatDecimal('-0.001', 2)).toBe('0.00');
    expect(formatDecimal('-12.345', 2)).toBe('-12.35');
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, '', 'abc', undefined, null]) expect(formatDecimal(v, 2)).toBe('-');
  });

  it('counts the decimals a text shows', () => {
    expect(shownDecimals('80000.0004151604257')).toBe(13);
    expect(shownDecimals('-1.50')).toBe(2);
    expect(shownDecimals('7')).toBe(0);
  });
});
