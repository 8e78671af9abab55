/** Live market data: PollingMarketSource (RxJS poll streams), recording and RecordedMarketSource. */
export * from './polling-market-source.js';
export * from './request-budget.js';
export * from './backoff.js';
export * from './decode.js';
export * from './recorder.js';
export * from './recording-reader.js';
export * from './stream-names.js';
export * from './stream-plan.js';
export * from './stream-requests.js';
export { nextSlotDelayMs, pollStream, InFlight, type PollContext, type PollSpec } from './poll-loop.js';
export { HealthBook } from './stream-health.js';
export { loadWarmUp, INCREMENT_MS, MAX_WARM_UP_POINTS, type WarmUpSettings } from './warm-up-history.js';
export * from './recorded-market-source.js';
export { tradesFromWire, TradeTape, type RecordedTrade } from './recent-trades.js';
export * from './from-config.js';
