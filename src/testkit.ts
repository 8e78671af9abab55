/**
 * `tradeloop/testkit`: what a plugin author's tests need. The kit feeds a strategy scripted market
 * events and reports on a test clock and collects its intents; it works under any test runner
 * (vitest, node:test, jest).
 */
export { StrategyTestKit } from './strategy/testkit.js';
export type { EventInput } from './strategy/testkit.js';
export type { KeptExitLevels } from './strategy/define.js';
export { TestClock } from './clock/test-clock.js';
export { backtestStrategy } from '../backtest/testkit.js';
export type { TestBacktestOptions, TestBacktestResult } from '../backtest/testkit.js';
