import type { Bar, Ohlcv } from './bar.js';
import { barStart, type Timeframe } from './timeframe.js';

/**
 * Builds the bars of one market at one timeframe from points, trades or finer bars, in time order.
 * A bar spans [start, start + timeframe) with start a UTC epoch multiple of the timeframe; it closes
 * when the engine's clock reaches its end (`closeDue`) or when an input at or after its end arrives
 * (`add` closes it first). An interval with no input makes no bar (a gap); the first bar holds only
 * what was seen of it (a partial first bar). Input older than the open bar (a late trade) is dropped
 * and counted: a closed bar never changes.
 */
export class BarBuilder {
  private start = NaN;
  private open = 0;
  private high = 0;
  private low = 0;
  private close = 0;
  private volume = 0;
  /** Inputs dropped for arriving after their bar had closed. */
  late = 0;

  constructor(
    readonly market: string,
    readonly timeframe: Timeframe,
  ) {}

  /** End of the open bar (when it closes), or undefined when no bar is open. */
  get closesAt(): number | undefined {
    return Number.isNaN(this.start) ? undefined : this.start + this.timeframe.ms;
  }

  /** Whether an input at `at` is for a bar already closed (it would be dropped). */
  isLate(at: number): boolean {
    const start = barStart(at, this.timeframe.ms);
    return start < this.closedUpTo || start < this.start;
  }

  /** Adds a point (or a trade: `volume` its amount); returns the bar it closed, if any. */
  addPoint(at: number, price: number, volume = 0): Bar | undefined {
    return this.add(at, price, price, price, price, volume);
  }

  /** Adds a finer bar starting at `at` (a file's row, a 1m bar into 1h); returns the bar it closed, if any. */
  addBar(at: number, b: Ohlcv): Bar | undefined {
    return this.add(at, b.open, b.high, b.low, b.close, b.volume);
  }

  /** Closes the open bar when `now` has reached its end; returns it. */
  closeDue(now: number): Bar | undefined {
    const end = this.closesAt;
    return end !== undefined && now >= end ? this.emit() : undefined;
  }

  private add(at: number, open: number, high: number, low: number, close: number, volume: number): Bar | undefined {
    const start = barStart(at, this.timeframe.ms);
    // a bar already closed (by the clock or a later input) never changes
    if (start < this.closedUpTo || start < this.start) {
      this.late++;
      return undefined;
    }
    if (start === this.start) {
      if (high > this.high) this.high = high;
      if (low < this.low) this.low = low;
      this.close = close;
      this.volume += volume;
      return undefined;
    }
    const closed = Number.isNaN(this.start) ? undefined : this.emit();
    this.start = start;
    this.open = open;
    this.high = high;
    this.low = low;
    this.close = close;
    this.volume = volume;
    return closed;
  }

  /** End of the last bar closed: inputs before it are late. */
  private closedUpTo = -Infinity;

  private emit(): Bar {
    const time = this.start;
    const closeTime = time + this.timeframe.ms;
    const bar: Bar = {
      market: this.market,
      timeframe: this.timeframe.name,
      time,
      closeTime,
      open: this.open,
      high: this.high,
      low: this.low,
      close: this.close,
      volume: this.volume,
    };
    this.start = NaN;
    this.closedUpTo = closeTime;
    return bar;
  }
}
