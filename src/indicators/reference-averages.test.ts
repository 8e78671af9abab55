import { describe, expect, it } from 'vitest';
import { BollingerBands as TiBollinger, EMA, MACD, SD, SMA, WMA } from 'technicalindicators';
import { constant, randomWalk } from '../../test/indicators/series.js';
import { expectSeriesClose, firstDefined } from '../../test/indicators/compare.js';
import { BollingerBands, Ema, Macd, Sma, StdDev, Wma } from './index.js';
import type { Indicator } from './types.js';

// Our incremental outputs against technicalindicators 3.1.0's own incremental nextValue on the
// same inputs: same warm-up length, values within 1e-9 relative.

const SERIES: ReadonlyArray<[string, Float64Array]> = [
  ['walk seed 1', randomWalk(1, 3000)],
  ['walk seed 2 (volatile)', randomWalk(2, 3000, 50, 0.05)],
  ['walk at 60k (high level, low vol)', randomWalk(3, 3000, 60_000, 0.0005)],
  ['constant 42.5', constant(42.5, 200)],
];
const PERIODS = [1, 2, 5, 14, 20, 50];

function runOurs(ind: Indicator, xs: Float64Array): Array<number | undefined> {
  return Array.from(xs, (x) => ind.update(x));
}

function runTheirs(next: (x: number) => number | undefined, xs: Float64Array): Array<number | undefined> {
  return Array.from(xs, (x) => next(x));
}

describe('moving averages match technicalindicators 3.1.0', () => {
  for (const [name, xs] of SERIES) {
    for (const period of PERIODS) {
      it(`SMA(${period}) on ${name}`, () => {
        const ti = new SMA({ period, values: [] });
        expectSeriesClose(
          'SMA',
          runOurs(new Sma(period), xs),
          runTheirs((x) => ti.nextValue(x), xs),
        );
      });
      it(`EMA(${period}) on ${name}`, () => {
        const ti = new EMA({ period, values: [] });
        expectSeriesClose(
          'EMA',
          runOurs(new Ema(period), xs),
          runTheirs((x) => ti.nextValue(x), xs),
        );
      });
      it(`WMA(${period}) on ${name}`, () => {
        const ti = new WMA({ period, values: [] });
        expectSeriesClose(
          'WMA',
          runOurs(new Wma(period), xs),
          runTheirs((x) => ti.nextValue(x), xs),
        );
      });
    }
  }

  it('warm-up: the first value arrives at input `period`, and not before', () => {
    const xs = randomWalk(9, 20);
    for (const ind of [new Sma(20), new Ema(20), new Wma(20)]) {
      const out = runOurs(ind, xs);
      expect(firstDefined(out)).toBe(19);
      expect(ind.warmUp).toBe(20);
      expect(ind.ready).toBe(true);
    }
    const short = new Sma(20);
    runOurs(short, xs.subarray(0, 19));
    expect(short.ready).toBe(false);
    expect(short.value).toBeUndefined();
  });
});

