/**
 * Candles and plotted series for the report's charts. A bar strategy's run keeps the bars of its
 * shortest declared timeframe per market as they close (`CandleTape`, columns of floats); the report
 * merges runs of neighbouring candles into one when there are more than a chart can show (open of the
 * first, highest high, lowest low, close of the last: no spike is lost), and downsamples the plotted
 * series by min/max as it does equity.
 */
import { parseTimeframe, type Bar, type BarNeed } from '../../src/bars/index.js';
import type { PlotColumns } from '../../src/engine/plots.js';
import { minMaxIndices, pick } from '../downsample.js';

/** One market's candles at one timeframe, oldest first; times are the bars' starts (epoch ms). */
export interface CandleColumns {
  readonly market: string;
  readonly timeframe: string;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
}

/** Candles as the page draws them: times in epoch seconds, `spacing` the width of one (seconds). */
export interface CandleChart {
  readonly timeframe: string;
  readonly spacing: number;
  readonly t: number[];
  readonly o: number[];
  readonly h: number[];
  readonly l: number[];
  readonly c: number[];
}

/** A plotted series as the page draws it: times in epoch seconds, null for a gap. */
export interface PlotLine {
  readonly label: string;
  readonly color?: string;
  readonly t: number[];
  readonly v: (number | null)[];
}

const FIELDS = ['time', 'open', 'high', 'low', 'close'] as const;

/** Keeps each market's bars of its shortest declared timeframe as they close. */
export class CandleTape {
  private readonly wanted = new Map<string, string>();
  private readonly kept = new Map<string, { n: number; cols: Record<(typeof FIELDS)[number], Float64Array> }>();

  constructor(needs: readonly BarNeed[]) {
    for (const n of needs) {
      const had = this.wanted.get(n.market);
      if (had === undefined || parseTimeframe(n.timeframe).ms < parseTimeframe(had).ms) this.wanted.set(n.market, n.timeframe);
    }
  }

  get empty(): boolean {
    return this.wanted.size === 0;
  }

  add(bar: Bar): void {
    if (this.wanted.get(bar.market) !== bar.timeframe) return;
    let k = this.kept.get(bar.market);
    if (k === undefined) {
      k = {
        n: 0,
        cols: {
          time: new Float64Array(256),
          open: new Float64Array(256),
          high: new Float64Array(256),
          low: new Float64Array(256),
          close: new Float64Array(256),
        },
      };
      this.kept.set(bar.market, k);
    }
    if (k.n === k.cols.time.length)
      for (const f of FIELDS) {
        const grown = new Float64Array(k.n * 2);
        grown.set(k.cols[f]);
        k.cols[f] = grown;
      }
    const i = k.n++;
    k.cols.time[i] = bar.time;
    k.cols.open[i] = bar.open;
    k.cols.high[i] = bar.high;
    k.cols.low[i] = bar.low;
    k.cols.close[i] = bar.close;
  }

  /** Each market's candles (markets with no closed bar left out). */
  columns(): CandleColumns[] {
    return [...this.kept].map(([market, { n, cols }]) => ({
      market,
      timeframe: this.wanted.get(market)!,
      time: cols.time.subarray(0, n),
      open: cols.open.subarray(0, n),
      high: cols.high.subarray(0, n),
      low: cols.low.subarray(0, n),
      close: cols.close.subarray(0, n),
    }));
  }
}

/** At most about `max` candles: runs of `ceil(n / max)` neighbours merged into one. */
export function candleChart(c: CandleColumns, max: number): CandleChart {
  const n = c.time.length;
  const group = Math.max(1, Math.ceil(n / Math.max(1, max)));
  const chart: CandleChart = {
    timeframe: c.timeframe,
    spacing: (parseTimeframe(c.timeframe).ms * group) / 1000,
    t: [],
    o: [],
    h: [],
    l: [],
    c: [],
  };
  for (let from = 0; from < n; from += group) {
    const to = Math.min(n, from + group);
    let high = -Infinity;
    let low = Infinity;
    for (let i = from; i < to; i++) {
      if (c.high[i]! > high) high = c.high[i]!;
      if (c.low[i]! < low) low = c.low[i]!;
    }
    chart.t.push(c.time[from]! / 1000);
    chart.o.push(c.open[from]!);
    chart.h.push(high);
    chart.l.push(low);
    chart.c.push(c.close[to - 1]!);
  }
  return chart;
}

/** The plotted series of `market` in `pane`, each min/max-downsampled to `max` points; labels name the strategy when `withStrategy`. */
export function plotLines(
  plots: readonly PlotColumns[],
  market: string,
  pane: 'price' | 'own',
  max: number,
  withStrategy = false,
): PlotLine[] {
  return plots
    .filter((p) => p.market === market && p.pane === pane)
    .map((p) => {
      const keep = minMaxIndices(p.times.length, [p.values], max);
      return {
        label: withStrategy ? `${p.strategy} ${p.name}` : p.name,
        ...(p.color !== undefined && { color: p.color }),
        t: pick(p.times, keep, 1e-3),
        v: pick(p.values, keep).map((v) => (Number.isNaN(v) ? null : v)),
      };
    });
}
