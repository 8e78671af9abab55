import { StdDev } from './std-dev.js';
import type { Indicator } from './types.js';
import { requirePositive } from './validate.js';

/** Options of {@link BollingerBands}. */
export interface BollingerOptions {
  /** Window length. Default 20. */
  readonly period?: number;
  /** Band distance in (population) standard deviations. Default 2. */
  readonly stdDev?: number;
}

/**
 * Bollinger Bands: the window mean ± k population standard deviations, plus %b (where the input
 * sits between the bands) and bandwidth. Outputs are numeric getters over fields updated in place
 * (NaN while warming up), so reading them allocates nothing; `update` and `value` give the middle
 * band.
 *
 * When the bands collapse (a constant window) %b is 0.5, where technicalindicators gives NaN
 * from 0/0: a NaN would make every comparison in a strategy silently false.
 */
export class BollingerBands implements Indicator {
  readonly period: number;
  readonly warmUp: number;
  readonly multiplier: number;
  private readonly sd: StdDev;
  private mid = NaN;
  private up = NaN;
  private low = NaN;
  private pctB = NaN;
  private width = NaN;

  constructor(options: BollingerOptions = {}) {
    this.sd = new StdDev(options.period ?? 20);
    this.period = this.sd.period;
    this.warmUp = this.sd.warmUp;
    this.multiplier = requirePositive('stdDev', options.stdDev ?? 2);
  }

  /** Middle band: the window mean (NaN while warming up). */
  get middle(): number {
    return this.mid;
  }

  /** Upper band: middle + stdDev × SD (NaN while warming up). */
  get upper(): number {
    return this.up;
  }

  /** Lower band: middle − stdDev × SD (NaN while warming up). */
  get lower(): number {
    return this.low;
  }

  /** (input − lower) / (upper − lower): 0 at the lower band, 1 at the upper (NaN while warming up). */
  get percentB(): number {
    return this.pctB;
  }

  /** (upper − lower) / middle: band width relative to the price level (NaN while warming up). */
  get bandwidth(): number {
    return this.width;
  }

  get ready(): boolean {
    return this.sd.ready;
  }

  get value(): number | undefined {
    return this.sd.ready ? this.mid : undefined;
  }

  update(input: number): number | undefined {
    const sd = this.sd.update(input);
    if (sd === undefined) return undefined;
    const middle = this.sd.mean;
    const offset = sd * this.multiplier;
    this.mid = middle;
    this.up = middle + offset;
    this.low = middle - offset;
    const width = this.up - this.low;
    this.pctB = width > 0 ? (input - this.low) / width : 0.5;
    this.width = width / middle;
    return middle;
  }

  reset(): void {
    this.sd.reset();
    this.mid = this.up = this.low = this.pctB = this.width = NaN;
  }
}
