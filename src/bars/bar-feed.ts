import { InputError } from '../core/index.js';
import type { Bar, Ohlcv } from './bar.js';
import { BarBuilder } from './bar-builder.js';
import { BarSeries, DEFAULT_BAR_CAPACITY } from './bar-series.js';
import { parseTimeframe, timeframeLabel, type Timeframe } from './timeframe.js';

/** One bar series a strategy declares: a market, a timeframe, and how many closed bars it keeps (at least). */
export interface BarNeed {
  readonly market: string;
  readonly timeframe: string;
  /** Closed bars kept for `ctx.bars` (default DEFAULT_BAR_CAPACITY, 500); the warm-up loads enough history to fill it. */
  readonly history?: number;
}

/**
 * What a market's bars are built from: the polled prices (`points`), the platform's recent trades
 * (`trades`: price and amount, so volume is real), or bars handed in (`bars`: an OHLCV file's rows).
 * Inputs of another kind are ignored for that market, so nothing is counted twice.
 */
export type BarInput = 'points' | 'trades' | 'bars';

interface MarketBars {
  input: BarInput;
  /** Shortest timeframe first: at a shared boundary the shorter bar is delivered first. */
  readonly builders: BarBuilder[];
}

/**
 * The bars of every declared series, built in every mode the same way: inputs (points, trades or
 * file bars) go in time order; `closeDue(now)` closes, at the engine's clock, each bar whose end has
 * come. A closed bar is pushed to its bounded series (`series`) and returned, in the order of their
 * close time, then the shorter timeframe first, then the order the markets were declared in.
 */
export class BarFeed {
  private readonly markets = new Map<string, MarketBars>();
  private readonly rings = new Map<string, BarSeries>();
  /** Bars an input closed (one at or after their end that came before the clock closed them). */
  private readonly closedByInput: Bar[] = [];
  private dropped = 0;

  constructor(needs: readonly BarNeed[]) {
    for (const n of needs) {
      const tf = parseTimeframe(n.timeframe, `bars[${n.market}].timeframe`);
      const key = keyOf(n.market, tf.name);
      if (n.history !== undefined && (!Number.isInteger(n.history) || n.history < 1))
        throw new InputError(
          `bars[${n.market} ${tf.name}].history`,
          `${String(n.history)} is not a count of bars: give a whole number from 1`,
        );
      const capacity = Math.max(n.history ?? DEFAULT_BAR_CAPACITY, this.rings.get(key)?.capacity ?? 1);
      if (this.rings.get(key)?.capacity !== capacity) this.rings.set(key, new BarSeries(n.market, tf.name, capacity));
      const m = this.markets.get(n.market) ?? { input: 'points' as BarInput, builders: [] };
      if (!m.builders.some((b) => b.timeframe.name === tf.name)) m.builders.push(new BarBuilder(n.market, tf));
      m.builders.sort((a, b) => a.timeframe.ms - b.timeframe.ms);
      this.markets.set(n.market, m);
    }
  }

  /** Each market with bars and its shortest declared timeframe (what a chart draws as candles), in declaration order. */
  shortest(): Array<{ readonly market: string; readonly timeframe: string }> {
    return [...this.markets].map(([market, m]) => ({ market, timeframe: m.builders[0]!.timeframe.name }));
  }

  /** Whether any series is declared. */
  get empty(): boolean {
    return this.markets.size === 0;
  }

  /** What `market`'s bars are built from (undefined: no series declared for it). */
  inputOf(market: string): BarInput | undefined {
    return this.markets.get(market)?.input;
  }

  /**
   * Builds `market`'s bars from `input` from now on. For `bars` of `spacingMs` (a file's rows), every
   * declared timeframe must be a whole multiple of the spacing: a coarser bar is made of whole rows.
   */
  use(market: string, input: BarInput, spacingMs?: number): void {
    const m = this.markets.get(market);
    if (m === undefined) return;
    if (input === 'bars' && spacingMs !== undefined) {
      for (const b of m.builders) {
        if (b.timeframe.ms % spacingMs === 0) continue;
        throw new InputError(
          'bars',
          `the data's bars are ${timeframeLabel(spacingMs)} apart, so ${b.timeframe.name} bars of ${market} cannot be made of whole rows: give data whose spacing divides ${b.timeframe.name} (e.g. 1m rows), or declare a coarser timeframe`,
        );
      }
    }
    m.input = input;
  }

  /** Closes every bar whose end is at or before `now`; returns them in delivery order. */
  closeDue(now: number): Bar[] {
    let out: Bar[] | undefined = this.closedByInput.length > 0 ? this.closedByInput.splice(0) : undefined;
    for (const m of this.markets.values()) {
      for (const b of m.builders) {
        const bar = b.closeDue(now);
        if (bar) (out ??= []).push(bar);
      }
    }
    if (out === undefined) return NONE;
    if (out.length > 1) out.sort((a, b) => a.closeTime - b.closeTime || a.closeTime - a.time - (b.closeTime - b.time));
    for (const bar of out) this.rings.get(keyOf(bar.market, bar.timeframe))!.push(bar);
    return out;
  }

  /** Earliest time a bar open now closes (the next boundary to tick at), or undefined when none is open. */
  nextClose(): number | undefined {
    let next: number | undefined;
    for (const m of this.markets.values()) {
      for (const b of m.builders) {
        const at = b.closesAt;
        if (at !== undefined && (next === undefined || at < next)) next = at;
      }
    }
    return next;
  }

  /**
   * A point (or a trade, with its amount as volume) of `market`, counted if `market` is built from
   * `kind`; a `history` point (warm-up) is counted whatever the market is built from.
   */
  point(market: string, kind: 'points' | 'trades' | 'history', at: number, price: number, volume = 0): void {
    const m = this.markets.get(market);
    if (m === undefined || (m.input !== kind && kind !== 'history')) return;
    // late for the shortest series is late for all: a coarser bar stays the sum of the finer ones
    if (m.builders[0]!.isLate(at)) {
      this.dropped++;
      return;
    }
    for (const b of m.builders) this.keep(b.addPoint(at, price, volume));
  }

  /** A bar starting at `at` handed in (a file's row), counted if `market` is built from bars. */
  bar(market: string, at: number, bar: Ohlcv): void {
    const m = this.markets.get(market);
    if (m === undefined || m.input !== 'bars') return;
    for (const b of m.builders) this.keep(b.addBar(at, bar));
  }

  private keep(closed: Bar | undefined): void {
    if (closed) this.closedByInput.push(closed);
  }

  /** The closed bars kept of a declared series, or undefined when it was not declared. */
  series(market: string, timeframe: string): BarSeries | undefined {
    return this.rings.get(keyOf(market, timeframe));
  }

  /** Inputs dropped for arriving after their bar had closed (late trades). */
  get late(): number {
    let n = this.dropped;
    for (const m of this.markets.values()) for (const b of m.builders) n += b.late;
    return n;
  }
}

const NONE: Bar[] = [];

function keyOf(market: string, timeframe: string): string {
  return `${market} ${timeframe}`;
}

/** The timeframes of `needs`, parsed (for a definition's check at load time). */
export function timeframesOf(needs: readonly BarNeed[]): Timeframe[] {
  return needs.map((n, i) => parseTimeframe(n.timeframe, `bars[${i}].timeframe`));
}
