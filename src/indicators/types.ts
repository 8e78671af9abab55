/**
 * The contract every tradeloop indicator keeps, so strategies can swap one for another and the
 * engine can warm them up without knowing which they are. Updates are O(1) and allocation-free;
 * memory is fixed at construction.
 */
export interface Indicator {
  /** The look-back length the indicator was built with (for MACD: the slow period). */
  readonly period: number;
  /** Number of updates needed before the first value: how much history a warm-up must replay. */
  readonly warmUp: number;
  /** True once `value` is defined; stays true until `reset()`. */
  readonly ready: boolean;
  /** The latest output, or undefined while warming up. */
  readonly value: number | undefined;
  /** Feeds one observation and returns the new output (undefined while warming up). */
  update(input: number): number | undefined;
  /** Forgets all history, keeping the configuration, so the same object can be reused. */
  reset(): void;
}

/**
 * An indicator fed by bars (high, low, close) rather than single prices, such as ATR. Three
 * numeric arguments instead of a bar object keep each update free of allocation.
 */
export interface BarIndicator {
  readonly period: number;
  readonly warmUp: number;
  readonly ready: boolean;
  readonly value: number | undefined;
  /** Feeds one bar and returns the new output (undefined while warming up). */
  update(high: number, low: number, close: number): number | undefined;
  reset(): void;
}
