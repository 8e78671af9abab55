import { describe, expect, it } from 'vitest';
import { ATR, AverageGain, AverageLoss, Highest, Lowest, ROC, RSI } from 'technicalindicators';
import { constant, randomBars, randomWalk } from '../../test/indicators/series.js';
import { expectSeriesClose, firstDefined } from '../../test/indicators/compare.js';
import { Atr, Momentum, Roc, RollingMax, RollingMin, Rsi } from './index.js';
import type { Indicator } from './types.js';

// Our incremental outputs against technicalindicators 3.1.0's own incremental nextValue.

const SERIES: ReadonlyArray<[string, Float64Array]> = [
  ['walk seed 11', randomWalk(11, 3000)],
  ['walk seed 12 (volatile)', randomWalk(12, 3000, 50, 0.05)],
  ['walk at 60k', randomWalk(13, 3000, 60_000, 0.0005)],
  ['constant 7', constant(7, 100)],
  ['steady rise', Float64Array.from({ length: 100 }, (_, i) => 100 + i)],
  ['steady fall', Float64Array.from({ length: 100 }, (_, i) => 200 - i)],
];

function runOurs(ind: Indicator, xs: Float64Array): Array<number | undefined> {
  return Array.from(xs, (x) => ind.update(x));
}

describe('RSI (Wilder) matches technicalindicators 3.1.0', () => {
  for (const [name, xs] of SERIES) {
    for (const period of [2, 6, 14, 30]) {
      it(`RSI(${period}) on ${name}`, () => {
        const ti = new RSI({ period, values: [] });
        const gain = new AverageGain({ period, values: [] });
        const loss = new AverageLoss({ period, values: [] });
        const ours = new Rsi(period);
        const out: Array<number | undefined> = [];
        const rounded: Array<number | undefined> = [];
        const theirs: Array<number | undefined> = [];
        const avg: Array<number | undefined> = [];
        const tiAvg: Array<number | undefined> = [];
        for (const x of xs) {
          const v = ours.update(x);
          out.push(v);
          // technicalindicators rounds RSI to two decimals; ours does not, so round to compare.
          rounded.push(v === undefined ? undefined : parseFloat(v.toFixed(2)));
          theirs.push(ti.nextValue(x));
          avg.push(ours.ready ? ours.averageGain : undefined, ours.ready ? ours.averageLoss : undefined);
          tiAvg.push(gain.nextValue(x), loss.nextValue(x));
        }
        expect(rounded).toEqual(theirs);
        expectSeriesClose('RSI averages', avg, tiAvg, 1e-9, 1e-12 * (xs[0] as number));
        expect(firstDefined(out)).toBe(Math.min(period, xs.length));
      });
    }
  }

  it('gives 100 on a constant series and on a steady rise, 0 on a steady fall', () => {
    const flat = new Rsi(14);
    runOurs(flat, constant(5, 30));
    expect(flat.value).toBe(100);
    const rise = new Rsi(14);
    runOurs(rise, SERIES[4]![1]);
    expect(rise.value).toBe(100);
    const fall = new Rsi(14);
    runOurs(fall, SERIES[5]![1]);
    expect(fall.value).toBe(0);
  });

  it('hand-computed RSI(2) value', () => {
    const rsi = new Rsi(2);
    // changes +2, −1 → avg gain 1, avg loss 0.5 → RS 2 → RSI 66.67; then +1 → gain 1, loss 0.25 → RS 4 → 80
    expect(runOurs(rsi, Float64Array.of(10, 12, 11, 12))).toEqual([undefined, undefined, 100 - 100 / 3, 80]);
  });
});

describe('ATR matches technicalindicators 3.1.0', () => {
  for (const seed of [21, 22, 23]) {
    for (const period of [1, 5, 14, 30]) {
      it(`ATR(${period}) on bars seed ${seed}`, () => {
        const bars = randomBars(seed, 2000, seed === 23 ? 60_000 : 100);
        const ti = new ATR({ period, high: [], low: [], close: [] });
        const ours = new Atr(period);
        const a: Array<number | undefined> = [];
        const b: Array<number | undefined> = [];
        for (let i = 0; i < bars.close.length; i++) {
          const high = bars.high[i] as number;
          const low = bars.low[i] as number;
          const close = bars.close[i] as number;
          a.push(ours.update(high, low, close));
          b.push(ti.nextValue({ high, low, close }));
        }
        expectSeriesClose('ATR', a, b);
        expect(firstDefined(a)).toBe(period);
      });
    }
  }

  it('on a price-only stream, the true range is the absolute change', () => {
    const atr = new Atr(2);
    for (const p of [10, 12, 11]) atr.update(p, p, p);
    expect(atr.trueRange).toBe(1);
    expect(atr.value).toBe(1.5);
  });
});

describe('ROC, momentum and rolling extremes', () => {
  for (const [name, xs] of SERIES) {
    for (const period of [1, 3, 12, 50]) {
      it(`ROC(${period}) matches technicalindicators on ${name}`, () => {
        const ti = new ROC({ period, values: [] });
        expectSeriesClose(
          'ROC',
          runOurs(new Roc(period), xs),
          Array.from(xs, (x) => ti.nextValue(x)),
          1e-9,
          1e-12,
        );
      });
      it(`RollingMax/Min(${period}) match Highest/Lowest on ${name}`, () => {
        const hi = new Highest({ period, values: [] });
        const lo = new Lowest({ period, values: [] });
        expect(runOurs(new RollingMax(period), xs)).toEqual(Array.from(xs, (x) => hi.nextValue(x)));
        expect(runOurs(new RollingMin(period), xs)).toEqual(Array.from(xs, (x) => lo.nextValue(x)));
      });
    }
  }

  it('momentum is the change over the window', () => {
    expect(runOurs(new Momentum(2), Float64Array.of(1, 4, 9, 16))).toEqual([undefined, undefined, 8, 12]);
  });

  it('RollingMax reports how long ago its maximum arrived', () => {
    const max = new RollingMax(3);
    runOurs(max, Float64Array.of(5, 9, 1, 2));
    expect(max.value).toBe(9);
    expect(max.age).toBe(2);
    max.update(0);
    expect(max.value).toBe(2);
    expect(max.age).toBe(1);
  });
});
