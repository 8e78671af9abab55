import { describe, expect, it } from 'vitest';
import { backtestStrategy } from '../../backtest/testkit.js';
import { defineStrategy, z, type StrategyDefinition } from '../index.js';
import { LIVE_PLOT_POINTS, PlotBook } from './plots.js';

const M = 'BTCUSD';

/** A strategy that plots `values(price)` at every price point, by name. */
function plotter(values: (price: number) => Record<string, unknown>): StrategyDefinition {
  return defineStrategy({
    name: 'plotter',
    description: 'plots at every point',
    params: z.object({}),
    markets: [M],
    plots: { band: { pane: 'own', color: '#123456' } },
    create: () => ({
      onEvent(e, ctx) {
        if (e.kind !== 'price') return;
        for (const [name, v] of Object.entries(values(e.price))) ctx.plot(M, name, v as number);
      },
    }),
  });
}

describe('ctx.plot: what a strategy may record', () => {
  it('keeps a finite value; NaN, undefined and null are a gap (null); a second value at one time replaces the first', () => {
    const book = new PlotBook();
    book.record('s', M, 'fast', 1_000, 10.5);
    book.record('s', M, 'fast', 2_000, NaN);
    book.record('s', M, 'fast', 3_000, undefined);
    book.record('s', M, 'fast', 4_000, 1);
    book.record('s', M, 'fast', 4_000, 2);
    expect(book.snapshot()).toEqual([
      {
        strategy: 's',
        market: M,
        name: 'fast',
        pane: 'price',
        points: [
          [1_000, 10.5],
          [2_000, null],
          [3_000, null],
          [4_000, 2],
        ],
      },
    ]);
  });

  it('refuses Infinity, a string or a Decimal-like object, naming the call and the fix', () => {
    const book = new PlotBook();
    expect(() => book.record('s', M, 'fast', 1, Infinity)).toThrow(
      'ctx.plot("BTCUSD", "fast", Infinity): the value must be a finite number (NaN or undefined for no value at this time)',
    );
    expect(() => book.record('s', M, 'fast', 1, '10')).toThrow(/ctx\.plot\("BTCUSD", "fast", "10"\): the value must be a finite number/);
    expect(() => book.record('s', M, 'fast', 1, Object.create(null))).toThrow(/ctx\.plot\("BTCUSD", "fast", an object\)/);
    expect(book.empty).toBe(true); // a refused call keeps nothing
  });

  it('takes names of 1 to 40 characters of [A-Za-z0-9_ .-] and at most 8 names per strategy and market', () => {
    const book = new PlotBook();
    for (const name of ['a', 'EMA 20', 'upper_band-1.5', 'x'.repeat(40)]) book.record('s', M, name, 1, 1);
    for (const bad of ['', 'x'.repeat(41), 'rsi/14', 'β'])
      expect(() => book.record('s', M, bad, 1, 1)).toThrow(/is not a series name: give 1 to 40/);
    for (const name of ['e', 'f', 'g', 'h']) book.record('s', M, name, 1, 1);
    expect(() => book.record('s', M, 'ninth', 1, 1)).toThrow(/at most 8 series per market may be plotted; plot fewer names in BTCUSD/);
    book.record('s', M, 'a', 2, 1); // a known name still records
    book.record('s', 'ETHUSD', 'ninth', 1, 1); // another market has its own 8
    book.record('other', M, 'ninth', 1, 1); // and another strategy
    expect(() => book.record('s', '', 'a', 1, 1)).toThrow(/the market must be a market symbol/);
  });

  it('a bad plot stops the strategy like a throw, naming the handler and the call', async () => {
    const r = await backtestStrategy(
      plotter((p) => ({ fast: p > 101 ? Infinity : p })),
      { prices: [100, 101, 102, 103] },
    );
    expect(r.strategyStopped).toMatch(/^onEvent threw: ctx\.plot\("BTCUSD", "fast", Infinity\): the value must be a finite number/);
    const nine = await backtestStrategy(
      plotter(() => Object.fromEntries([...'abcdefghi'].map((n) => [n, 1]))),
      { prices: [100, 101] },
    );
    expect(nine.strategyStopped).toMatch(/ctx\.plot\("BTCUSD", "i", 1\): at most 8 series per market/);
  });
});

