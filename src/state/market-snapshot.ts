import type { MarketSymbol, PriceLevel, Side } from '../core/index.js';
import type { Observed } from './observed.js';

export interface TickerStats {
  readonly dayHigh?: number;
  readonly dayLow?: number;
  readonly dayOpen?: number;
  readonly dayVolume?: number;
}

export interface BookView {
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
}

export interface QuoteView {
  readonly quoteId: string;
  readonly side: Side;
  /** Decimal string: the quote is a firm price, so it stays exact. */
  readonly price: string;
  readonly expiresAt: number;
}

/**
 * Immutable view of one market at one moment. A new object replaces the old one on every change,
 * so a strategy may keep a reference and compare by identity.
 */
export interface MarketSnapshot {
  readonly market: MarketSymbol;
  readonly bestBid?: Observed<PriceLevel>;
  readonly bestAsk?: Observed<PriceLevel>;
  readonly lastTrade?: Observed<PriceLevel>;
  readonly book?: Observed<BookView>;
  /** Latest reference price (List Prices, a replayed price point, or mid when nothing else). */
  readonly price?: Observed<number>;
  readonly ticker?: Observed<TickerStats>;
  readonly quotes: { readonly BUY?: Observed<QuoteView>; readonly SELL?: Observed<QuoteView> };
  /** Time of the newest observation in this snapshot. */
  readonly updatedAt: number;
}

/** Mid price from best bid and ask, falling back to the reference price. */
export function midOf(s: MarketSnapshot | undefined): number | undefined {
  if (s === undefined) return undefined;
  const bid = s.bestBid?.value.price;
  const ask = s.bestAsk?.value.price;
  if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0) return (bid + ask) / 2;
  return s.price?.value;
}

/** Spread (ask − bid) when both sides are known. */
export function spreadOf(s: MarketSnapshot | undefined): number | undefined {
  const bid = s?.bestBid?.value.price;
  const ask = s?.bestAsk?.value.price;
  return bid !== undefined && ask !== undefined ? ask - bid : undefined;
}

/** Milliseconds until the quote expires at `now` (≤ 0 means expired). */
export function quoteTimeLeftMs(quote: Observed<QuoteView> | undefined, now: number): number {
  return quote === undefined ? Number.NEGATIVE_INFINITY : quote.value.expiresAt - now;
}

export function emptySnapshot(market: MarketSymbol): MarketSnapshot {
  return { market, quotes: {}, updatedAt: Number.NEGATIVE_INFINITY };
}
