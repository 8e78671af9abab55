/**
 * Bars in a backtest: an OHLCV file's rows are the bars (their high, low and volume, not only the
 * close), resampled to the coarser declared timeframes and closed at their end on the test clock;
 * and no bar is seen before it closes: every decision is the same when the data after it is cut off.
 */
import { describe, expect, it } from 'vitest';
import { runBacktest, type BacktestRun } from '../../backtest/run.js';
import { resample, parseTimeframe, type Bar } from '../../src/bars/index.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { PriceSeries } from '../../src/sim/prices/price-data.js';
import { defineStrategy, resolveParams } from '../../src/strategy/index.js';
import { z } from 'zod';
import donchian from '../../strategies/donchian-breakout.js';
import { randomWalk } from '../support/walk.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);
const risk = RiskLimitsSchema.parse({
  stale_after_ms: 10 * 24 * HOUR,
  max_intents_per_minute: 600,
  max_order_notional: '10000000',
  price_band_bps: 5_000,
});

/** An hourly OHLCV series around a seeded walk: each row's high and low away from its open and close. */
function ohlcv(n: number, seed: number): PriceSeries {
  const walk = randomWalk(n + 1, seed, { start: 100, vol: 0.04, from: T0, stepMs: HOUR });
  const opens = walk.prices.subarray(0, n).slice();
  const prices = walk.prices.subarray(1, n + 1).slice();
  const highs = opens.map((o, i) => Math.max(o, prices[i]!) + 1 + (i % 3));
  const lows = opens.map((o, i) => Math.min(o, prices[i]!) - 1 - (i % 2));
  const volumes = opens.map((_, i) => 1 + (i % 5));
  return { source: `ohlcv ${seed}`, length: n, times: walk.times.subarray(0, n).slice(), prices, opens, highs, lows, volumes };
}

function probe(seen: Bar[], at: number[]) {
  return defineStrategy({
    name: 'bar-recorder',
    description: 'records the bars it hears',
    params: z.object({}),
    markets: ['BTCUSD'],
    bars: [
      { market: 'BTCUSD', timeframe: '4h' },
      { market: 'BTCUSD', timeframe: '1h' },
      { market: 'BTCUSD', timeframe: '1d' },
    ],
    create: () => ({
      onBar(bar, ctx) {
        seen.push(bar);
        at.push(ctx.now());
      },
    }),
  });
}

describe('bars from an OHLCV file in a backtest', () => {
  it("are the file's rows, resampled to 4h and 1d with their high, low and volume, each heard at its end", async () => {
    const series = ohlcv(60, 5);
    const seen: Bar[] = [];
    const at: number[] = [];
    const definition = probe(seen, at);
    await runBacktest({ definition, params: resolveParams(definition, {}), series, limits: risk });
    const rows: Bar[] = Array.from({ length: series.length }, (_, i) => ({
      market: 'BTCUSD',
      timeframe: '1h',
      time: series.times[i]!,
      closeTime: series.times[i]! + HOUR,
      open: series.opens![i]!,
      high: series.highs![i]!,
      low: series.lows![i]!,
      close: series.prices[i]!,
      volume: series.volumes![i]!,
    }));
    // the last row's bar ends after the last point: it never closes in the replay
    const closed = (tf: string) => seen.filter((b) => b.timeframe === tf);
    expect(closed('1h')).toEqual(rows.slice(0, -1));
    const fourHours = resample(rows, parseTimeframe('4h')).filter((b) => b.closeTime <= series.times[series.length - 1]!);
    expect(closed('4h')).toEqual(fourHours);
    expect(closed('1d')).toEqual(resample(rows, parseTimeframe('1d')).slice(0, 2));
    expect(closed('1d')[0]).toMatchObject({
      high: Math.max(...series.highs!.subarray(0, 24)),
      volume: series.volumes!.subarray(0, 24).reduce((a, b) => a + b, 0),
    });
    seen.forEach((b, i) => expect(at[i], `${b.timeframe} bar of ${new Date(b.time).toISOString()}`).toBe(b.closeTime));
    // at a shared boundary: 1h, then 4h, then 1d
    const midnight = seen.filter((b) => b.closeTime === T0 + 24 * HOUR).map((b) => b.timeframe);
    expect(midnight).toEqual(['1h', '4h', '1d']);
  });

  it('refuses declared bars the rows cannot make whole, naming the spacing', async () => {
    const series = ohlcv(10, 5);
    const definition = defineStrategy({
      name: 'five',
      description: 'x',
      params: z.object({}),
      markets: ['BTCUSD'],
      bars: [{ market: 'BTCUSD', timeframe: '5m' }],
      create: () => ({}),
    });
    await expect(runBacktest({ definition, params: {}, series, limits: risk })).rejects.toThrow(
      /the data's bars are 1h apart, so 5m bars of BTCUSD cannot be made of whole rows/,
    );
  });
});

describe('no look-ahead', () => {
  const trace = (run: BacktestRun) => run.intents.map((t) => `${new Date(t.at).toISOString()} ${t.kind} ${t.side} ${t.outcome}`);

  /**
   * The series cut off at `at`: the points before it, and one point at `at` whose price, open, high,
   * low and volume are wild (the boundary where the decision was made must be reached, and what comes
   * at it must not count in the decision).
   */
  function cutAt(series: PriceSeries, at: number): PriceSeries {
    let n = 0;
    while (n < series.length && series.times[n]! < at) n++;
    const cut = (a: Float64Array | undefined, wild: number) => a && Float64Array.from([...a.subarray(0, n), wild]);
    return {
      source: `${series.source} cut at ${new Date(at).toISOString()}`,
      length: n + 1,
      times: cut(series.times, at)!,
      prices: cut(series.prices, 1_000)!,
      ...(series.opens && {
        opens: cut(series.opens, 5)!,
        highs: cut(series.highs, 2_000)!,
        lows: cut(series.lows, 1)!,
        volumes: cut(series.volumes, 1e6)!,
      }),
    };
  }

  it(
    'donchian-breakout decides the same at every decision when the data after it is cut off (OHLCV and points)',
    { timeout: 120_000 },
    async () => {
      const params = resolveParams(donchian, { entry: 5, exit: 3, trend: 2, size_pct: 50 });
      const withBars = ohlcv(400, 11);
      const points: PriceSeries = { source: 'points', length: withBars.length, times: withBars.times, prices: withBars.prices };
      for (const series of [withBars, points]) {
        const full = await runBacktest({ definition: donchian, params, series, limits: risk });
        const decisions = trace(full);
        expect(decisions.length, series.source).toBeGreaterThan(2);
        for (const [k, d] of full.intents.entries()) {
          const cut = await runBacktest({ definition: donchian, params, series: cutAt(series, d.at), limits: risk });
          expect(trace(cut).slice(0, k + 1), `${series.source}: decision ${k}`).toEqual(decisions.slice(0, k + 1));
        }
      }
    },
  );
});

describe('a bar strategy in a backtest under the default limits', () => {
  // a bar ending at a row's time is heard with that row as the market's state: the price a decision at
  // the boundary sees is of its own time, so the stale-data check (15 s by default) passes on hourly data
  it('trades: no decision denied as stale, round trips made', async () => {
    const series = ohlcv(400, 9);
    const run = await runBacktest({
      definition: donchian,
      params: resolveParams(donchian, {}),
      series,
      limits: RiskLimitsSchema.parse({}),
    });
    expect(run.decisions['STALE_DATA']).toBeUndefined();
    expect(run.decisions['approve']).toBeGreaterThan(0);
    expect(run.trades.length).toBeGreaterThan(0);
  });
});
