import { RingBuffer } from './ring-buffer.js';
import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Shared core of ROC and momentum: both compare the input with the one `period` updates earlier,
 * held in a ring of `period` values. The first value comes at input `period + 1`.
 */
abstract class LagIndicator implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly window: RingBuffer;
  private readonly label: string;
  private ok = false;
  private last = NaN;

  protected constructor(name: string, period: number) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period + 1;
    this.window = new RingBuffer(period);
    this.label = `${name}(${period}) input`;
  }

  get ready(): boolean {
    return this.ok;
  }

  get value(): number | undefined {
    return this.ok ? this.last : undefined;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    const wasFull = this.window.full;
    const past = this.window.push(input);
    if (!wasFull) return undefined;
    this.ok = true;
    this.last = this.compare(input, past);
    return this.last;
  }

  reset(): void {
    this.window.clear();
    this.ok = false;
    this.last = NaN;
  }

  protected abstract compare(input: number, past: number): number;
}

/**
 * Rate of change in percent: (x − x[period ago]) / x[period ago] × 100, as technicalindicators'
 * ROC. A past value of 0 gives ±Infinity (or NaN for 0/0); market prices are positive.
 */
export class Roc extends LagIndicator {
  constructor(period: number) {
    super('ROC', period);
  }

  protected compare(input: number, past: number): number {
    return ((input - past) / past) * 100;
  }
}

/** Momentum: x − x[period ago], the absolute change over the window. */
export class Momentum extends LagIndicator {
  constructor(period: number) {
    super('Momentum', period);
  }

  protected compare(input: number, past: number): number {
    return input - past;
  }
}
