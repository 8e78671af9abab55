import { requireInteger } from './validate.js';

/**
 * A fixed-capacity window of numbers on a Float64Array: the bounded history strategies keep
 * instead of growing arrays. Pushing when full overwrites the oldest value; nothing allocates
 * after construction.
 */
export class RingBuffer {
  readonly capacity: number;
  private readonly data: Float64Array;
  /** Index the next push writes to. */
  private head = 0;
  private count = 0;

  constructor(capacity: number) {
    this.capacity = requireInteger('capacity', capacity, 1);
    this.data = new Float64Array(capacity);
  }

  /** Number of values held (≤ capacity). */
  get length(): number {
    return this.count;
  }

  /** True once `capacity` values have been pushed: the next push evicts the oldest. */
  get full(): boolean {
    return this.count === this.capacity;
  }

  /**
   * Appends `x`. Returns the value evicted to make room, or NaN when the buffer was not yet
   * full (so callers maintaining running sums can subtract it without a second lookup).
   */
  push(x: number): number {
    const head = this.head;
    let evicted = NaN;
    if (this.count === this.capacity) evicted = this.data[head] as number;
    else this.count++;
    this.data[head] = x;
    this.head = head + 1 === this.capacity ? 0 : head + 1;
    return evicted;
  }

  /** The value `i` positions back from the newest: `ago(0)` is the newest. */
  ago(i: number): number {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`ago(${i}) outside 0..${this.count - 1}`);
    let idx = this.head - 1 - i;
    if (idx < 0) idx += this.capacity;
    return this.data[idx] as number;
  }

  /** The `i`-th value counting from the oldest: `get(0)` is the oldest. */
  get(i: number): number {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`get(${i}) outside 0..${this.count - 1}`);
    let idx = this.head - this.count + i;
    if (idx < 0) idx += this.capacity;
    return this.data[idx] as number;
  }

  /** The oldest value held; NaN when empty. */
  get oldest(): number {
    return this.count === 0 ? NaN : this.get(0);
  }

  /** The newest value held; NaN when empty. */
  get newest(): number {
    return this.count === 0 ? NaN : this.ago(0);
  }

  /**
   * Copies the values oldest-first into `out` (which the caller owns and reuses) and returns
   * how many were written. `out` must hold at least `length` values.
   */
  copyTo(out: Float64Array): number {
    if (out.length < this.count) throw new RangeError(`copyTo needs room for ${this.count} values, got ${out.length}`);
    for (let i = 0; i < this.count; i++) out[i] = this.get(i);
    return this.count;
  }

  /** Empties the buffer without releasing its storage. */
  clear(): void {
    this.head = 0;
    this.count = 0;
  }
}
