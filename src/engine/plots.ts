/**
 * The indicator series strategies plot (`ctx.plot`), kept by the kernel for the dashboard and the
 * backtest report. A live run keeps the last points of each series (a ring, bounded memory over a
 * run of weeks); a backtest keeps every point (the report downsamples them as it does equity).
 */
import type { MarketSymbol } from '../core/index.js';
import { plotValue, type PlotPane, type PlotSeries, type PlotStyle } from '../strategy/plots.js';

export type { PlotPane, PlotSeries, PlotStyle } from '../strategy/plots.js';

/** Points kept per series in a live run. */
export const LIVE_PLOT_POINTS = 2_000;

export interface PlotBookOptions {
  /** Points kept per series: the latest this many (default LIVE_PLOT_POINTS); Infinity keeps all, 0 none. */
  readonly capacity?: number;
  /** Each strategy's `plots` declaration, by strategy name: how its series are drawn. */
  readonly styles?: ReadonlyMap<string, Readonly<Record<string, PlotStyle>> | undefined>;
  /**
   * With an unbounded capacity, how many points a series may get (a backtest's point count): each
   * series is made that large at once rather than grown by doubling as points come (its memory is
   * only touched as far as it is written).
   */
  readonly expectedPoints?: number;
}

/** One series' points as columns: time (epoch ms) and value (NaN for a gap), oldest first. */
export interface PlotColumns {
  readonly strategy: string;
  readonly market: MarketSymbol;
  readonly name: string;
  readonly pane: PlotPane;
  readonly color?: string;
  readonly times: Float64Array;
  readonly values: Float64Array;
}

/** A series a recorder has made, with the market and name it was first given (see `PlotBook.recorder`). */
interface Known {
  readonly market: string;
  readonly name: string;
  readonly points: Points;
}

/** Series a recorder finds without a map read (8 per market: a strategy of a few markets). */
const KNOWN_KEPT = 32;

/** The points of one series: a ring of `capacity`, or growing when unbounded. */
class Points {
  times: Float64Array;
  values: Float64Array;
  start = 0;
  count = 0;

  constructor(
    private readonly capacity: number,
    expected = 64,
  ) {
    const size = Number.isFinite(capacity) ? capacity : Math.max(1, expected);
    this.times = new Float64Array(size);
    this.values = new Float64Array(size);
  }

  add(time: number, value: number): void {
    if (this.capacity === 0) return;
    const size = this.times.length;
    const count = this.count;
    if (count > 0) {
      const end = this.start + count - 1;
      const last = end < size ? end : end - size;
      // a second value at one time (onEvent then onBar at a boundary) replaces the first
      if (this.times[last] === time) {
        this.values[last] = value;
        return;
      }
    }
    if (count === size && !Number.isFinite(this.capacity)) this.grow();
    const end = this.start + count;
    const at = end < this.times.length ? end : end - this.times.length;
    this.times[at] = time;
    this.values[at] = value;
    if (count < this.times.length) this.count = count + 1;
    else this.start = this.start + 1 < this.times.length ? this.start + 1 : 0;
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2);
    const values = new Float64Array(this.values.length * 2);
    times.set(this.times);
    values.set(this.values); // start stays 0 while growing: never wrapped
    this.times = times;
    this.values = values;
  }

  /** The latest `limit` points, oldest first. */
  columns(limit = Infinity): { times: Float64Array; values: Float64Array } {
    const n = Math.min(this.count, limit);
    const times = new Float64Array(n);
    const values = new Float64Array(n);
    const size = this.times.length;
    for (let k = 0, i = this.count - n; k < n; k++, i++) {
      const at = (this.start + i) % size;
      times[k] = this.times[at]!;
      values[k] = this.values[at]!;
    }
    return { times, values };
  }
}

/**
 * The series of every strategy: `record` is what `ctx.plot` calls (checking the market, name and
 * value, see plotValue); `snapshot` gives the dashboard and the report what to draw.
 */
