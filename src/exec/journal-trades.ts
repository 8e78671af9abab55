/**
 * Round trips and positions per strategy, from the journal's fills (`tradeloop trades`,
 * `tradeloop positions`). The rules are the backtest's (backtest/round-trips.ts), so a live run and
 * a backtest read the same: a round trip opens with the first buy from a flat position and closes
 * when the position is flat again; partial buys and sells in between belong to it; its P&L is quote
 * received from the sells (after fees) minus quote spent on the buys (fees included). A sell with no
 * position of the strategy's open (selling a holding it did not buy) is no round trip and moves no
 * position. Positions carry an average cost (fees in it), so the realized P&L of a partial exit is
 * known before the round trip closes. Money stays decimal.
 */
import { D, type Dec, ZERO, splitMarket, toWire } from '../core/index.js';

/** A fill of one strategy's order or quote execution, as the journal holds it (wire decimals). */
export interface StrategyFill {
  readonly strategy: string;
  readonly refId: string;
  readonly market: string;
  readonly side: string;
  readonly amount: string;
  readonly price: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly at: number;
  /** Why the intent sold, when it said (see ExitReasonKind); null or absent otherwise. */
  readonly exitReason?: string | null;
}

/** A round trip of one strategy in one market; `exitAt` and the exit fields are absent while open. */
export interface JournalRoundTrip {
  readonly strategy: string;
  readonly market: string;
  readonly entryAt: number;
  readonly exitAt?: number;
  /** Base amount bought in the round trip. */
  readonly quantity: string;
  /** Base amount still held (0 once closed). */
  readonly open: string;
  readonly entryPrice: string;
  readonly exitPrice?: string;
  /** Why the fill that closed it sold (`stop-loss`, `signal`, `operator`, ...), when its intent said. */
  readonly exitReason?: string;
  /** Closed: received minus spent; open: the realized part (partial exits), in the quote asset. */
  readonly pnl: string;
  /** Fees paid in the round trip, in the quote asset. */
  readonly fees: string;
  readonly fills: number;
}

/** One strategy's position in one market. */
export interface StrategyPosition {
  readonly strategy: string;
  readonly market: string;
  /** Base amount held from the strategy's own buys. */
  readonly position: string;
  /** Average cost per unit of the position held, fees included (absent when flat). */
  readonly averageCost?: string;
  /** Quote spent on the position held (its cost basis). */
  readonly costBasis: string;
  /** P&L of what was sold, against the average cost, fees included, in the quote asset. */
  readonly realizedPnl: string;
  readonly fees: string;
  readonly roundTrips: number;
  readonly wins: number;
  readonly lastFillAt: number;
  /** Price of the strategy's last fill in the market (not a current price). */
  readonly lastPrice: string;
}

/** Places kept of values that come from a division (averages, average-cost shares): exact sums keep all. */
export const RATIO_DP = 12;

/** One strategy's running account of one market (the kernel keeps one per strategy and market too: see engine/positions.ts). */
export interface Book {
  readonly strategy: string;
  readonly market: string;
  position: Dec;
  cost: Dec;
  realized: Dec;
  fees: Dec;
  trips: number;
  wins: number;
  lastAt: number;
  lastPrice: string;
  trip: Trip | undefined;
}

/** The round trip a book has open. */
export interface Trip {
  entryAt: number;
  spent: Dec;
  received: Dec;
  fees: Dec;
  bought: Dec;
  sold: Dec;
  buyNotional: Dec;
  sellNotional: Dec;
  fills: number;
}

/** The journal's meta key of a balance assigned to a strategy's position by the config (`strategies[].holdings`). */
export const holdingKey = (strategy: string, market: string): string => `holding/${strategy}/${market}`;

/** A balance assigned to a strategy by the config, as the journal keeps it (once: a restart assigns nothing again). */
export interface JournalHolding {
  readonly amount: string;
  /** The cost basis per unit: the price given in the config, else the market's price when assigned. */
  readonly price: string;
  readonly at: number;
}

/**
 * An assignment as a fill of its strategy: a buy of the amount at the cost basis, without a fee, with
 * the ref_id `holding/STRATEGY/MARKET`, so positions, round trips and P&L read it like any entry.
 */
export function holdingFill(key: string, h: JournalHolding): StrategyFill | undefined {
  const [, strategy, market] = key.split('/');
  if (strategy === undefined || market === undefined) return undefined;
  return {
    strategy,
    refId: key,
    market,
    side: 'BUY',
    amount: h.amount,
    price: h.price,
    commission: '0',
    commissionAsset: '',
    at: h.at,
    exitReason: null,
  };
}

/** Round trips (closed ones by exit time, then open ones) and positions, per strategy and market. */
export function tradesFromFills(fills: readonly StrategyFill[]): { roundTrips: JournalRoundTrip[]; positions: StrategyPosition[] } {
  const closed: JournalRoundTrip[] = [];
  const books = booksFrom(fills, (trip, f) => closed.push(f.exitReason ? { ...trip, exitReason: f.exitReason } : trip));
  const open = [...books.values()].filter((b) => b.trip !== undefined).map((b) => roundTrip(b, b.trip!, undefined));
  return { roundTrips: [...closed, ...open], positions: [...books.values()].map(positionOf) };
}

/**
 * The positions of `tradesFromFills`, without writing out each closed round trip (`tradeloop
 * positions` needs only their count and wins, which the books keep): the same figures, a fraction of
 * the work on a journal of many round trips.
 */
export function positionsFromFills(fills: readonly StrategyFill[]): StrategyPosition[] {
  return [...booksFrom(fills).values()].map(positionOf);
}

