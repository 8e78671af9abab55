/**
 * One closed bar (candle) of a market: open, high, low, close and volume of the points or trades
 * seen in [time, closeTime). Prices are floats (signals, never money); volume is the base amount
 * traded (0 for bars built from prices alone).
 */
export interface Bar {
  readonly market: string;
  /** Timeframe name (1m, 5m, 15m, 1h, 4h, 1d). */
  readonly timeframe: string;
  /** Start of the bar, epoch ms (a UTC multiple of the timeframe). */
  readonly time: number;
  /** End of the bar, epoch ms: the bar is closed, and seen, at this time and not before. */
  readonly closeTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/** OHLCV of a bar as fed into a coarser one (a file's row, a finer bar). */
export interface Ohlcv {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}
