import { D, type Dec, type Instrument, type MarketSymbol, type PriceLevel, splitMarket } from '../core/index.js';
import { catalogInstrument, catalogInstruments } from '../sim/market/catalog.js';
import { Ledger } from '../sim/exchange/ledger.js';
import { capViolation, isViolation, ruleOrder, type RuledOrder } from '../sim/exchange/order-rules.js';
import { DEFAULT_RULES } from '../sim/exchange/trading.js';
import type { TransferLimitConfig } from '../sim/platform/transfer-limit-rules.js';
import { INTERNAL_DEBIT, PointProfiles, usdValue } from '../sim/replay/point-transfers.js';
import type { RecordedTrade } from './polling/recent-trades.js';
import { Book, bookMid, type Level } from './recorded-book-levels.js';
import { mapError, toTransferLimitRow, toVenueOrder } from './sim-venue.js';
import {
  VenueNotFoundError,
  VenueRejectedError,
  type ExecuteQuoteRequest,
  type PlaceOrderRequest,
  type TransferLimitRow,
  type TransferRequest,
  type Venue,
  type VenueBalance,
  type VenueFill,
  type VenueOrder,
  type VenueQuote,
  type VenueQuoteExecution,
  type VenueTransfer,
} from './venue.js';

interface BookOrder {
  readonly id: string;
  readonly refId: string;
  readonly market: MarketSymbol;
  readonly side: 'BUY' | 'SELL';
  readonly type: string;
  readonly rule: RuledOrder;
  readonly baseAmount?: Dec;
  readonly quoteAmount?: Dec;
  readonly price?: Dec;
  status: string;
  amountFilled: Dec;
  notionalFilled: Dec;
  readonly createdAt: number;
  /** When the order reaches the venue: decision time plus the latency. */
  readonly arrivesAt: number;
  /** Funds set aside while the order is open (quote for a buy, base for a sell). */
  held: Dec;
  /** A quote-sized buy whose remaining quote buys less than the smallest base amount. */
  spent: boolean;
  /** Fees paid by its fills so far. */
  fees: Dec;
  /** A stop order whose trigger the market has reached: from then on it is the order it turns into. */
  triggered: boolean;
}

/** A held-rate quote as a recording kept it (the decoder's `quote` event). */
export interface RecordedQuote {
  readonly quoteId: string;
  readonly market: MarketSymbol;
  readonly side: 'BUY' | 'SELL';
  /** Wire decimal string. */
  readonly price: string;
  readonly expiresAt: number;
}

/** A settled execution of a recorded quote (no fee: the quote's spread is its cost). */
export interface RecordedQuoteExecution extends VenueQuoteExecution {
  readonly at: number;
}

