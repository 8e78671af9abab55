import { CompensatedSum } from './compensated-sum.js';
import { RingBuffer } from './ring-buffer.js';
import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Simple moving average over the last `period` inputs. The running sum is Neumaier-compensated,
 * so it does not drift however long a live run lasts, and the window is a ring buffer, so memory
 * is fixed (technicalindicators' incremental SMA keeps every input it has seen).
 */
export class Sma implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly window: RingBuffer;
  private readonly label: string;
  private readonly sum = new CompensatedSum();
  private last = NaN;

  constructor(period: number) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period;
    this.window = new RingBuffer(period);
    this.label = `SMA(${period}) input`;
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
    if (wasFull) this.sum.add(-evicted);
    this.sum.add(input);
    if (!this.window.full) return undefined;
    this.last = this.sum.value / this.period;
    return this.last;
  }

  reset(): void {
    this.window.clear();
    this.sum.set(0);
    this.last = NaN;
  }
}
