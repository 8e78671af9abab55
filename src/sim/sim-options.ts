/**
 * The options of the sandbox's simulated platform (`SimPlatform` in `sim.ts`, which re-exports
 * SimOptions), and the defaults it applies when funding the default profile.
 */
import { type Clock } from '../clock/clock.js';
import { type PlatformSettings } from './platform/area-deps.js';
import { type PriceSeriesLike } from './prices/price-data.js';
import { type QuoteSettings } from './exchange/quotes.js';
import { type SimSnapshot } from './snapshot.js';
import { type TransferLimitConfig } from './platform/transfer-limit-rules.js';
import { type TradingRules } from './exchange/trading.js';

/** How a SimPlatform is set up: its clock and seed, market, fees, rules, limits and initial state. */
export interface SimOptions {
  /** Drives simulated time: LiveClock/ScaledClock for real time, TestClock in tests and backtests. */
  readonly clock: Clock;
  readonly seed?: number;
  /**
   * This world's instance id, mixed into the ids it issues (orders, executions, quotes, transfers…)
   * so two worlds with one seed never share an id; a restored state keeps its own. Absent: ids
   * depend on the seed alone.
   */
  readonly instanceId?: string;
  /** Granularity of the simulated market (books, background trades, maker fills): 1000 ms. */
  readonly tickMs?: number;
  /** Commission rates as decimal strings (default maker "0.0005", taker "0.001"). */
  readonly fees?: { readonly makerRate?: string; readonly takerRate?: string };
  readonly rules?: Partial<TradingRules>;
  /** How far back history goes (default 730 days). */
  readonly historyDays?: number;
  /** Replay price files instead of the synthetic path, per market; offset defaults to "file starts now". */
  readonly replay?: Readonly<Record<string, { readonly series: PriceSeriesLike; readonly offsetMs?: number }>>;
  /** Initial funds of the default profile, asset → decimal string (recorded as deposits). */
  readonly funding?: Readonly<Record<string, string>>;
  /** Held-rate quote pricing, validity and settlement delay (see QuoteSettings). */
  readonly quotes?: Partial<QuoteSettings>;
  /** Transfer limits in USD (default DEFAULT_TRANSFER_LIMITS). */
  readonly transferLimits?: readonly TransferLimitConfig[];
  /** Delay from PENDING to COMPLETED of internal transfers (default 1000 ms). */
  readonly transferSettleMs?: number;
  /** Restores this state instead of starting empty (seed, start time, ids and records come from it; funding is skipped). */
  readonly restore?: SimSnapshot;
  /** Identities, accounts, fiat, crypto, settlements, conversions and tax forms: delays, fees, limits. */
  readonly platform?: Partial<PlatformSettings>;
}

export { networkFor } from './platform/transfers.js';