export interface RecordedBookVenueOptions {
  /** Starting balances, asset → decimal string. */
  readonly funding: Readonly<Record<string, string>>;
  /** Fee in basis points of each fill's notional, charged in the quote asset (default 10). */
  readonly feeBps?: number;
  /** Decision-to-venue latency, ms (default 0: an order meets the book in force when it is placed). */
  readonly latencyMs?: number;
  /** The replay's clock (epoch ms). */
  readonly now: () => number;
  /** Other profiles transfers may pay or draw on, id → balances (more come into being when first paid). */
  readonly profiles?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Transfer limits in USD (default: the sandbox's). */
  readonly transferLimits?: readonly TransferLimitConfig[];
  /** Seed of the transfer limits' rule ids (default: the sandbox's). */
  readonly seed?: number;
}

/** The replay's own profile in its ledger (transfers name it `default`). */
const OWN = 'recorded-book';

/**
 * The Venue over a recorded market, for backtests of a stream recording (`--fill-model book`). The
 * replay feeds each recorded order book in with `book()` and each recorded trade with `trade()`;
 * orders are ruled by the platform's one set of order rules, reach the venue `latencyMs` after they
 * are placed, and fill against the book in force when they arrive:
 *
 * - a MARKET order walks the levels from the best price, one fill per level at that level's price,
 *   until its amount (base for a sell, quote for a buy) is done or the book runs out; a remainder the
 *   book could not fill is cancelled (status CANCELLED with what filled), as the platform does;
 * - a LIMIT order first takes what crosses it (levels at or better than its price, at their prices);
 *   IOC/FOK remainders are cancelled (FOK fills nothing unless all of it can fill), the rest rests;
 *   a POST_ONLY_LIMIT that would take is rejected, otherwise it rests;
 * - a resting limit fills, at its own price, when a later recorded book's opposite side crosses it
 *   (asks at or below a buy's price, bids at or above a sell's), up to the amount on those levels,
 *   and when a recorded trade executed while it rested went at or through its price (at or below a
 *   buy's, at or above a sell's), up to the trade's amount (oldest order first at the best price);
 * - a stop (STOP_MARKET, STOP_LIMIT: sell-only, base held) waits OPEN until a recorded book after it
 *   arrived has its mid at or below `stop_price` (the sandbox's trigger), then is the order it turns
 *   into: a MARKET sell walking that book's bids, or a LIMIT sell at `price`;
 * - a GTT order is cancelled at its `expiration_date` (rejected when that is not more than 10 s after
 *   placement, as the platform does);
 * - what our fills take is gone from the book until the next recorded book replaces it.
 *
 * Each fill pays `feeBps` of its notional in the quote asset. Funds are checked and held on entry.
 *
 * Held-rate quotes the recording holds (fed in with `quote()`) execute at the quote's price when the
 * execution reaches the venue (after the latency) no later than the quote's `expires_at`, and are
 * refused after it; they settle at once, without a fee. Internal transfers move available funds to
 * and from the replay's other profiles under the sandbox's transfer limits, settled at once, as in
 * point replay (`point-transfers.ts`: the same checks, codes and words).
 */
export class RecordedBookVenue implements Venue {
  readonly name = 'recorded-book';
  private readonly books = new Map<MarketSymbol, Book>();
  private readonly orders = new Map<string, BookOrder>();
  private readonly byRef = new Map<string, BookOrder>();
  private readonly pending: BookOrder[] = [];
  /** Orders resting (OPEN), oldest first: what each new book or trade may cross. */
  private readonly resting = new Set<BookOrder>();
  /** Stop orders waiting for their trigger, oldest first. */
  private readonly stops = new Set<BookOrder>();
  /** Open GTT orders (resting or waiting stops): what each arrival checks for expiry. */
  private readonly expiring = new Set<BookOrder>();
  private readonly fills: VenueFill[] = [];
  private readonly ledger = new Ledger();
  private readonly profiles: PointProfiles;
  private readonly feeRate: Dec;
  private readonly latencyMs: number;
  private seq = 0;
  /** Orders closed since the last `takeClosed()` (a replay source reports them). */
  private closed: BookOrder[] = [];
  private readonly quotes = new Map<string, RecordedQuote>();
  private readonly executions: RecordedQuoteExecution[] = [];
  private readonly executionsByRef = new Map<string, RecordedQuoteExecution>();
  /** Match numbers of the recorded trades met so far (a trade recorded twice fills once). */
  private readonly tradesSeen = new Set<string>();

  constructor(private readonly o: RecordedBookVenueOptions) {
    this.feeRate = new D(o.feeBps ?? 10).div(10_000);
    this.latencyMs = o.latencyMs ?? 0;
    if (!Number.isFinite(this.latencyMs) || this.latencyMs < 0) throw new VenueRejectedError('BAD_REQUEST', `latency must be 0 or more milliseconds, got ${String(o.latencyMs)}`);
    for (const [asset, amount] of Object.entries(o.funding)) this.ledger.credit(OWN, asset, new D(amount));
    this.profiles = new PointProfiles(this.ledger, { ownId: OWN, others: o.profiles, limits: o.transferLimits, seed: o.seed });
  }

  /**
   * A recorded book of `market` at `at`: orders that arrived before it meet the book they arrived
   * to, then this book replaces it, fires the stops its mid reaches and crosses the resting orders.
   */
  book(market: MarketSymbol, at: number, bids: readonly PriceLevel[], asks: readonly PriceLevel[]): readonly VenueFill[] {
    const before = this.fills.length;
    this.arrive(at, false);
    const book = new Book(at, bids, asks);
    this.books.set(market, book);
    this.arrive(at);
    this.trigger(market, book, at);
    for (const order of [...this.resting]) {
      if (order.market === market && book.mayCross(order.side, order.price!.toNumber())) this.crossResting(order, book, at);
    }
    return this.fills.slice(before);
  }

