import { InputError } from '../core/index.js';
import type { BarIndicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Average True Range with Wilder's smoothing. True range is max(high − low, |high − previous
 * close|, |low − previous close|), so it starts at the second bar; the average is seeded with the
 * mean of the first `period` true ranges and the first value comes at bar `period + 1` (as
 * technicalindicators' ATR). A price-only stream can feed `update(p, p, p)`: the true range is
 * then the absolute change.
 */
export class Atr implements BarIndicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly labelHigh: string;
  private readonly labelLow: string;
  private readonly labelClose: string;
  private count = 0;
  private previousClose = NaN;
  private trueRangeValue = NaN;
  private seedSum = 0;
  private last = NaN;

  constructor(period = 14) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period + 1;
    this.labelHigh = `ATR(${period}) high`;
    this.labelLow = `ATR(${period}) low`;
    this.labelClose = `ATR(${period}) close`;
  }

  get ready(): boolean {
    return this.count > this.period;
  }

  get value(): number | undefined {
    return this.count > this.period ? this.last : undefined;
  }

  /** True range of the latest bar (NaN on the first bar). */
  get trueRange(): number {
    return this.trueRangeValue;
  }

  update(high: number, low: number, close: number): number | undefined {
    requireFinite(this.labelHigh, high);
    requireFinite(this.labelLow, low);
    requireFinite(this.labelClose, close);
    if (high < low) throw new InputError(this.labelHigh, `is below low (${high} < ${low}); pass the bar's high first`);
    const prev = this.previousClose;
    this.previousClose = close;
    if (this.count === 0) {
      this.count = 1;
      return undefined;
    }
    const tr = Math.max(high - low, Math.abs(high - prev), Math.abs(low - prev));
    this.trueRangeValue = tr;
    const n = this.period;
    if (this.count > n) {
      this.last = (tr - this.last) * (1 / n) + this.last;
      return this.last;
    }
    this.count++;
    this.seedSum += tr;
    if (this.count <= n) return undefined;
    this.last = this.seedSum / n;
    return this.last;
  }

  reset(): void {
    this.count = 0;
    this.previousClose = NaN;
    this.trueRangeValue = NaN;
    this.seedSum = 0;
    this.last = NaN;
  }
}
