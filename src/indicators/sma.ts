import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Simple moving average over the last `period` inputs. The running sum is Neumaier-compensated,
 * so it does not drift however long a live run lasts, and the window is a ring on a Float64Array,
 * so memory is fixed (technicalindicators' incremental SMA keeps every input it has seen).
 *
 * `update` is O(1) and allocates nothing: the ring and the compensated sum (the same arithmetic as
 * `RingBuffer` and `CompensatedSum`, in the same order, so the results are the same to the bit) are
 * kept in the indicator's own numeric fields, which a per-point loop reads without an indirection.
 */
export class Sma implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly window: Float64Array;
  private readonly label: string;
  /** Index the next input is written to, and how many inputs the window holds (≤ period). */
  private head = 0;
  private count = 0;
  /** The window's sum and the low-order bits its additions lost (Neumaier). */
  private sum = 0;
  private compensation = 0;
  private last = NaN;

  constructor(period: number) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period;
    this.window = new Float64Array(period);
    this.label = `SMA(${period}) input`;
  }

  get ready(): boolean {
    return this.count === this.period;
  }

  get value(): number | undefined {
    return this.count === this.period ? this.last : undefined;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    const head = this.head;
    const period = this.period;
    let sum = this.sum;
    let compensation = this.compensation;
    if (this.count === period) {
      // the oldest input leaves the sum first, then the new one enters (as two compensated adds)
      const x = -(this.window[head] as number);
      const t = sum + x;
      compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
      sum = t;
    } else {
      this.count++;
    }
    this.window[head] = input;
    this.head = head + 1 === period ? 0 : head + 1;
    const t = sum + input;
    compensation += Math.abs(sum) >= Math.abs(input) ? sum - t + input : input - t + sum;
    this.sum = t;
    this.compensation = compensation;
    if (this.count !== period) return undefined;
    this.last = (t + compensation) / period;
    return this.last;
  }

  reset(): void {
    this.window.fill(0);
    this.head = 0;
    this.count = 0;
    this.sum = 0;
    this.compensation = 0;
    this.last = NaN;
  }
}