  /**
   * A recorded trade of `market` (its `at` is when it executed): resting limits that were at the
   * venue by then and whose price it went at or through fill at their own price, best price first
   * then oldest, until the trade's amount is used up. A trade seen before (same match number) is
   * ignored.
   */
  trade(market: MarketSymbol, t: RecordedTrade): readonly VenueFill[] {
    const before = this.fills.length;
    if (t.matchNumber !== undefined) {
      if (this.tradesSeen.has(t.matchNumber)) return [];
      this.tradesSeen.add(t.matchNumber);
    }
    this.arrive(t.at, false);
    if (this.resting.size === 0) return this.fills.slice(before);
    const price = new D(t.price);
    let left = new D(t.amount);
    const crossed = [...this.resting].filter((o) => o.market === market && o.arrivesAt < t.at && (o.side === 'BUY' ? price.lte(o.price!) : price.gte(o.price!)));
    crossed.sort((a, b) => (a.side === b.side ? (a.side === 'BUY' ? b.price!.comparedTo(a.price!) : a.price!.comparedTo(b.price!)) : 0));
    for (const order of crossed) {
      if (!left.gt(0)) break;
      const level: Level = { price, amount: left };
      this.fillAt(order, level, order.price!, t.at);
      left = level.amount;
      if (this.done(order)) this.close(order, 'FILLED');
    }
    return this.fills.slice(before);
  }

  /** Orders that reach the venue by `at` (before it, unless `inclusive`) meet the book in force; GTT orders past their expiry close. */
  arrive(at: number, inclusive = true): void {
    while (this.pending.length > 0 && (inclusive ? this.pending[0]!.arrivesAt <= at : this.pending[0]!.arrivesAt < at)) {
      const order = this.pending.shift()!;
      this.enter(order, order.arrivesAt);
    }
    if (this.expiring.size > 0) for (const order of [...this.expiring]) if (order.rule.expiresAt! <= at) this.close(order, 'CANCELLED');
  }

  /** Orders that closed since the last call (filled, cancelled, rejected). */
  takeClosed(): readonly VenueOrder[] {
    const out = this.closed.map(toRecord);
    this.closed = [];
    return out;
  }

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    const existing = this.byRef.get(req.refId);
    if (existing !== undefined) return toRecord(existing);
    const instrument = catalogInstrument(req.market);
    const rule = ruleOrder(req, instrument);
    if (isViolation(rule)) throw new VenueRejectedError(rule.kind === 'precision' ? 'EXCEED_PRECISION' : 'BAD_REQUEST', rule.message, { field: rule.field, ...rule.details });
    const book = this.books.get(req.market);
    const reference = book && bookMid(book);
    const cap = capViolation(rule, instrument, reference ? { reference } : {});
    if (cap !== undefined) throw new VenueRejectedError('NOTIONAL_VALUE_TOO_LARGE', cap.reason, cap.details);
    const now = this.o.now();
    if (rule.expiresAt !== undefined && rule.expiresAt <= now + DEFAULT_RULES.minGttMs) {
      throw new VenueRejectedError('BAD_REQUEST', `expiration_date: a GTT order must expire more than ${DEFAULT_RULES.minGttMs / 1000} s after it is placed (${new Date(now).toISOString()}), got ${new Date(rule.expiresAt).toISOString()}`, { field: 'expiration_date' });
    }
    const order: BookOrder = {
      id: `rb-${++this.seq}`, refId: req.refId, market: req.market, side: rule.side, type: rule.type, rule,
      ...(rule.baseAmount && { baseAmount: rule.baseAmount }), ...(rule.quoteAmount && { quoteAmount: rule.quoteAmount }), ...(rule.price && { price: rule.price }),
      status: 'SUBMITTED', amountFilled: new D(0), notionalFilled: new D(0), createdAt: now, arrivesAt: now + this.latencyMs, held: new D(0), spent: false, fees: new D(0), triggered: false,
    };
    this.hold(order, reference);
    this.orders.set(order.id, order);
    this.byRef.set(order.refId, order);
    if (this.latencyMs === 0) this.enter(order, now);
    else this.pending.push(order);
    return toRecord(order);
  }

  async cancelOrder(orderId: string): Promise<void> {
    const order = this.find(orderId);
    if (order.status === 'OPEN' || order.status === 'SUBMITTED') {
      const i = this.pending.indexOf(order);
      if (i >= 0) this.pending.splice(i, 1);
      this.close(order, 'CANCELLED');
    }
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    return toRecord(this.find(orderId));
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    const o = this.byRef.get(refId);
    return o && toRecord(o);
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    return [...this.pending, ...this.stops, ...this.resting].map(toRecord);
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    return this.fills.filter((f) => f.at >= sinceMs);
  }