describe('PlotBook: bounded live, complete in a backtest', () => {
  it(`keeps the latest ${LIVE_PLOT_POINTS} points of a series live (a ring), oldest first`, () => {
    const book = new PlotBook();
    for (let i = 0; i < LIVE_PLOT_POINTS + 500; i++) book.record('s', M, 'v', i * 1_000, i);
    const [s] = book.snapshot();
    expect(s!.points).toHaveLength(LIVE_PLOT_POINTS);
    expect(s!.points[0]).toEqual([500_000, 500]);
    expect(s!.points.at(-1)).toEqual([(LIVE_PLOT_POINTS + 499) * 1_000, LIVE_PLOT_POINTS + 499]);
    expect(book.snapshot(3)[0]!.points.map((p) => p[1])).toEqual([LIVE_PLOT_POINTS + 497, LIVE_PLOT_POINTS + 498, LIVE_PLOT_POINTS + 499]);
  });

  it('keeps every point with capacity Infinity and none with 0 (the names are still checked)', () => {
    const all = new PlotBook({ capacity: Infinity });
    const none = new PlotBook({ capacity: 0 });
    for (let i = 0; i < 10_000; i++) for (const b of [all, none]) b.record('s', M, 'v', i, i % 7 === 0 ? NaN : i);
    const [c] = all.columns();
    expect(c!.times.length).toBe(10_000);
    expect([c!.times[9_999], c!.values[9_999], c!.values[7]]).toEqual([9_999, 9_999, NaN]);
    expect(none.columns()[0]!.times.length).toBe(0);
    expect(() => none.record('s', M, 'bad/name', 1, 1)).toThrow(/not a series name/);
    expect(() => new PlotBook({ capacity: -1 })).toThrow(/plot capacity -1/);
  });

  it('a recorder finds each series by the market and name given, in any order, whatever string carries them', () => {
    const book = new PlotBook({ capacity: Infinity, expectedPoints: 2 });
    const plot = book.recorder('s');
    // the same names built anew at each call (not the strings first given), plotted in a changing order,
    // in two markets, with gaps; and a series another recorder of the strategy made
    book.record('s', M, 'other', 0, 0);
    for (let i = 0; i < 6; i++) {
      const names = i % 2 === 0 ? ['fa', 'sl'] : ['sl', 'fa'];
      for (const n of names) plot(`BTC${'USD'.slice(0, 3)}`, `${n}${'st'.slice(0, 2)}`, i * 1_000, i === 3 ? NaN : i + n.length);
      plot('ETHUSD', 'fast', i * 1_000, -i);
      plot(M, 'other', i * 1_000, i === 4 ? undefined : 10 * i);
    }
    expect(book.snapshot().map((s) => [s.market, s.name, s.points.map((p) => p[1])])).toEqual([
      [M, 'other', [0, 10, 20, 30, null, 50]],
      [M, 'fast', [2, 3, 4, null, 6, 7]],
      [M, 'slst', [2, 3, 4, null, 6, 7]],
      ['ETHUSD', 'fast', [-0, -1, -2, -3, -4, -5]],
    ]);
    // a known name is still refused a bad value, and an unknown one is still checked
    expect(() => plot(M, 'fast', 9_000, Infinity)).toThrow(/the value must be a finite number/);
    expect(() => plot(M, 'bad/name', 9_000, 1)).toThrow(/not a series name/);
    expect(() => plot('', 'fast', 9_000, 1)).toThrow(/the market must be a market symbol/);
  });

  it('a backtest keeps every point, with the pane and colour the definition declares', async () => {
    const prices = Array.from({ length: LIVE_PLOT_POINTS + 100 }, (_, i) => 100 + (i % 10));
    const r = await backtestStrategy(
      plotter((p) => ({ band: p - 100, raw: p })),
      { prices },
    );
    expect(r.plots.map((s) => [s.name, s.pane, s.color, s.points.length])).toEqual([
      ['band', 'own', '#123456', prices.length],
      ['raw', 'price', undefined, prices.length],
    ]);
    expect(r.plots[1]!.points[5]).toEqual([Date.UTC(2025, 0, 1) + 5 * 60_000, 105]);
  });
});

describe('the plots declaration', () => {
  it('is checked at load time, naming the field and the fix', () => {
    const base = { name: 'p', description: 'd', params: z.object({}), markets: [M], create: () => ({}) };
    expect(() => defineStrategy({ ...base, plots: { rsi: { pane: 'below' as never } } })).toThrow(
      /plots\.rsi\.pane: 'price' or 'own', not "below"/,
    );
    expect(() => defineStrategy({ ...base, plots: { rsi: { color: 'url(x);' } } })).toThrow(/plots\.rsi\.color: a CSS colour/);
    expect(() => defineStrategy({ ...base, plots: { 'a/b': {} } })).toThrow(/plots: the name "a\/b" is not a series name/);
    expect(() => defineStrategy({ ...base, plots: { rsi: { pane: 'own', color: 'rgb(1, 2, 3)' } } })).not.toThrow();
  });
});
