import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Relative Strength Index with Wilder's smoothing: average gain and loss are seeded with the
 * plain mean of the first `period` changes, then smoothed as (avg × (period − 1) + x) / period.
 * The first value comes at the `period + 1`-th input.
 *
 * Conventions, matching technicalindicators: an average loss of zero gives 100 (also for a
 * constant series), otherwise an average gain of zero gives 0. Unlike technicalindicators, the
 * value is not rounded to two decimals (its `toFixed(2)` output equals ours rounded the same way).
 */
export class Rsi implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly label: string;
  private count = 0;
  private previous = NaN;
  private gain = 0;
  private loss = 0;
  private last = NaN;

  constructor(period = 14) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period + 1;
    this.label = `RSI(${period}) input`;
  }

  get ready(): boolean {
    return this.count > this.period;
  }

  get value(): number | undefined {
    return this.count > this.period ? this.last : undefined;
  }

  /** Wilder-smoothed average gain (NaN while warming up). */
  get averageGain(): number {
    return this.count > this.period ? this.gain : NaN;
  }

  /** Wilder-smoothed average loss, as a positive number (NaN while warming up). */
  get averageLoss(): number {
    return this.count > this.period ? this.loss : NaN;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    const change = input - this.previous; // NaN on the first input
    this.previous = input;
    const n = this.period;
    if (this.count > n) {
      this.gain = (this.gain * (n - 1) + (change > 0 ? change : 0)) / n;
      this.loss = (this.loss * (n - 1) + (change < 0 ? -change : 0)) / n;
    } else {
      this.count++;
      if (this.count === 1) return undefined;
      if (change > 0) this.gain += change;
      else if (change < 0) this.loss -= change;
      if (this.count <= n) return undefined;
      this.gain /= n;
      this.loss /= n;
    }
    this.last = this.loss === 0 ? 100 : this.gain === 0 ? 0 : 100 - 100 / (1 + this.gain / this.loss);
    return this.last;
  }

  reset(): void {
    this.count = 0;
    this.previous = NaN;
    this.gain = 0;
    this.loss = 0;
    this.last = NaN;
  }
}