export class PlotBook {
  private readonly capacity: number;
  /** strategy → market → name → points, in the order first plotted. */
  private readonly series = new Map<string, Map<string, Map<string, Points>>>();

  constructor(private readonly options: PlotBookOptions = {}) {
    const capacity = options.capacity ?? LIVE_PLOT_POINTS;
    if (!(capacity >= 0) || (Number.isFinite(capacity) && !Number.isInteger(capacity)))
      throw new RangeError(`plot capacity ${capacity}: give a whole number of points, Infinity or 0`);
    this.capacity = capacity;
  }

  /** Records `value` of `strategy`'s series `name` in `market` at `time`; throws a TypeError for a bad call. */
  record(strategy: string, market: MarketSymbol, name: string, time: number, value: unknown): void {
    this.recorder(strategy)(market, name, time, value);
  }

  /**
   * `record` for one strategy, its lookup done once (the engine's `ctx.plot` holds one). The series
   * it has recorded are kept in the order first plotted, with the market and name they were given:
   * a strategy plots the same few series at every point with the same strings, so the usual call (a
   * known series, a finite number) finds its series by comparing two strings, starting with the one
   * after the series of the previous call (the order a strategy plots in), without a map read.
   */
  recorder(strategy: string): (market: MarketSymbol, name: string, time: number, value: unknown) => void {
    let markets = this.series.get(strategy);
    const known: Known[] = [];
    let next = 0;
    return (market, name, time, value) => {
      if (typeof value === 'number' && value - value === 0) {
        const n = known.length;
        if (next < n) {
          const k = known[next]!;
          if (k.market === market && k.name === name) {
            next = next + 1 < n ? next + 1 : 0;
            k.points.add(time, value);
            return;
          }
        }
        for (let i = 0; i < n; i++) {
          const k = known[i]!;
          if (k.market === market && k.name === name) {
            next = i + 1 < n ? i + 1 : 0;
            k.points.add(time, value);
            return;
          }
        }
      }
      // the strategy's series may have been started since (by `record`)
      markets ??= this.series.get(strategy);
      const names = markets?.get(market);
      const points = names?.get(name);
      const v = plotValue(market, name, value, points !== undefined, names?.size ?? 0);
      if (points !== undefined) {
        // a series another recorder made (a finite value missed it above): found without a map read from now on
        if (v !== null && known.length < KNOWN_KEPT) known.push({ market, name, points });
        points.add(time, v ?? NaN);
        return;
      }
      if (markets === undefined) this.series.set(strategy, (markets = new Map()));
      let named = names;
      if (named === undefined) markets.set(market, (named = new Map()));
      const created = new Points(this.capacity, this.options.expectedPoints);
      named.set(name, created);
      if (known.length < KNOWN_KEPT) known.push({ market, name, points: created });
      created.add(time, v ?? NaN);
    };
  }

  /** Whether any series has been plotted. */
  get empty(): boolean {
    return this.series.size === 0;
  }

  /** Every series as columns (the latest `limitPerSeries` points of each), for the report's downsampling. */
  columns(limitPerSeries?: number): PlotColumns[] {
    const out: PlotColumns[] = [];
    for (const [strategy, markets] of this.series)
      for (const [market, names] of markets)
        for (const [name, points] of names) {
          const style = this.options.styles?.get(strategy)?.[name];
          out.push({
            strategy,
            market,
            name,
            pane: style?.pane ?? 'price',
            ...(style?.color !== undefined && { color: style.color }),
            ...points.columns(limitPerSeries),
          });
        }
    return out;
  }

  /** Every series with its latest `limitPerSeries` points (all that are kept by default), gaps as null. */
  snapshot(limitPerSeries?: number): PlotSeries[] {
    return this.columns(limitPerSeries).map(seriesOf);
  }
}

/** A series' columns as points `[time, value]`, gaps as null. */
export function seriesOf({ times, values, ...series }: PlotColumns): PlotSeries {
  return { ...series, points: Array.from(times, (t, i) => [t, Number.isNaN(values[i]!) ? null : values[i]!] as [number, number | null]) };
}
