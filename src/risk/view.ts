import type { Dec, Instrument, MarketSymbol } from '../core/index.js';
import type { MarketSnapshot } from '../state/index.js';

/**
 * The narrow read-only view the risk gate decides on: market data, balances net of what is already
 * committed, open orders and transfer limits. Live and backtest engines both provide it.
 */
export interface RiskView {
  now(): number;
  market(symbol: MarketSymbol): MarketSnapshot;
  /** Balance free for a new order: platform `available` minus reservations of in-flight intents. */
  available(asset: string): Dec;
  /** Total holding (available + trading + pending). */
  total(asset: string): Dec;
  /** Open orders of all strategies, including approved intents not yet acknowledged. */
  openOrderCount(): number;
  /**
   * The market's instrument as the venue lists it (tick, decimals, caps), when read; the gate falls
   * back to the platform's instrument table (src/platform/instruments.ts) for a trading market it does not know, so every mode checks ticks.
   */
  instrument(symbol: MarketSymbol): Instrument | undefined;
  /** `remaining` of the tightest transfer limit for the transfer type, when known. */
  transferRemaining(asset: string): Dec | undefined;
}
