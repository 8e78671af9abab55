import { type WindowStats } from '../market/history.js';
import { type MarketState, type TapeTrade, type WireLevel } from './market-state.js';
import { DAY_MS, MINUTE_MS, utcDayStart } from '../time.js';

/** A ticker as the sim sees it; the sandbox turns it into the wire record. */
export interface TickerView {
  readonly market: string;
  readonly bestBid: WireLevel | undefined;
  readonly bestAsk: WireLevel | undefined;
  readonly lastExecution: WireLevel | undefined;
  readonly lastDay: WindowStats;
  readonly today: WindowStats;
  readonly snapshotAt: number;
}

export interface PriceView {
  readonly market: string;
  readonly currentPrice: string;
  readonly yesterdayPrice: string;
  readonly snapshotAt: number;
}

/** Best levels, last trade, last-24-hours and since-midnight-UTC statistics at `nowMs`. */
export function tickerOf(market: MarketState, nowMs: number): TickerView {
  const book = market.orderBook(market.synthetic.tickOf(nowMs));
  const last: TapeTrade | undefined = market.lastTrade(nowMs);
  return {
    market: market.spec.market,
    bestBid: book.bids[0],
    bestAsk: book.asks[0],
    lastExecution: last === undefined ? undefined : { price: last.price, amount: last.amount },
    lastDay: market.history.stats(nowMs - DAY_MS, nowMs),
    today: market.history.stats(utcDayStart(nowMs), nowMs),
    snapshotAt: nowMs,
  };
}

/** Current mid and the one-minute average from 24 hours earlier. */
export function priceOf(market: MarketState, nowMs: number): PriceView {
  const minuteAgo = Math.floor((nowMs - DAY_MS) / MINUTE_MS) * MINUTE_MS;
  return {
    market: market.spec.market,
    currentPrice: market.history.text(market.synthetic.model.priceAt(nowMs)),
    yesterdayPrice: market.history.text(market.history.average(minuteAgo, MINUTE_MS)),
    snapshotAt: nowMs,
  };
}
