/**
 * A running sum with Neumaier's compensation: the low-order bits each addition loses are kept
 * in a second accumulator, so adding and removing window values for millions of updates does
 * not drift (error stays near one rounding of the current total). Mutable, allocated once per
 * indicator.
 */
export class CompensatedSum {
  private sum = 0;
  private compensation = 0;

  /** The compensated total. */
  get value(): number {
    return this.sum + this.compensation;
  }

  add(x: number): void {
    const sum = this.sum;
    const t = sum + x;
    if (Math.abs(sum) >= Math.abs(x)) this.compensation += sum - t + x;
    else this.compensation += x - t + sum;
    this.sum = t;
  }

  /** Restarts the sum at `value` (0 by default). */
  set(value = 0): void {
    this.sum = value;
    this.compensation = 0;
  }
}
