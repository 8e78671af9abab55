/**
 * Several markets' price series replayed as one stream, merged by time in one pass. The rules (also
 * in docs/backtest.md, "Portfolio backtests"):
 *
 * - Points are taken oldest first across all markets.
 * - Equal timestamps: the markets' points at one time go in the order the markets are given (the
 *   config's order: the first strategy's markets first, then the next strategy's new ones).
 * - Different spacings and gaps need no alignment: each market moves at its own points only, and its
 *   last price holds (marks the account, prices its orders) until its next point.
 * - A market's series must rise strictly in time; a file with a duplicate timestamp is refused when
 *   it loads (naming the line), before any replay.
 *
 * `next()` allocates nothing: a cursor per market and a linear scan over the markets (a handful).
 */
import type { MarketSymbol } from '../src/core/index.js';

/** One market's points, oldest first. */
export interface MarketSeries {
  readonly market: MarketSymbol;
  readonly times: Float64Array;
  readonly prices: Float64Array;
  /** Where the points came from, for the manifest. */
  readonly source: string;
  /** An OHLCV file's other columns (its prices are the closes): each point is then a bar, filled inside. */
  readonly opens?: Float64Array;
  readonly highs?: Float64Array;
  readonly lows?: Float64Array;
  readonly volumes?: Float64Array;
}

export class MergedSeries {
  private readonly cursors: Int32Array;
  /** Points of all markets together. */
  readonly total: number;
  /** The point `next()` returned last: its market's index and the point's index in that market. */
  point = -1;

  constructor(readonly series: readonly MarketSeries[]) {
    this.cursors = new Int32Array(series.length);
    this.total = series.reduce((n, s) => n + s.times.length, 0);
  }

  /** The market index of the next point (earliest time; the first market listed on a tie), or -1 at the end. */
  next(): number {
    let best = -1;
    let bestAt = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.series.length; k++) {
      const i = this.cursors[k]!;
      const times = this.series[k]!.times;
      if (i < times.length && times[i]! < bestAt) {
        bestAt = times[i]!;
        best = k;
      }
    }
    if (best >= 0) this.point = this.cursors[best]!++;
    return best;
  }

  /** Starts again from the first point. */
  rewind(): void {
    this.cursors.fill(0);
    this.point = -1;
  }
}
