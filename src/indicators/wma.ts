import { RingBuffer } from './ring-buffer.js';
import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';
import { resyncInterval } from './resync.js';

/**
 * Linearly weighted moving average: the newest input weighs `period`, the oldest 1. Kept in O(1)
 * per update with two running sums (plain and weighted); both are recomputed exactly from the
 * window at a fixed interval so rounding never accumulates.
 */
export class Wma implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly window: RingBuffer;
  private readonly denominator: number;
  private readonly resyncEvery: number;
  private readonly label: string;
  private sum = 0;
  private weighted = 0;
  private sinceResync = 0;
  private last = NaN;

  constructor(period: number) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period;
    this.window = new RingBuffer(period);
    this.denominator = (period * (period + 1)) / 2;
    this.resyncEvery = resyncInterval(period);
    this.label = `WMA(${period}) input`;
  }

  get ready(): boolean {
    return this.window.full;
  }

  get value(): number | undefined {
    return this.window.full ? this.last : undefined;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    const wasFull = this.window.full;
    const evicted = this.window.push(input);
    if (!this.window.full) return undefined;
    if (!wasFull || ++this.sinceResync >= this.resyncEvery) {
      this.resync();
    } else {
      // Every held value loses one unit of weight (−sum), the new one enters at full weight.
      this.weighted += this.period * input - this.sum;
      this.sum += input - evicted;
    }
    this.last = this.weighted / this.denominator;
    return this.last;
  }

  reset(): void {
    this.window.clear();
    this.sum = 0;
    this.weighted = 0;
    this.sinceResync = 0;
    this.last = NaN;
  }

  private resync(): void {
    let sum = 0;
    let weighted = 0;
    for (let i = 0; i < this.period; i++) {
      const x = this.window.get(i);
      sum += x;
      weighted += x * (i + 1);
    }
    this.sum = sum;
    this.weighted = weighted;
    this.sinceResync = 0;
  }
}
