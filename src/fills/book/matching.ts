/**
 * The matching of the recorded-book venue (venue.ts, where the fill rules are stated):
 * orders reach the venue when their latency has passed and run their taker phase against the book in
 * force; the rest rests and meets each later recorded book and trade; stops wait for the book's mid to
 * reach them; GTT orders close at their expiry.
 */
import { D, type Dec, type MarketSymbol, type PriceLevel } from '../../core/index.js';
import type { RecordedTrade } from '../../venue/polling/recent-trades.js';
import type { RecordedBookFunds } from './funds.js';
import { Book, bookMid, type Level } from './levels.js';
import { isDone, toRecord, type BookOrder } from './order.js';
import {
  byDecimal,
  byNumber,
  crosses,
  fokCovered,
  gttExpired,
  isStopType,
  postOnlyRefusal,
  stopFires,
  takesOnly,
} from '../../platform/order-life.js';
import type { VenueFill, VenueOrder } from '../../venue/venue.js';

export class RecordedBookMatcher {
  private readonly books = new Map<MarketSymbol, Book>();
  private readonly pending: BookOrder[] = [];
  /** Orders resting (OPEN), oldest first: what each new book or trade may cross. */
  private readonly resting = new Set<BookOrder>();
  /** Stop orders waiting for their trigger, oldest first. */
  private readonly stops = new Set<BookOrder>();
  /** Open GTT orders (resting or waiting stops): what each arrival checks for expiry. */
  private readonly expiring = new Set<BookOrder>();
  /** Orders closed since the last `takeClosed()` (a replay source reports them). */
  private closed: BookOrder[] = [];
  /** Match numbers of the recorded trades met so far (a trade recorded twice fills once). */
  private readonly tradesSeen = new Set<string>();

  constructor(private readonly funds: RecordedBookFunds) {}

  /** The recorded book of `market` in force (what our fills left of it), if one came yet. */
  bookOf(market: MarketSymbol): Book | undefined {
    return this.books.get(market);
  }

  /** The mid of each market's book in force (markets with a one-sided book left out). */
  mids(): Map<MarketSymbol, Dec> {
    const out = new Map<MarketSymbol, Dec>();
    for (const [market, book] of this.books) {
      const m = bookMid(book);
      if (m !== undefined) out.set(market, m);
    }
    return out;
  }

  /** See RecordedBookVenue.book. */
  book(market: MarketSymbol, at: number, bids: readonly PriceLevel[], asks: readonly PriceLevel[]): readonly VenueFill[] {
    const before = this.funds.fills.length;
    this.arrive(at, false);
    const book = new Book(at, bids, asks);
    this.books.set(market, book);
    this.arrive(at);
    this.trigger(market, book, at);
    for (const order of [...this.resting]) {
      if (order.market === market && book.mayCross(order.side, order.price!.toNumber())) this.crossResting(order, book, at);
    }
    return this.funds.fills.slice(before);
  }

  /** See RecordedBookVenue.trade. */
  trade(market: MarketSymbol, t: RecordedTrade): readonly VenueFill[] {
    const before = this.funds.fills.length;
    if (t.matchNumber !== undefined) {
      if (this.tradesSeen.has(t.matchNumber)) return [];
      this.tradesSeen.add(t.matchNumber);
    }
    this.arrive(t.at, false);
    if (this.resting.size === 0) return this.funds.fills.slice(before);
    const price = new D(t.price);
    let left = new D(t.amount);
    const crossed = [...this.resting].filter(
      (o) => o.market === market && o.arrivesAt < t.at && crosses(o.side, price, o.price!, byDecimal),
    );
    crossed.sort((a, b) => (a.side === b.side ? (a.side === 'BUY' ? b.price!.comparedTo(a.price!) : a.price!.comparedTo(b.price!)) : 0));
    for (const order of crossed) {
      if (!left.gt(0)) break;
      const level: Level = { price, amount: left };
      this.funds.fillAt(order, level, order.price!, t.at);
      left = level.amount;
      if (isDone(order)) this.close(order, 'FILLED');
    }
    return this.funds.fills.slice(before);
  }

  /** Orders that reach the venue by `at` (before it, unless `inclusive`) meet the book in force; GTT orders past their expiry close. */
  arrive(at: number, inclusive = true): void {
    while (this.pending.length > 0 && (inclusive ? this.pending[0]!.arrivesAt <= at : this.pending[0]!.arrivesAt < at)) {
      const order = this.pending.shift()!;
      this.enter(order, order.arrivesAt);
    }
    if (this.expiring.size > 0)
      for (const order of [...this.expiring]) if (gttExpired(order.rule.expiresAt, at)) this.close(order, 'CANCELLED');
  }

