import { describe, expect, it } from 'vitest';
import { CCI, SMA, Stochastic, TRIX, WilliamsR } from 'technicalindicators';
import { randomBars, randomWalk } from '../../test/indicators/series.js';
import { TiAdapter } from './ti-adapter.js';
import type { Indicator } from './types.js';

describe('TiAdapter puts technicalindicators behind the framework interface', () => {
  const xs = randomWalk(51, 600);

  it('wraps a number-in, number-out indicator as an Indicator (TRIX)', () => {
    const trix: Indicator = new TiAdapter({ name: 'TRIX(9)', period: 9, create: () => new TRIX({ period: 9, values: [] }) });
    const reference = TRIX.calculate({ period: 9, values: Array.from(xs) });
    const outs = Array.from(xs, (x) => trix.update(x)).filter((v) => v !== undefined);
    expect(outs).toEqual(reference);
    expect(trix.ready).toBe(true);
    expect(trix.value).toBe(reference.at(-1));
  });

  it('selects one field of an object output and keeps the raw output (Stochastic)', () => {
    const bars = randomBars(52, 300);
    type Bar = { high: number; low: number; close: number };
    // Stochastic's declared nextValue type asks for arrays; at run time it takes one bar.
    const makeStochastic = () => {
      const upstream = new Stochastic({ period: 14, signalPeriod: 3, high: [], low: [], close: [] });
      return { nextValue: (bar: Bar) => upstream.nextValue(bar as unknown as Parameters<Stochastic['nextValue']>[0]) };
    };
    const stoch = new TiAdapter({ name: 'Stochastic(14,3)', period: 14, create: makeStochastic, select: (o) => o.k });
    const ref = makeStochastic();
    let seen = 0;
    for (let i = 0; i < bars.close.length; i++) {
      const bar = { high: bars.high[i] as number, low: bars.low[i] as number, close: bars.close[i] as number };
      const expected = ref.nextValue(bar);
      expect(stoch.update(bar)).toBe(expected?.k);
      expect(stoch.output).toEqual(expected);
      if (expected !== undefined) seen++;
    }
    expect(seen).toBe(300 - 13);
  });

  it('candle inputs work too (CCI), and reset starts over', () => {
    const bars = randomBars(53, 200);
    const cci = new TiAdapter({ name: 'CCI(20)', period: 20, create: () => new CCI({ period: 20, high: [], low: [], close: [] }) });
    const feed = (): Array<number | undefined> =>
      Array.from(bars.close, (c, i) => cci.update({ high: bars.high[i] as number, low: bars.low[i] as number, close: c }));
    const first = feed();
    cci.reset();
    expect(cci.ready).toBe(false);
    expect(feed()).toEqual(first);
  });

  it('rebuilding with the kept inputs gives the same outputs for a finite window (SMA, WilliamsR)', () => {
    const long = randomWalk(54, 5000);
    const plain = new SMA({ period: 20, values: [] });
    const bounded = new TiAdapter({
      name: 'SMA(20)',
      period: 20,
      create: () => new SMA({ period: 20, values: [] }),
      rebuild: { everyUpdates: 300, keepInputs: 40 },
    });
    for (const x of long) {
      const expected = plain.nextValue(x);
      const got = bounded.update(x);
      if (expected === undefined) expect(got).toBeUndefined();
      else expect(Math.abs((got as number) - expected)).toBeLessThan(1e-9);
    }
    const bars = randomBars(55, 3000);
    type Bar = { high: number; low: number; close: number };
    // WilliamsR's declared nextValue type says number; at run time it takes one bar.
    const makeWr = () => {
      const upstream = new WilliamsR({ period: 14, high: [], low: [], close: [] });
      return { nextValue: (bar: Bar) => upstream.nextValue(bar as unknown as number) };
    };
    const wr = makeWr();
    const wrBounded = new TiAdapter({
      name: 'WilliamsR(14)',
      period: 14,
      create: makeWr,
      rebuild: { everyUpdates: 100, keepInputs: 14 },
    });
    for (let i = 0; i < bars.close.length; i++) {
      const bar = { high: bars.high[i] as number, low: bars.low[i] as number, close: bars.close[i] as number };
      expect(wrBounded.update(bar)).toBe(wr.nextValue(bar));
    }
  });

  it('rejects a missing select on object outputs and bad rebuild settings, naming the field', () => {
    const noSelect = new TiAdapter<number, unknown>({
      name: 'Odd',
      period: 1,
      create: () => ({ nextValue: () => ({ k: 1 }) }),
      select: undefined as never,
    });
    expect(() => noSelect.update(1)).toThrow(/select: Odd returns object outputs; pass select/);
    const make = () => new SMA({ period: 20, values: [] });
    expect(() => new TiAdapter({ name: 'S', period: 20, create: make, rebuild: { everyUpdates: 100, keepInputs: 5 } })).toThrow(
      /rebuild.keepInputs: must be an integer ≥ 20/,
    );
    expect(() => new TiAdapter({ name: 'S', period: 20, create: make, rebuild: { everyUpdates: 10, keepInputs: 20 } })).toThrow(
      /rebuild.everyUpdates: must be an integer ≥ 20/,
    );
  });
});