describe('standard deviation and Bollinger Bands match technicalindicators 3.1.0', () => {
  for (const [name, xs] of SERIES) {
    for (const period of [2, 5, 20, 50]) {
      it(`SD(${period}) (population) on ${name}`, () => {
        const ti = new SD({ period, values: [] });
        // A near-flat window is ill-conditioned for any O(1) method: there the match is absolute,
        // 1e-10 of the price level (documented in docs/indicators.md).
        const abs = 1e-10 * (xs[0] as number);
        expectSeriesClose(
          'SD',
          runOurs(new StdDev(period), xs),
          runTheirs((x) => ti.nextValue(x), xs),
          1e-9,
          abs,
        );
      });
      it(`Bollinger(${period}, 2) on ${name}`, () => {
        const ti = new TiBollinger({ period, stdDev: 2, values: [] });
        const ours = new BollingerBands({ period, stdDev: 2 });
        for (const x of xs) {
          const mid = ours.update(x);
          const theirs = ti.nextValue(x);
          expect(mid === undefined, 'warm-up').toBe(theirs === undefined);
          if (mid === undefined || theirs === undefined) continue;
          const tol = 1e-9 * Math.abs(theirs.middle);
          expect(Math.abs(ours.middle - theirs.middle)).toBeLessThanOrEqual(tol);
          expect(Math.abs(ours.upper - theirs.upper)).toBeLessThanOrEqual(tol);
          expect(Math.abs(ours.lower - theirs.lower)).toBeLessThanOrEqual(tol);
          // %b: technicalindicators gives NaN when the bands collapse; ours documents 0.5.
          if (Number.isNaN(theirs.pb)) expect(ours.percentB).toBe(0.5);
          else if (theirs.upper - theirs.lower > 1e-3 * theirs.middle) expect(Math.abs(ours.percentB - theirs.pb)).toBeLessThan(1e-7);
          expect(ours.bandwidth).toBeCloseTo((ours.upper - ours.lower) / ours.middle, 12);
        }
      });
    }
  }

  it('sample SD divides by period − 1', () => {
    const sd = new StdDev(4, { sample: true });
    for (const x of [2, 4, 4, 5]) sd.update(x);
    // mean 3.75, squared deviations 3.0625 + 0.0625 + 0.0625 + 1.5625 = 4.75
    expect(sd.value).toBeCloseTo(Math.sqrt(4.75 / 3), 14);
    expect(sd.variance).toBeCloseTo(4.75 / 3, 14);
    expect(sd.mean).toBe(3.75);
  });
});

describe('MACD matches technicalindicators 3.1.0 with EMA oscillator and signal', () => {
  const configs = [
    { fast: 12, slow: 26, signal: 9 },
    { fast: 3, slow: 10, signal: 16 },
    { fast: 1, slow: 2, signal: 1 },
  ];
  for (const [name, xs] of SERIES.slice(0, 3)) {
    for (const c of configs) {
      it(`MACD(${c.fast},${c.slow},${c.signal}) on ${name}`, () => {
        const ti = new MACD({
          values: [],
          fastPeriod: c.fast,
          slowPeriod: c.slow,
          signalPeriod: c.signal,
          SimpleMAOscillator: false,
          SimpleMASignal: false,
        });
        const ours = new Macd(c);
        const line: Array<number | undefined> = [];
        const signal: Array<number | undefined> = [];
        const hist: Array<number | undefined> = [];
        const tiLine: Array<number | undefined> = [];
        const tiSignal: Array<number | undefined> = [];
        const tiHist: Array<number | undefined> = [];
        for (const x of xs) {
          const r = ours.update(x);
          expect(r === undefined).toBe(!ours.ready);
          line.push(Number.isNaN(ours.line) ? undefined : ours.line);
          signal.push(Number.isNaN(ours.signal) ? undefined : ours.signal);
          hist.push(Number.isNaN(ours.histogram) ? undefined : ours.histogram);
          const t = ti.nextValue(x);
          tiLine.push(t?.MACD);
          tiSignal.push(t?.signal);
          tiHist.push(t?.histogram);
        }
        const abs = 1e-12 * (xs[0] as number); // line and histogram cross zero: compare to the price scale
        expectSeriesClose('MACD line', line, tiLine, 1e-9, abs);
        expectSeriesClose('MACD signal', signal, tiSignal, 1e-9, abs);
        expectSeriesClose('MACD histogram', hist, tiHist, 1e-9, abs);
        expect(firstDefined(signal)).toBe(ours.warmUp - 1);
      });
    }
  }

  it('on a constant series the line, signal and histogram are all 0 (technicalindicators: signal undefined)', () => {
    const ours = new Macd();
    const ti = new MACD({ values: [], fastPeriod: 12, slowPeriod: 26, signalPeriod: 9, SimpleMAOscillator: false, SimpleMASignal: false });
    let theirs: ReturnType<typeof ti.nextValue> | undefined;
    for (const x of constant(100, 60)) {
      ours.update(x);
      theirs = ti.nextValue(x);
    }
    expect(theirs?.signal).toBeUndefined(); // its `signal ? … : undefined` drops an exact 0
    expect(theirs?.MACD).toBe(0);
    expect(ours.ready).toBe(true);
    expect(ours.line).toBeCloseTo(0, 12);
    expect(ours.signal).toBeCloseTo(0, 12);
    expect(ours.histogram).toBeCloseTo(0, 12);
  });
});
