/**
 * Incremental, O(1)-per-update, fixed-memory indicators for strategies, live and in backtests.
 * See docs/indicators.md.
 */
export type { Indicator, BarIndicator } from './types.js';
export { RingBuffer } from './ring-buffer.js';
export { Sma } from './sma.js';
export { Ema } from './ema.js';
export { Wma } from './wma.js';
export { Rsi } from './rsi.js';
export { Macd, type MacdOptions } from './macd.js';
export { StdDev, type StdDevOptions } from './std-dev.js';
export { BollingerBands, type BollingerOptions } from './bollinger-bands.js';
export { Atr } from './atr.js';
export { Roc, Momentum } from './roc.js';
export { RollingMax, RollingMin } from './rolling-extreme.js';
export { TiAdapter, type TiAdapterOptions, type NextValueSource, type RebuildOptions } from './ti-adapter.js';
