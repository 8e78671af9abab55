/**
 * How a point replay (`market.ts`) is set up: costs, funding, profiles, transfer limits and the
 * record window. Kept apart so the market file holds only the replay rules.
 */
import { type TransferLimitConfig } from '../../sim/platform/transfer-limit-rules.js';

export interface PointMarketOptions {
  /** Fee in bps of traded notional, in the quote currency (default 10 = 0.1 %). */
  readonly feeBps?: number;
  /** Moves MARKET and marketable-limit fill prices against the trader (default 0). */
  readonly slippageBps?: number;
  /** Held-rate quotes: buy at price × (1 + spread), sell at price × (1 − spread) (default 10 bps). */
  readonly quoteSpreadBps?: number;
  /** How long a quote stays executable after its point (default 30 s). */
  readonly quoteTtlMs?: number;
  /** Initial balances, asset → decimal string. */
  readonly funding?: Readonly<Record<string, string>>;
  /** Prefix of generated order and execution ids (default "pt"). */
  readonly idPrefix?: string;
  /**
   * How many closed orders and order fills stay available to lookups (default: all). Older ones are
   * forgotten as the next point begins (never those made since the last point): `getOrder` answers not-found for them and `executions` no longer lists them, while
   * their ref_ids stay taken. A backtest keeps a window, so the records of a long run neither pile up
   * in memory nor make the collector copy and mark them again and again.
   */
  readonly keepClosed?: number;
  /** Other profiles of the replay, id → initial balances (more come into being when a transfer first pays them). */
  readonly profiles?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Transfer limits in USD (default: the sandbox's). */
  readonly transferLimits?: readonly TransferLimitConfig[];
  /** Seed of the transfer limits' rule ids (default 42, the sandbox's default seed). */
  readonly seed?: number;
}
