import { assertNever, type MarketEvent } from '../core/index.js';
import type { MarketSnapshot } from './market-snapshot.js';

/** Pure reducer: the snapshot after `event`. Returns the same object when nothing changes. */
export function reduceMarket(s: MarketSnapshot, e: MarketEvent): MarketSnapshot {
  const updatedAt = Math.max(s.updatedAt, e.at);
  switch (e.kind) {
    case 'price':
      // the per-point path of a backtest: every field named, so all price snapshots share one shape
      return {
        market: s.market,
        bestBid: s.bestBid,
        bestAsk: s.bestAsk,
        lastTrade: s.lastTrade,
        book: s.book,
        price: observed(e.price, e.at, e.serverAt),
        ticker: s.ticker,
        quotes: s.quotes,
        updatedAt,
      };
    case 'ticker': {
      const next: { -readonly [K in keyof MarketSnapshot]: MarketSnapshot[K] } = { ...s, updatedAt };
      if (e.bid) next.bestBid = observed(e.bid, e.at, e.serverAt);
      if (e.ask) next.bestAsk = observed(e.ask, e.at, e.serverAt);
      if (e.last) next.lastTrade = observed(e.last, e.at, e.serverAt);
      next.ticker = observed({ dayHigh: e.dayHigh, dayLow: e.dayLow, dayOpen: e.dayOpen, dayVolume: e.dayVolume }, e.at, e.serverAt);
      return next;
    }
    case 'book': {
      const next: { -readonly [K in keyof MarketSnapshot]: MarketSnapshot[K] } = {
        ...s,
        updatedAt,
        book: observed({ bids: e.bids, asks: e.asks }, e.at, e.serverAt),
      };
      const bid = e.bids[0];
      const ask = e.asks[0];
      if (bid) next.bestBid = observed(bid, e.at, e.serverAt);
      if (ask) next.bestAsk = observed(ask, e.at, e.serverAt);
      return next;
    }
    case 'quote': {
      const q = observed({ quoteId: e.quoteId, side: e.side, price: e.price, expiresAt: e.expiresAt }, e.at);
      return { ...s, updatedAt, quotes: e.side === 'BUY' ? { ...s.quotes, BUY: q } : { ...s.quotes, SELL: q } };
    }
    case 'timer':
      return s;
    default:
      return assertNever(e);
  }
}

function observed<T>(value: T, at: number, serverAt?: number): { value: T; at: number; serverAt?: number } {
  return serverAt === undefined ? { value, at } : { value, at, serverAt };
}
