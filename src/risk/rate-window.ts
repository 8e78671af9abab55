/**
 * Sliding one-minute window of decision times on fixed ring storage: answers "how many in the last
 * minute" without allocating per intent.
 */
export class RateWindow {
  private readonly times: Float64Array;
  private start = 0;
  private count = 0;

  constructor(
    private readonly capacity: number,
    private readonly windowMs = 60_000,
  ) {
    this.times = new Float64Array(Math.max(1, capacity));
  }

  /** Count within the window ending at `now`. */
  countAt(now: number): number {
    while (this.count > 0 && (this.times[this.start] as number) <= now - this.windowMs) {
      this.start = (this.start + 1) % this.times.length;
      this.count--;
    }
    return this.count;
  }

  record(now: number): void {
    this.countAt(now);
    const end = (this.start + this.count) % this.times.length;
    this.times[end] = now;
    if (this.count < this.times.length) this.count++;
    else this.start = (this.start + 1) % this.times.length;
  }

  get limit(): number {
    return this.capacity;
  }
}
