import { InputError } from '../core/index.js';
import { CompensatedSum } from './compensated-sum.js';
import { RingBuffer } from './ring-buffer.js';
import { resyncInterval } from './resync.js';
import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/** Options of {@link StdDev}. */
export interface StdDevOptions {
  /**
   * Divide by `period − 1` (sample) instead of `period` (population). Default false: the
   * population form, as technicalindicators' SD and Bollinger Bands use.
   */
  readonly sample?: boolean;
}

/**
 * Rolling standard deviation over the last `period` inputs, with the window mean alongside.
 *
 * Sum-of-squares at a price level of 60,000 with a spread of 1 would lose ten digits to
 * cancellation, so the sums run over deviations from an anchor (d = x − anchor, exact when x is
 * near the anchor) with Neumaier compensation, and the anchor moves to the window mean at a
 * fixed interval. Per update O(1); the re-anchoring pass is amortised.
 */
export class StdDev implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  readonly sample: boolean;
  private readonly window: RingBuffer;
  private readonly resyncEvery: number;
  private readonly label: string;
  private readonly sumD = new CompensatedSum();
  private readonly sumSq = new CompensatedSum();
  private anchor = 0;
  private meanValue = NaN;
  private sinceResync = 0;
  private last = NaN;

  constructor(period: number, options: StdDevOptions = {}) {
    this.sample = options.sample ?? false;
    this.period = requireInteger('period', period, 1);
    if (this.sample && period < 2) throw new InputError('period', 'must be ≥ 2 for a sample standard deviation');
    this.warmUp = period;
    this.window = new RingBuffer(period);
    this.resyncEvery = resyncInterval(period);
    this.label = `StdDev(${period}) input`;
  }

  get ready(): boolean {
    return this.window.full;
  }

  get value(): number | undefined {
    return this.window.full ? this.last : undefined;
  }

  /** Mean of the current window (NaN while warming up). */
  get mean(): number {
    return this.window.full ? this.meanValue : NaN;
  }

  /** Variance of the current window, population or sample as configured (NaN while warming up). */
  get variance(): number {
    return this.window.full ? this.last * this.last : NaN;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    if (this.window.length === 0) this.anchor = input;
    const wasFull = this.window.full;
    const evicted = this.window.push(input);
    if (wasFull) {
      const out = evicted - this.anchor;
      this.sumD.add(-out);
      this.sumSq.add(-out * out);
    }
    const d = input - this.anchor;
    this.sumD.add(d);
    this.sumSq.add(d * d);
    if (!this.window.full) return undefined;
    if (!wasFull || ++this.sinceResync >= this.resyncEvery) this.reanchor();
    const n = this.period;
    const sumD = this.sumD.value;
    const meanD = sumD / n;
    let m2 = this.sumSq.value - meanD * sumD;
    if (m2 < 0) m2 = 0;
    this.meanValue = this.anchor + meanD;
    this.last = Math.sqrt(m2 / (this.sample ? n - 1 : n));
    return this.last;
  }

  reset(): void {
    this.window.clear();
    this.sumD.set(0);
    this.sumSq.set(0);
    this.anchor = 0;
    this.meanValue = NaN;
    this.sinceResync = 0;
    this.last = NaN;
  }

  /** Moves the anchor to the window mean and recomputes both sums exactly from the window. */
  private reanchor(): void {
    const n = this.period;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += this.window.get(i);
    const anchor = sum / n;
    let sumD = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      const d = this.window.get(i) - anchor;
      sumD += d;
      sumSq += d * d;
    }
    this.anchor = anchor;
    this.sumD.set(sumD);
    this.sumSq.set(sumSq);
    this.sinceResync = 0;
  }
}
