/**
 * Bars in a backtest, through the same kernel as live: a series with OHLC columns (an OHLCV file)
 * hands each row to the declared series of its market as a bar at its own time (resampled into any
 * coarser timeframe, high, low and volume included), and a series of prices feeds them as points,
 * as a live run's polled prices do. Between two points the driver ticks the engine's clock at every
 * bar end, so a bar closes at its boundary as a live run's timer closes it: never later, and never
 * seen before.
 */
import type { BarFeed, Ohlcv } from '../src/bars/index.js';
import type { MarketSymbol } from '../src/core/index.js';
import type { PriceSeries, PriceSeriesLike } from '../src/sim/prices/price-data.js';
import type { BacktestBundle } from './driver.js';

/** The rows of an OHLCV series, as bars: a row's open, high, low, close (its price) and volume. */
export interface SeriesBars {
  readonly opens: Float64Array;
  readonly highs: Float64Array;
  readonly lows: Float64Array;
  readonly volumes: Float64Array | undefined;
  /** The rows' spacing, ms (the shortest step between two rows). */
  readonly spacingMs: number;
}

/**
 * Sets what the bars of `market` are built from: the file's rows when the series has OHLC columns
 * (checked against the declared timeframes), else its price points. Undefined when no strategy of
 * the run declares bars, or when the series has no OHLC columns (the points feed the bars then).
 */
export function barsOfSeries(feed: BarFeed | undefined, series: PriceSeriesLike, market: MarketSymbol): SeriesBars | undefined {
  if (feed === undefined || feed.inputOf(market) === undefined) return undefined;
  const s = series as Partial<PriceSeries>;
  if (s.opens === undefined || s.highs === undefined || s.lows === undefined || series.length < 2) return undefined;
  let spacingMs = Infinity;
  const t = series.times;
  for (let i = 1; i < t.length; i++) if (t[i]! - t[i - 1]! < spacingMs) spacingMs = t[i]! - t[i - 1]!;
  feed.use(market, 'bars', spacingMs);
  return { opens: s.opens, highs: s.highs, lows: s.lows, volumes: s.volumes, spacingMs };
}

/**
 * Ticks the engine at every bar end before `at` (the next point's time), settling what each bar's
 * decisions start. A bar ending at `at` itself is closed by that point (the engine closes it before
 * the point joins the bars and delivers it with the point as the market's state), so a decision at the
 * boundary sees the price of its own time, not one a bar's spacing old.
 */
export async function closeBarsUpTo(b: BacktestBundle, feed: BarFeed, at: number): Promise<void> {
  for (let end = feed.nextClose(); end !== undefined && end < at; end = feed.nextClose()) {
    b.clock.advanceTo(end);
    b.kernel.engine.tick(end);
    if (b.kernel.busy) await b.kernel.drain();
  }
}

/** Row `i` of the series as a bar (a reused object: the feed copies what it keeps). */
export function rowBar(bars: SeriesBars, prices: Float64Array, i: number, into: { -readonly [K in keyof Ohlcv]: number }): Ohlcv {
  into.open = bars.opens[i]!;
  into.high = bars.highs[i]!;
  into.low = bars.lows[i]!;
  into.close = prices[i]!;
  into.volume = bars.volumes?.[i] ?? 0;
  return into;
}
