import { InputError } from '../core/index.js';
import { Ema } from './ema.js';
import type { Indicator } from './types.js';
import { requireFinite, requireInteger } from './validate.js';

/** Options of {@link Macd}. */
export interface MacdOptions {
  /** Fast EMA period. Default 12. */
  readonly fast?: number;
  /** Slow EMA period; must exceed `fast`. Default 26. */
  readonly slow?: number;
  /** Signal EMA period (an EMA of the MACD line). Default 9. */
  readonly signal?: number;
}

/**
 * MACD: line = EMA(fast) − EMA(slow), signal = EMA(signal) of the line, histogram = line −
 * signal. All three EMAs are SMA-seeded (technicalindicators with SimpleMAOscillator and
 * SimpleMASignal false). The line exists from the `slow`-th input and is readable as `line`;
 * the indicator is `ready`, and `update`/`value` return the line, once the signal exists too, at
 * input `slow + signal − 1`. Outputs are numeric getters (NaN until available), never fresh objects.
 */
export class Macd implements Indicator {
  /** The slow period (the longest look-back of the line). */
  readonly period: number;
  readonly warmUp: number;
  private readonly fastEma: Ema;
  private readonly slowEma: Ema;
  private readonly signalEma: Ema;
  private readonly label: string;
  private lineValue = NaN;
  private signalValue = NaN;

  constructor(options: MacdOptions = {}) {
    const fast = requireInteger('fast', options.fast ?? 12, 1);
    const slow = requireInteger('slow', options.slow ?? 26, 2);
    const signal = requireInteger('signal', options.signal ?? 9, 1);
    if (fast >= slow) throw new InputError('fast', `must be below slow (${slow}), got ${fast}; swap them`);
    this.fastEma = new Ema(fast);
    this.slowEma = new Ema(slow);
    this.signalEma = new Ema(signal);
    this.period = slow;
    this.warmUp = slow + signal - 1;
    this.label = `MACD(${fast},${slow},${signal}) input`;
  }

  /** EMA(fast) − EMA(slow); NaN until `slow` inputs have been seen. */
  get line(): number {
    return this.lineValue;
  }

  /** EMA of the line; NaN until ready. */
  get signal(): number {
    return this.signalValue;
  }

  /** line − signal; NaN until ready. */
  get histogram(): number {
    return this.lineValue - this.signalValue;
  }

  get ready(): boolean {
    return this.signalEma.ready;
  }

  get value(): number | undefined {
    return this.signalEma.ready ? this.lineValue : undefined;
  }

  update(input: number): number | undefined {
    requireFinite(this.label, input);
    const fast = this.fastEma.update(input);
    const slow = this.slowEma.update(input);
    if (fast === undefined || slow === undefined) return undefined;
    this.lineValue = fast - slow;
    const signal = this.signalEma.update(this.lineValue);
    if (signal === undefined) return undefined;
    this.signalValue = signal;
    return this.lineValue;
  }

  reset(): void {
    this.fastEma.reset();
    this.slowEma.reset();
    this.signalEma.reset();
    this.lineValue = NaN;
    this.signalValue = NaN;
  }
}
