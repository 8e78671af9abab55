/**
 * Daily P&L per strategy from the journal's fills (the dashboard's daily table and bars, `GET
 * /api/daily`): each fill is applied to its strategy's book in its market by the rules of `tradeloop
 * trades` (average cost, fees included), and what it realized is counted on its UTC day. Money stays
 * decimal, as wire strings.
 */
import { D, splitMarket, toWire, type Dec } from '../core/index.js';
import { applyFill, openBook, type Book, type StrategyFill } from '../exec/index.js';

/** Places kept of realized P&L (it comes from average costs, a division), as `tradeloop trades` keeps them. */
const RATIO_DP = 12;

/** One strategy's day. */
export interface DailyPnl {
  /** The UTC day, `YYYY-MM-DD`. */
  readonly date: string;
  readonly strategy: string;
  /** The quote asset the money is in (the strategy's markets' quote). */
  readonly quote: string;
  /** P&L realized by the day's sells against the average cost, fees included. */
  readonly realized: string;
  /** Fees paid that day (in the quote asset). */
  readonly fees: string;
  /** Fills that day. */
  readonly trades: number;
}

/** Days oldest first, strategies by name within a day; a strategy appears on the days it had fills. */
export function dailyPnl(fills: readonly StrategyFill[]): DailyPnl[] {
  const books = new Map<string, Book>();
  const days = new Map<string, { date: string; strategy: string; quote: string; realized: Dec; fees: Dec; trades: number }>();
  for (const f of [...fills].sort((a, b) => a.at - b.at)) {
    const key = `${f.strategy}\u0000${f.market}`;
    let book = books.get(key);
    if (book === undefined) books.set(key, (book = openBook(f.strategy, f.market, f.price)));
    const realized = book.realized;
    const fees = book.fees;
    applyFill(book, f);
    const date = new Date(f.at).toISOString().slice(0, 10);
    const quote = splitMarket(f.market).quote;
    const dayKey = `${date}\u0000${f.strategy}\u0000${quote}`;
    const day = days.get(dayKey) ?? { date, strategy: f.strategy, quote, realized: new D(0), fees: new D(0), trades: 0 };
    day.realized = day.realized.plus(book.realized.minus(realized));
    day.fees = day.fees.plus(book.fees.minus(fees));
    day.trades++;
    days.set(dayKey, day);
  }
  return [...days.values()]
    .sort((a, b) => a.date.localeCompare(b.date) || a.strategy.localeCompare(b.strategy) || a.quote.localeCompare(b.quote))
    .map((d) => ({
      date: d.date,
      strategy: d.strategy,
      quote: d.quote,
      realized: toWire(d.realized, RATIO_DP),
      fees: toWire(d.fees),
      trades: d.trades,
    }));
}
