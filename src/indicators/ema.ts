import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Exponential moving average with smoothing 2 / (period + 1), seeded with the simple average of
 * the first `period` inputs (as technicalindicators and most charting tools do). Needs no window:
 * three numbers of state.
 */
export class Ema implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  /** The smoothing factor applied to each new input. */
  readonly alpha: number;
  private readonly label: string;
  private count = 0;
  private seedSum = 0;
  private last = NaN;

  constructor(period: number) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period;
    this.alpha = 2 / (period + 1);
    this.label = `EMA(${period}) input`;
  }

  get ready(): boolean {
    return this.count >= this.period;
  }

  get value(): number | undefined {
    return this.count >= this.period ? this.last : undefined;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    if (this.count >= this.period) {
      this.last = (input - this.last) * this.alpha + this.last;
      return this.last;
    }
    this.count++;
    this.seedSum += input;
    if (this.count < this.period) return undefined;
    this.last = this.seedSum / this.period;
    return this.last;
  }

  reset(): void {
    this.count = 0;
    this.seedSum = 0;
    this.last = NaN;
  }
}
