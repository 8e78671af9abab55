import type { Bar } from './bar.js';

/** Bars kept per series by default (a strategy's declared series keep at least this many). */
export const DEFAULT_BAR_CAPACITY = 500;

/**
 * A bounded history of closed bars, oldest first, on a ring: memory stays fixed however long a run
 * lasts. What `ctx.bars(market, timeframe)` gives a strategy.
 */
export class BarSeries {
  private readonly ring: (Bar | undefined)[];
  private start = 0;
  private count = 0;

  constructor(
    readonly market: string,
    readonly timeframe: string,
    readonly capacity = DEFAULT_BAR_CAPACITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.ring = new Array<Bar | undefined>(capacity);
  }

  get length(): number {
    return this.count;
  }

  push(bar: Bar): void {
    this.ring[(this.start + this.count) % this.capacity] = bar;
    if (this.count < this.capacity) this.count++;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** i-th oldest bar (0 = oldest); a negative i counts from the newest (-1 = the latest). */
  at(i: number): Bar | undefined {
    const k = i < 0 ? this.count + i : i;
    return k < 0 || k >= this.count ? undefined : this.ring[(this.start + k) % this.capacity];
  }

  /** The latest closed bar. */
  last(): Bar | undefined {
    return this.at(-1);
  }

  /** The latest `n` bars (fewer while the series is shorter), oldest first. */
  latest(n: number): Bar[] {
    const from = Math.max(0, this.count - n);
    const out: Bar[] = [];
    for (let i = from; i < this.count; i++) out.push(this.at(i)!);
    return out;
  }

  toArray(): Bar[] {
    return this.latest(this.count);
  }
}
