import { describe, expect, it } from 'vitest';
import { InputError } from '../core/index.js';
import { randomWalk } from '../../test/indicators/series.js';
import { CompensatedSum } from './compensated-sum.js';
import { RingBuffer } from './ring-buffer.js';
import { Atr, BollingerBands, Ema, Macd, Momentum, Roc, RollingMax, RollingMin, Rsi, Sma, StdDev, Wma } from './index.js';
import type { Indicator } from './types.js';

const FACTORIES: ReadonlyArray<[string, () => Indicator]> = [
  ['Sma', () => new Sma(10)],
  ['Ema', () => new Ema(10)],
  ['Wma', () => new Wma(10)],
  ['Rsi', () => new Rsi(10)],
  ['Macd', () => new Macd({ fast: 3, slow: 7, signal: 4 })],
  ['StdDev', () => new StdDev(10)],
  ['BollingerBands', () => new BollingerBands({ period: 10 })],
  ['Roc', () => new Roc(10)],
  ['Momentum', () => new Momentum(10)],
  ['RollingMax', () => new RollingMax(10)],
  ['RollingMin', () => new RollingMin(10)],
];

describe('every indicator keeps the common contract', () => {
  const xs = randomWalk(31, 200);
  for (const [name, make] of FACTORIES) {
    it(`${name}: undefined for exactly warmUp − 1 updates, then ready with value = last update`, () => {
      const ind = make();
      for (let i = 0; i < xs.length; i++) {
        const out = ind.update(xs[i] as number);
        expect(out === undefined, `update ${i}`).toBe(i < ind.warmUp - 1);
        expect(ind.ready).toBe(out !== undefined);
        expect(ind.value).toBe(out);
      }
    });

    it(`${name}: reset forgets history and replays to the same outputs`, () => {
      const ind = make();
      const first = Array.from(xs, (x) => ind.update(x));
      ind.reset();
      expect(ind.ready).toBe(false);
      expect(ind.value).toBeUndefined();
      expect(Array.from(xs, (x) => ind.update(x))).toEqual(first);
    });

    it(`${name}: rejects NaN and Infinity inputs with the indicator named`, () => {
      const ind = make();
      expect(() => ind.update(NaN)).toThrow(InputError);
      expect(() => ind.update(Infinity)).toThrow(/input: must be a finite number, got Infinity/);
    });
  }

  it('MACD names itself in an input error', () => {
    expect(() => new Macd().update(NaN)).toThrow(/MACD\(12,26,9\) input: must be a finite number, got NaN/);
  });

  it('ATR rejects a bar whose high is below its low', () => {
    expect(() => new Atr(3).update(1, 2, 1.5)).toThrow(/ATR\(3\) high: is below low/);
    expect(() => new Atr(3).update(2, 1, NaN)).toThrow(/ATR\(3\) close: must be a finite number/);
  });

  it('rejects bad configuration, naming the field and the fix', () => {
    expect(() => new Sma(0)).toThrow(/period: must be an integer ≥ 1, got 0/);
    expect(() => new Ema(1.5)).toThrow(InputError);
    expect(() => new Macd({ fast: 26, slow: 12 })).toThrow(/fast: must be below slow \(12\), got 26; swap them/);
    expect(() => new Macd({ signal: 0 })).toThrow(/signal: must be an integer/);
    expect(() => new BollingerBands({ stdDev: -1 })).toThrow(/stdDev: must be a finite number > 0/);
    expect(() => new StdDev(1, { sample: true })).toThrow(/period: must be ≥ 2 for a sample/);
  });
});

describe('numerical stability over long runs', () => {
  // A million updates at a high price level, then the window is recomputed exactly (two-pass).
  const period = 50;
  const xs = randomWalk(41, 1_000_000, 60_000, 0.001);
  const tail = xs.subarray(xs.length - period);
  const mean = tail.reduce((a, b) => a + b, 0) / period;
  const variance = tail.reduce((a, b) => a + (b - mean) ** 2, 0) / period;

  it('SMA, WMA and SD do not drift after 1,000,000 updates', () => {
    const sma = new Sma(period);
    const wma = new Wma(period);
    const sd = new StdDev(period);
    for (const x of xs) {
      sma.update(x);
      wma.update(x);
      sd.update(x);
    }
    let weighted = 0;
    tail.forEach((x, i) => (weighted += x * (i + 1)));
    expect(Math.abs((sma.value as number) - mean) / mean).toBeLessThan(1e-14);
    expect(Math.abs((wma.value as number) - weighted / ((period * (period + 1)) / 2)) / mean).toBeLessThan(1e-14);
    expect(Math.abs((sd.value as number) - Math.sqrt(variance)) / Math.sqrt(variance)).toBeLessThan(1e-11);
    expect(Math.abs(sd.mean - mean) / mean).toBeLessThan(1e-14);
  });

  it('SMA gives, to the bit, what a ring buffer and a compensated sum give (its fields do the same arithmetic in the same order)', () => {
    for (const p of [1, 2, 7, 200]) {
      const sma = new Sma(p);
      const ring = new RingBuffer(p);
      const sum = new CompensatedSum();
      const jumpy = randomWalk(p, 20_000, 30_000, 0.05);
      for (let i = 0; i < jumpy.length; i++) {
        if (i === 10_000) {
          sma.reset();
          ring.clear();
          sum.set(0);
        }
        // a wide range of magnitudes, so the compensation does real work
        const x = i % 997 === 0 ? jumpy[i]! * 1e9 : i % 991 === 0 ? 1e-9 : jumpy[i]!;
        const wasFull = ring.full;
        const evicted = ring.push(x);
        if (wasFull) sum.add(-evicted);
        sum.add(x);
        const want = ring.full ? sum.value / p : undefined;
        expect(sma.update(x)).toBe(want);
      }
    }
  });

  it('a constant series gives exactly zero spread and collapsed bands with %b 0.5', () => {
    const bb = new BollingerBands({ period: 20 });
    for (let i = 0; i < 5000; i++) bb.update(60_000.37);
    expect(bb.upper).toBe(bb.lower);
    expect(bb.middle).toBeCloseTo(60_000.37, 9);
    expect(bb.percentB).toBe(0.5);
    expect(bb.bandwidth).toBe(0);
  });
});