/** The books after every fill in time order; `closed` is told each round trip closed (written out only then). */
function booksFrom(fills: readonly StrategyFill[], closed?: (trip: JournalRoundTrip, f: StrategyFill) => void): Map<string, Book> {
  const books = new Map<string, Book>();
  const ordered = [...fills].sort((a, b) => a.at - b.at);
  for (const f of ordered) {
    const key = `${f.strategy}\u0000${f.market}`;
    let book = books.get(key);
    if (book === undefined) {
      book = openBook(f.strategy, f.market, f.price);
      books.set(key, book);
    }
    const trip = applyFill(book, f, closed !== undefined);
    if (trip !== undefined) closed!(trip, f);
  }
  return books;
}

/** A flat book of one strategy in one market. */
export function openBook(strategy: string, market: string, lastPrice = '0'): Book {
  return {
    strategy,
    market,
    position: ZERO,
    cost: ZERO,
    realized: ZERO,
    fees: ZERO,
    trips: 0,
    wins: 0,
    lastAt: 0,
    lastPrice,
    trip: undefined,
  };
}

/**
 * Applies one fill to its book; returns the round trip it closed, if any. A commission taken in the
 * base asset of a buy leaves the position smaller by it (the account holds that much less) and is
 * counted among the fees, not in the cost. With `trips` false the closed round trip is counted (and
 * its win) but not written out, and undefined is returned.
 */
export function applyFill(book: Book, f: StrategyFill, trips = true): JournalRoundTrip | undefined {
  const amount = new D(f.amount);
  const price = new D(f.price);
  const fee = feeInQuote(f, price);
  const baseFee = f.side === 'BUY' && f.commissionAsset === splitMarket(f.market).base ? new D(f.commission) : undefined;
  book.fees = book.fees.plus(fee);
  book.lastAt = f.at;
  book.lastPrice = f.price;
  if (f.side === 'BUY') {
    book.trip ??= {
      entryAt: f.at,
      spent: ZERO,
      received: ZERO,
      fees: ZERO,
      bought: ZERO,
      sold: ZERO,
      buyNotional: ZERO,
      sellNotional: ZERO,
      fills: 0,
    };
    const t = book.trip;
    // a base commission is already in the cost: the quote paid bought a position smaller by it
    const spent = baseFee === undefined ? amount.times(price).plus(fee) : amount.times(price);
    const held = baseFee === undefined ? amount : amount.minus(baseFee);
    t.spent = t.spent.plus(spent);
    t.bought = t.bought.plus(held);
    t.buyNotional = t.buyNotional.plus(held.times(price));
    t.fees = t.fees.plus(fee);
    t.fills++;
    book.position = book.position.plus(held);
    book.cost = book.cost.plus(spent);
    return undefined;
  }
  const t = book.trip;
  if (t === undefined || book.position.isZero()) return undefined;
  const sold = D.min(amount, book.position);
  // the fee of a sale larger than the position is shared in proportion
  const share = amount.isZero() ? fee : fee.times(sold).div(amount);
  const received = sold.times(price).minus(share);
  const costOut = book.cost.times(sold).div(book.position);
  book.realized = book.realized.plus(received.minus(costOut));
  book.cost = book.cost.minus(costOut);
  book.position = book.position.minus(sold);
  t.received = t.received.plus(received);
  t.sold = t.sold.plus(sold);
  t.sellNotional = t.sellNotional.plus(sold.times(price));
  t.fees = t.fees.plus(share);
  t.fills++;
  if (!book.position.isZero()) return undefined;
  book.cost = ZERO;
  book.trip = undefined;
  book.trips++;
  // the round trip's P&L (received minus spent, written out in full by roundTrip) decides the win
  if (t.received.minus(t.spent).gt(0)) book.wins++;
  return trips ? roundTrip(book, t, f.at) : undefined;
}

function roundTrip(book: Book, t: Trip, exitAt: number | undefined): JournalRoundTrip {
  const base = {
    strategy: book.strategy,
    market: book.market,
    entryAt: t.entryAt,
    quantity: toWire(t.bought),
    open: toWire(t.bought.minus(t.sold)),
    entryPrice: toWire(t.buyNotional.div(t.bought), RATIO_DP),
    fees: toWire(t.fees),
    fills: t.fills,
  };
  if (exitAt === undefined) {
    // realized so far: what the partial exits received minus the average cost of what they sold
    const costSold = t.sold.isZero() ? ZERO : t.spent.times(t.sold).div(t.bought);
    return { ...base, pnl: toWire(t.received.minus(costSold), RATIO_DP) };
  }
  return { ...base, exitAt, exitPrice: toWire(t.sellNotional.div(t.sold), RATIO_DP), pnl: toWire(t.received.minus(t.spent)) };
}

export function positionOf(b: Book): StrategyPosition {
  return {
    strategy: b.strategy,
    market: b.market,
    position: toWire(b.position),
    ...(b.position.gt(0) && { averageCost: toWire(b.cost.div(b.position), RATIO_DP) }),
    costBasis: toWire(b.cost, RATIO_DP),
    realizedPnl: toWire(b.realized, RATIO_DP),
    fees: toWire(b.fees),
    roundTrips: b.trips,
    wins: b.wins,
    lastFillAt: b.lastAt,
    lastPrice: b.lastPrice,
  };
}

/** A fee in the quote asset: as charged, or converted at the fill's price when charged in the base asset. */
function feeInQuote(f: StrategyFill, price: Dec): Dec {
  const fee = new D(f.commission);
  if (fee.isZero()) return ZERO;
  const { base } = splitMarket(f.market);
  return f.commissionAsset === base ? fee.times(price) : fee;
}
