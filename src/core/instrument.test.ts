import { describe, expect, it } from 'vitest';
import { D } from './decimal.js';
import { Rng } from './rng.js';
import { instrumentOf } from '../platform/instruments.js';
import { onTick, roundBase, roundPrice, roundQuote } from './instrument.js';

const btc = instrumentOf({ market: 'BTCUSD', tickRate: '0.01' });
const quarter = instrumentOf({ market: 'BTCUSD', tickRate: '0.25' });
const matic = instrumentOf({ market: 'MATICUSD', tickRate: '0.0001' });

describe('roundPrice', () => {
  it('rounds 59999.877 to the 0.01 tick down, up and to the nearest', () => {
    expect(roundPrice(btc, '59999.877', 'down')).toBe('59999.87');
    expect(roundPrice(btc, '59999.877', 'up')).toBe('59999.88');
    expect(roundPrice(btc, '59999.877', 'nearest')).toBe('59999.88');
    expect(roundPrice(btc, 59999.874)).toBe('59999.87');
  });

  it('rounds to ticks that are not a power of ten', () => {
    expect(roundPrice(quarter, '61250.60', 'down')).toBe('61250.50');
    expect(roundPrice(quarter, '61250.60', 'up')).toBe('61250.75');
    expect(roundPrice(quarter, '61250.625', 'nearest')).toBe('61250.75');
    expect(roundPrice(quarter, 61250.62, 'nearest')).toBe('61250.50');
  });

  it('leaves a price already on the tick as it is, in every mode', () => {
    for (const mode of ['down', 'up', 'nearest'] as const) expect(roundPrice(matic, new D('0.7012'), mode)).toBe('0.7012');
  });

  it('returns zero with the tick decimals when the price rounds below one tick', () => {
    expect(roundPrice(btc, 0.004, 'down')).toBe('0.00');
  });

  it('returns a result the tick check accepts', () => {
    for (const v of [0.123456, 1234.5678, 99.999]) expect(onTick(matic, new D(roundPrice(matic, v, 'up')))).toBe(true);
  });

  it('refuses NaN, infinities, negatives and non-numbers, naming price', () => {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, -1, 'x', '1e'])
      expect(() => roundPrice(btc, v)).toThrow(/^price: expected a finite number of 0 or more/);
  });

  it('refuses a rounding mode that does not exist', () => {
    expect(() => roundPrice(btc, 1, 'half' as 'down')).toThrow(/^mode: "half" is not a rounding/);
  });
});

describe('roundBase and roundQuote', () => {
  it('round down by default to 8 and 2 decimals', () => {
    expect(roundBase(btc, '0.123456789')).toBe('0.12345678');
    expect(roundBase(btc, 0.1 + 0.2)).toBe('0.3');
    expect(roundQuote(btc, '100.019')).toBe('100.01');
  });

  it('round up or to the nearest when asked', () => {
    expect(roundBase(btc, '0.123456781', 'up')).toBe('0.12345679');
    expect(roundQuote(btc, '100.015', 'nearest')).toBe('100.02');
    expect(roundQuote(btc, '100.014', 'nearest')).toBe('100.01');
  });

  it('name their own field when refusing a value', () => {
    expect(() => roundBase(btc, -0.5)).toThrow(/^base_amount: /);
    expect(() => roundQuote(btc, Number.NaN)).toThrow(/^quote_amount: /);
  });

  it('refuse negative zero and a bad amount before a bad mode, as decimal.js did', () => {
    for (const v of [-0, '-0', new D('-0'), '-0.000', new D(Number.NaN), '1e', '0x', 'Infinity']) {
      expect(() => roundBase(btc, v)).toThrow(/^base_amount: expected a finite number of 0 or more/);
    }
    expect(() => roundQuote(btc, 'x', 'half' as 'down')).toThrow(/^quote_amount: /);
    expect(() => roundQuote(btc, '1', 'half' as 'down')).toThrow(/^mode: "half" is not a rounding/);
    expect(() => roundQuote(btc, '1', 'toString' as 'down')).toThrow();
  });

  it('give what decimal.js gives for every mode and kind of value (exact bigint units do the work)', () => {
    const rng = new Rng(22);
    const modes = ['down', 'up', 'nearest'] as const;
    const ROUNDING = { down: D.ROUND_DOWN, up: D.ROUND_UP, nearest: D.ROUND_HALF_UP };
    const texts = [
      '0',
      '0.5',
      '.5',
      '1.',
      '+2.5',
      '100.015',
      '100.025',
      '1e-7',
      '1.5E+3',
      '2.5e-9',
      '123456789012345678901234567890.123456789',
      '0x1f',
      '1e-150',
    ];
    for (let k = 0; k < 1_500; k++) {
      const whole = Math.floor(rng.next() * 10 ** Math.floor(rng.next() * 7));
      const digits = Math.floor(rng.next() * 12);
      const frac = digits === 0 ? '' : `.${String(Math.floor(rng.next() * 10 ** digits)).padStart(digits, '0')}`;
      // some values sit exactly at a half of the last place kept
      texts.push(`${whole}${frac}`, `${whole}.${'0'.repeat(k % 9)}5`);
    }
    const values = texts.flatMap((t) => [t, new D(t), new D(t).toNumber()]);
    for (const v of values) {
      for (const mode of modes) {
        const d = new D(v);
        expect(roundBase(btc, v, mode)).toBe(d.toDecimalPlaces(8, ROUNDING[mode]).toFixed());
        expect(roundQuote(btc, v, mode)).toBe(d.toDecimalPlaces(2, ROUNDING[mode]).toFixed(2));
      }
    }
  });
});
