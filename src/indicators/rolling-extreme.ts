import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/**
 * Rolling maximum or minimum over the last `period` inputs in amortised O(1): a monotonic deque
 * (values that can still become the extreme, with their sequence numbers) kept on two fixed
 * Float64Arrays used as a ring, so it never allocates.
 */
abstract class RollingExtreme implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  private readonly values: Float64Array;
  private readonly seqs: Float64Array;
  private readonly label: string;
  private front = 0;
  private size = 0;
  private seen = 0;

  protected constructor(name: string, period: number) {
    this.period = requireInteger('period', period, 1);
    this.warmUp = period;
    this.values = new Float64Array(period);
    this.seqs = new Float64Array(period);
    this.label = `${name}(${period}) input`;
  }

  get ready(): boolean {
    return this.seen >= this.period;
  }

  get value(): number | undefined {
    return this.seen >= this.period ? (this.values[this.front] as number) : undefined;
  }

  /** How many inputs ago the current extreme arrived (0 = the latest input); NaN while empty. */
  get age(): number {
    return this.size === 0 ? NaN : this.seen - 1 - (this.seqs[this.front] as number);
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    const cap = this.period;
    const seq = this.seen++;
    // Drop the front when it has slid out of the window.
    if (this.size > 0 && (this.seqs[this.front] as number) <= seq - cap) {
      this.front = this.front + 1 === cap ? 0 : this.front + 1;
      this.size--;
    }
    // Drop from the back every value the new one dominates; they can never be the extreme again.
    while (this.size > 0) {
      let back = this.front + this.size - 1;
      if (back >= cap) back -= cap;
      if (!this.dominates(input, this.values[back] as number)) break;
      this.size--;
    }
    let slot = this.front + this.size;
    if (slot >= cap) slot -= cap;
    this.values[slot] = input;
    this.seqs[slot] = seq;
    this.size++;
    return this.seen >= cap ? (this.values[this.front] as number) : undefined;
  }

  reset(): void {
    this.front = 0;
    this.size = 0;
    this.seen = 0;
  }

  /** True when `candidate` makes `held` irrelevant (≥ for a maximum, ≤ for a minimum). */
  protected abstract dominates(candidate: number, held: number): boolean;
}

/** Highest input over the last `period` updates (as technicalindicators' Highest). */
export class RollingMax extends RollingExtreme {
  constructor(period: number) {
    super('RollingMax', period);
  }

  protected dominates(candidate: number, held: number): boolean {
    return candidate >= held;
  }
}

/** Lowest input over the last `period` updates (as technicalindicators' Lowest). */
export class RollingMin extends RollingExtreme {
  constructor(period: number) {
    super('RollingMin', period);
  }

  protected dominates(candidate: number, held: number): boolean {
    return candidate <= held;
  }
}
