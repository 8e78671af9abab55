/**
 * `tradeloop/testkit`: what a plugin author's tests need. The kit feeds a strategy scripted market
 * events and reports on a test clock and collects its intents; it works under any test runner
 * (vitest, node:test, jest).
 */
export { StrategyTestKit } from './strategy/testkit.js';
export type { EventInput } from './strategy/testkit.js';
export type { KeptExitLevels } from './strategy/define.js';
export { TestClock } from './clock/test-clock.js';
export { backtestStrategy, verifyStrategy } from '../backtest/testkit.js';
export type { VerifyReport } from '../backtest/verify/verify.js';
export type { CheckResult, Verdict } from '../backtest/verify/checks.js';
export type { FirstDifference, VerifyDecision } from '../backtest/verify/decisions.js';
export type { TestBacktestOptions, TestBacktestResult } from '../backtest/testkit.js';
