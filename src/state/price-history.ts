/**
 * Fixed-capacity history of (time, price) pairs on typed-array ring storage: memory stays bounded
 * however long a run lasts, and pushing never allocates.
 */
export class PriceHistory {
  private readonly times: Float64Array;
  private readonly prices: Float64Array;
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.times = new Float64Array(capacity);
    this.prices = new Float64Array(capacity);
  }

  get length(): number {
    return this.count;
  }

  push(at: number, price: number): void {
    // called at every price point: the ring's index wraps by a comparison, not a division
    const capacity = this.capacity;
    const count = this.count;
    const next = this.start + count;
    const end = next < capacity ? next : next - capacity;
    this.times[end] = at;
    this.prices[end] = price;
    if (count < capacity) this.count = count + 1;
    else this.start = this.start + 1 < capacity ? this.start + 1 : 0;
  }

  /** i-th oldest entry (0 = oldest). */
  timeAt(i: number): number {
    return this.times[this.index(i)] as number;
  }

  priceAt(i: number): number {
    return this.prices[this.index(i)] as number;
  }

  /** Newest price, or undefined when empty. */
  last(): number | undefined {
    return this.count === 0 ? undefined : this.priceAt(this.count - 1);
  }

  /** Count of entries observed at or before `at` (entries are pushed in time order). */
  countUpTo(at: number): number {
    let n = this.count;
    while (n > 0 && this.timeAt(n - 1) > at) n--;
    return n;
  }

  private index(i: number): number {
    if (i < 0 || i >= this.count) throw new RangeError(`index ${i} outside 0..${this.count - 1}`);
    return (this.start + i) % this.capacity;
  }
}
