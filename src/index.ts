/**
 * The public API of tradeloop: everything a strategy plugin needs, and nothing else. A plugin imports
 * from `tradeloop` only (and its tests from `tradeloop/testkit`); every other module of the package is
 * internal and may change without notice. The surface is pinned by `api/tradeloop.api.md`: a test
 * fails when it changes by accident (`npm run api:update` rewrites the report on purpose).
 */

// Defining a strategy
export { barsOf, defineStrategy, marketsOf } from './strategy/define.js';
export type { PlotPane, PlotSeries, PlotStyle } from './strategy/plots.js';
export type {
  AccountView,
  IntentDraft,
  KeptExitLevels,
  OwnPosition,
  StrategyContext,
  StrategyDefinition,
  StrategyHandlers,
} from './strategy/define.js';
export { resolveParams } from './strategy/params.js';

// The params schema builder, re-exported so a plugin needs no second dependency
export { z } from 'zod';

// Intents, decisions and reports
export type {
  Decision,
  DenialCode,
  DenialReason,
  ExecReport,
  ExitReasonKind,
  Intent,
  MarketEvent,
  PriceRange,
  OrderTerms,
  OrderType,
  PriceLevel,
  Side,
  TimeInForce,
} from './core/messages.js';

// Markets, instruments and exact decimals
export { D, ZERO, dec, toWire, toFixedWire, decimalPlaces } from './core/decimal.js';
export type { Dec } from './core/decimal.js';
export { splitMarket, assetDecimals, isFiat, TRADING_MARKETS } from './core/markets.js';
export type { MarketAssets, MarketSymbol, TradingMarket } from './core/markets.js';
export { roundBase, roundPrice, roundQuote, onTick } from './core/instrument.js';
export { instrumentOf } from './platform/instruments.js';
export type { Instrument, MarketListing, NotionalCaps, Numeric, Rounding } from './core/instrument.js';

// What a strategy reads
export { midOf, spreadOf, quoteTimeLeftMs } from './state/market-snapshot.js';
export type { BookView, MarketSnapshot, QuoteView, TickerStats } from './state/market-snapshot.js';
export { ageMs, isStale } from './state/observed.js';
export type { Observed } from './state/observed.js';
export type { PriceHistory } from './state/price-history.js';
export type { OpenOrderView } from './state/account-store.js';

// Indicators
export * from './indicators/index.js';

// Bars (candles) and timeframes: what `bars`, `onBar` and `ctx.bars` carry
export { parseTimeframe, barStart, TIMEFRAMES, DEFAULT_BAR_CAPACITY, BarSeries, resample, updateWithBar } from './bars/index.js';
export type { Bar, BarNeed, Ohlcv, Timeframe, TimeframeName } from './bars/index.js';

// Position helpers: enter with a share of a balance, exit all, stop-loss, take-profit, trailing stop
export * from './strategy/position.js';