  /** A placed order (its funds held): it meets the book now with no latency, else waits until it arrives. */
  submit(order: BookOrder, now: number): void {
    if (order.arrivesAt === now) this.enter(order, now);
    else this.pending.push(order);
  }

  /** Cancels an order not yet arrived, waiting or resting; a closed one stays as it is. */
  cancel(order: BookOrder): void {
    if (order.status !== 'OPEN' && order.status !== 'SUBMITTED') return;
    const i = this.pending.indexOf(order);
    if (i >= 0) this.pending.splice(i, 1);
    this.close(order, 'CANCELLED');
  }

  /** Open orders: on their way, waiting stops, then resting. */
  open(): BookOrder[] {
    return [...this.pending, ...this.stops, ...this.resting];
  }

  /** Orders that closed since the last call (filled, cancelled, rejected). */
  takeClosed(): readonly VenueOrder[] {
    const out = this.closed.map(toRecord);
    this.closed = [];
    return out;
  }

  /** An order reaching the venue: a stop waits OPEN for its trigger, any other order runs its taker phase. */
  private enter(order: BookOrder, at: number): void {
    if (order.status !== 'SUBMITTED') return;
    if (gttExpired(order.rule.expiresAt, at)) {
      this.close(order, 'CANCELLED');
      return;
    }
    if (isStopType(order.type)) {
      order.status = 'OPEN';
      this.stops.add(order);
      if (order.rule.expiresAt !== undefined) this.expiring.add(order);
      return;
    }
    this.execute(order, at);
  }

  /** Fires the stops of `market` the book's mid has reached (the platform's stop trigger), oldest first. */
  private trigger(market: MarketSymbol, book: Book, at: number): void {
    if (this.stops.size === 0) return;
    const mid = book.midPrice();
    if (mid === undefined) return;
    for (const order of [...this.stops]) {
      if (order.market !== market || !stopFires(mid, order.rule.stopPrice!.toNumber(), byNumber)) continue;
      this.stops.delete(order);
      order.triggered = true;
      this.execute(order, at);
    }
  }

  /** The taker phase (on arrival, or when a stop fires), then rest or close. */
  private execute(order: BookOrder, at: number): void {
    const book = this.books.get(order.market);
    const side = order.side === 'BUY' ? book?.asks : book?.bids;
    const levels = (side ?? []).filter((l) => order.price === undefined || crosses(order.side, l.price, order.price, byDecimal));
    if (postOnlyRefusal(order.type, levels.length > 0) !== undefined) {
      this.close(order, 'REJECTED');
      return;
    }
    if (order.rule.timeInForce === 'FOK' && order.baseAmount !== undefined && !fokCovered(order.baseAmount, levels)) {
      this.close(order, 'CANCELLED');
      return;
    }
    for (const level of levels) {
      if (isDone(order)) break;
      this.funds.fillAt(order, level, level.price, at);
    }
    if (book) book[order.side === 'BUY' ? 'asks' : 'bids'] = (side ?? []).filter((l) => l.amount.gt(0));
    if (isDone(order)) this.close(order, 'FILLED');
    else if (takesOnly(order.type, order.rule.timeInForce)) this.close(order, 'CANCELLED');
    else {
      order.status = 'OPEN';
      this.resting.add(order);
      if (order.rule.expiresAt !== undefined) this.expiring.add(order);
    }
  }

  /** A resting order meets a new book: fills at its own price on the levels that cross it. */
  private crossResting(order: BookOrder, book: Book, at: number): void {
    const side = order.side === 'BUY' ? book.asks : book.bids;
    for (const level of side) {
      if (isDone(order)) break;
      if (!crosses(order.side, level.price, order.price!, byDecimal)) break;
      this.funds.fillAt(order, level, order.price!, at);
    }
    book[order.side === 'BUY' ? 'asks' : 'bids'] = side.filter((l) => l.amount.gt(0));
    if (isDone(order)) this.close(order, 'FILLED');
  }

  private close(order: BookOrder, status: 'FILLED' | 'CANCELLED' | 'REJECTED'): void {
    order.status = status;
    this.resting.delete(order);
    this.stops.delete(order);
    this.expiring.delete(order);
    this.funds.release(order);
    this.closed.push(order);
  }
}