  /** A recorded held-rate quote: offered until its `expiresAt`. */
  quote(q: RecordedQuote): void {
    this.quotes.set(q.quoteId, q);
    // quotes long expired are of no more use: keep the map as small as what is on offer
    if (this.quotes.size > 256) for (const [id, old] of this.quotes) if (old.expiresAt < this.o.now()) this.quotes.delete(id);
  }

  /** The recorded quotes of `market` not yet expired, newest last. */
  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    const now = this.o.now();
    return [...this.quotes.values()].filter((q) => q.market === market && q.expiresAt >= now).map((q) => ({ quoteId: q.quoteId, market: q.market, side: q.side, price: new D(q.price), expiresAt: q.expiresAt }));
  }

  /**
   * Executes a recorded quote at its price when the request reaches the venue (now plus the latency)
   * no later than the quote's `expires_at`; refused after it. Idempotent by `refId`.
   */
  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    const existing = this.executionsByRef.get(req.refId);
    if (existing !== undefined) return existing;
    const q = this.quotes.get(req.quoteId);
    if (q === undefined) throw new VenueRejectedError('QUOTE_NOT_FOUND', `quote ${req.quoteId} is not in the recording: execute a quote the strategy was offered`);
    const arrives = this.o.now() + this.latencyMs;
    if (arrives > q.expiresAt) {
      throw new VenueRejectedError('EXPIRED', `quote ${req.quoteId} expired at ${new Date(q.expiresAt).toISOString()}, before the request reached the venue (${new Date(arrives).toISOString()}): take a fresh one`, { expired_at: new Date(q.expiresAt).toISOString() });
    }
    const i = catalogInstrument(q.market);
    const price = new D(q.price);
    const buy = q.side === 'BUY';
    const base = req.baseAmount === undefined ? undefined : new D(req.baseAmount);
    const quoteIn = req.quoteAmount === undefined ? undefined : new D(req.quoteAmount);
    if ((base === undefined) === (quoteIn === undefined)) throw new VenueRejectedError('BAD_REQUEST', 'give exactly one of base_amount and quote_amount', { field: 'base_amount' });
    // the amount not given, rounded in the platform's favour, as the platform does
    const baseAmount = base ?? quoteIn!.div(price).toDecimalPlaces(i.baseDecimals, buy ? D.ROUND_DOWN : D.ROUND_UP);
    const quoteAmount = quoteIn ?? base!.times(price).toDecimalPlaces(i.quoteDecimals, buy ? D.ROUND_UP : D.ROUND_DOWN);
    if (!baseAmount.gt(0) || !quoteAmount.gt(0)) throw new VenueRejectedError('BAD_REQUEST', `too small: ${baseAmount.toFixed()} ${i.base} for ${quoteAmount.toFixed()} ${i.quote}`);
    const [pay, payAmount, get, getAmount] = buy ? [i.quote, quoteAmount, i.base, baseAmount] : [i.base, baseAmount, i.quote, quoteAmount];
    const have = this.ledger.get(OWN, pay).available;
    if (payAmount.gt(have)) throw new VenueRejectedError('INSUFFICIENT_FUNDS', `${q.side} ${q.market} by quote needs ${payAmount.toFixed()} ${pay}, ${have.toFixed()} available`, { asset: pay, needed: payAmount.toFixed(), available: have.toFixed() });
    this.ledger.apply([{ profileId: OWN, asset: pay, available: payAmount.neg() }, { profileId: OWN, asset: get, available: getAmount }]);
    const x: RecordedQuoteExecution = {
      executionId: `rq-${++this.seq}`, refId: req.refId, quoteId: q.quoteId, market: q.market, side: q.side, price, baseAmount, quoteAmount, status: 'SETTLED', at: arrives,
    };
    this.executions.push(x);
    this.executionsByRef.set(req.refId, x);
    return x;
  }

  async getQuoteExecution(executionId: string): Promise<VenueQuoteExecution> {
    const x = this.executions.find((e) => e.executionId === executionId);
    if (x === undefined) throw new VenueNotFoundError(`quote execution ${executionId} not found`);
    return x;
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    return this.executionsByRef.get(refId);
  }

  /** Every quote execution so far, oldest first. */
  allQuoteExecutions(): readonly RecordedQuoteExecution[] {
    return this.executions;
  }

  async balances(): Promise<readonly VenueBalance[]> {
    return this.ledger.list(OWN).sort(([a], [b]) => a.localeCompare(b)).map(([asset, b]) => ({ asset, available: b.available, trading: b.trading }));
  }

  /**
   * An internal transfer between the replay's profiles, settled at once (its ref_id repeated returns
   * the first), refused as the sandbox refuses it: its field checks, transfer limits (crypto valued
   * at the last recorded book mid) and funds.
   */
  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    try {
      const marks = new Map<string, { price: number }>();
      for (const [market, book] of this.books) {
        const m = bookMid(book);
        if (m !== undefined) marks.set(market, { price: m.toNumber() });
      }
      const t = this.profiles.transfer(req, this.o.now(), (asset, amount) => usdValue(asset, amount, marks), () => `rt-${++this.seq}`);
      return { transferId: t.transferId, refId: t.refId, status: t.status };
    } catch (e) {
      throw mapError(e);
    }
  }

  async findTransferByRef(refId: string): Promise<VenueTransfer | undefined> {
    const t = this.profiles.findByRef(refId);
    return t && { transferId: t.transferId, refId: t.refId, status: t.status };
  }

  /** The replay's transfer limits with what remains of each, as the sandbox's ListTransferLimits lists them. */
  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    return this.profiles.limitsFor(INTERNAL_DEBIT, this.o.now()).map(toTransferLimitRow);
  }

  async instruments(): Promise<readonly Instrument[]> {
    return catalogInstruments();
  }

  /** Every fill so far, oldest first. */
  allFills(): readonly VenueFill[] {
    return this.fills;
  }

  private find(orderId: string): BookOrder {
    const o = this.orders.get(orderId);
    if (o === undefined) throw new VenueNotFoundError(`order ${orderId} not found`);
    return o;
  }

  /** Sets the order's funds aside, or refuses it for insufficient funds. */
  private hold(order: BookOrder, reference: Dec | undefined): void {
    const { base, quote } = splitMarket(order.market);
    const asset = order.side === 'BUY' ? quote : base;
    let need: Dec;
    if (order.side === 'SELL') need = order.baseAmount!;
    else if (order.quoteAmount !== undefined) need = order.quoteAmount;
    else need = order.baseAmount!.times(order.price ?? reference ?? 0).times(this.feeRate.plus(1));
    const have = this.ledger.get(OWN, asset).available;
    if (need.gt(have)) throw new VenueRejectedError('INSUFFICIENT_FUNDS', `${order.side} ${order.market} needs ${need.toFixed()} ${asset}, ${have.toFixed()} available`, { asset, needed: need.toFixed(), available: have.toFixed() });
    this.move(asset, need.neg(), need);
    order.held = need;
  }

  private move(asset: string, available: Dec, trading: Dec): void {
    this.ledger.apply([{ profileId: OWN, asset, available, trading }]);
  }

  /** An order reaching the venue: a stop waits OPEN for its trigger, any other order runs its taker phase. */
  private enter(order: BookOrder, at: number): void {
    if (order.status !== 'SUBMITTED') return;
    if (order.rule.expiresAt !== undefined && order.rule.expiresAt <= at) {
      this.close(order, 'CANCELLED');
      return;
    }
    if (order.type === 'STOP_MARKET' || order.type === 'STOP_LIMIT') {
      order.status = 'OPEN';
      this.stops.add(order);
      if (order.rule.expiresAt !== undefined) this.expiring.add(order);
      return;
    }
    this.execute(order, at);
  }

  /** Fires the stops of `market` the book's mid has reached (at or below the stop price), oldest first. */
  private trigger(market: MarketSymbol, book: Book, at: number): void {
    if (this.stops.size === 0) return;
    const mid = book.midPrice();
    if (mid === undefined) return;
    for (const order of [...this.stops]) {
      if (order.market !== market || mid > order.rule.stopPrice!.toNumber()) continue;
      this.stops.delete(order);
      order.triggered = true;
      this.execute(order, at);
    }
  }

  /** The taker phase (on arrival, or when a stop fires), then rest or close. */
  private execute(order: BookOrder, at: number): void {
    const book = this.books.get(order.market);
    const side = order.side === 'BUY' ? book?.asks : book?.bids;
    const crosses = (p: Dec): boolean => order.price === undefined || (order.side === 'BUY' ? p.lte(order.price) : p.gte(order.price));
    const levels = (side ?? []).filter((l) => crosses(l.price));
    if (order.type === 'POST_ONLY_LIMIT' && levels.length > 0) {
      this.close(order, 'REJECTED');
      return;
    }
    if (order.rule.timeInForce === 'FOK' && !coversAll(order, levels)) {
      this.close(order, 'CANCELLED');
      return;
    }
    for (const level of levels) {
      if (this.done(order)) break;
      this.fillAt(order, level, level.price, at);
    }
    if (book) book[order.side === 'BUY' ? 'asks' : 'bids'] = (side ?? []).filter((l) => l.amount.gt(0));
    if (this.done(order)) this.close(order, 'FILLED');
    else if (order.type === 'MARKET' || order.type === 'STOP_MARKET' || order.rule.timeInForce === 'IOC' || order.rule.timeInForce === 'FOK') this.close(order, 'CANCELLED');
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
      if (this.done(order)) break;
      if (order.side === 'BUY' ? level.price.gt(order.price!) : level.price.lt(order.price!)) break;
      this.fillAt(order, level, order.price!, at);
    }
    book[order.side === 'BUY' ? 'asks' : 'bids'] = side.filter((l) => l.amount.gt(0));
    if (this.done(order)) this.close(order, 'FILLED');
  }

  private done(order: BookOrder): boolean {
    if (order.quoteAmount !== undefined) return order.spent;
    return !order.baseAmount!.minus(order.amountFilled).gt(0);
  }

  /** One fill of `order` on `level` at `price`: as much as the order still wants and the level holds. */
  private fillAt(order: BookOrder, level: Level, price: Dec, at: number): void {
    const i = catalogInstrument(order.market);
    let amount: Dec;
    if (order.quoteAmount !== undefined) {
      // a MARKET buy spends quote: the fee comes out of what it spends
      const spendable = order.quoteAmount.minus(order.notionalFilled).minus(order.fees);
      amount = D.min(level.amount, spendable.div(price.times(this.feeRate.plus(1)))).toDecimalPlaces(i.baseDecimals, D.ROUND_DOWN);
    } else {
      amount = D.min(level.amount, order.baseAmount!.minus(order.amountFilled));
    }
    if (order.quoteAmount !== undefined && amount.lt(level.amount)) order.spent = true;
    if (!amount.gt(0)) return;
    const notional = amount.times(price);
    const fee = notional.times(this.feeRate);
    level.amount = level.amount.minus(amount);
    order.amountFilled = order.amountFilled.plus(amount);
    order.notionalFilled = order.notionalFilled.plus(notional);
    order.fees = order.fees.plus(fee);
    const { base, quote } = splitMarket(order.market);
    if (order.side === 'BUY') {
      const cost = notional.plus(fee);
      const fromHeld = D.min(cost, order.held);
      order.held = order.held.minus(fromHeld);
      this.move(quote, fromHeld.minus(cost), fromHeld.neg());
      this.move(base, amount, new D(0));
    } else {
      order.held = order.held.minus(amount);
      this.move(base, new D(0), amount.neg());
      this.move(quote, notional.minus(fee), new D(0));
    }
    this.fills.push({ fillId: `${order.id}-f${this.fills.length + 1}`, orderId: order.id, market: order.market, side: order.side, amount, price, commission: fee, commissionAsset: quote, at });
  }

  private close(order: BookOrder, status: 'FILLED' | 'CANCELLED' | 'REJECTED'): void {
    order.status = status;
    this.resting.delete(order);
    this.stops.delete(order);
    this.expiring.delete(order);
    if (order.held.gt(0)) {
      const { base, quote } = splitMarket(order.market);
      const asset = order.side === 'BUY' ? quote : base;
      this.move(asset, order.held, order.held.neg());
      order.held = new D(0);
    }
    this.closed.push(order);
  }
}

function toRecord(o: BookOrder): VenueOrder {
  return toVenueOrder({ ...o, refId: o.refId });
}

/** FOK: whether the crossing levels hold the whole order. */
function coversAll(order: BookOrder, levels: readonly Level[]): boolean {
  if (order.baseAmount !== undefined) return !order.baseAmount.gt(levels.reduce((s, l) => s.plus(l.amount), new D(0)));
  return true;
}
