import { D, type Dec, type Instrument, type MarketSymbol, type PriceLevel, splitMarket } from '../core/index.js';
import { catalogInstrument, catalogInstruments } from '../sim/market/catalog.js';
import { capViolation, isViolation, ruleOrder, type RuledOrder } from '../sim/exchange/order-rules.js';
import { toVenueOrder } from './sim-venue.js';
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

/** One level of a recorded book, as decimals (what is left of it after our own fills). */
interface Level {
  readonly price: Dec;
  amount: Dec;
}

/** A recorded book; its levels become decimals only when an order meets them (most books meet none). */
class Book {
  private b: Level[] | undefined;
  private a: Level[] | undefined;

  constructor(
    readonly at: number,
    private readonly rawBids: readonly PriceLevel[],
    private readonly rawAsks: readonly PriceLevel[],
  ) {}

  get bids(): Level[] {
    return (this.b ??= levels(this.rawBids, 'bids'));
  }

  set bids(v: Level[]) {
    this.b = v;
  }

  get asks(): Level[] {
    return (this.a ??= levels(this.rawAsks, 'asks'));
  }

  set asks(v: Level[]) {
    this.a = v;
  }

  /** Whether the side a resting order meets could cross `price` (a float pre-check; decimals decide). */
  mayCross(side: 'BUY' | 'SELL', price: number): boolean {
    if (side === 'BUY') return this.a !== undefined ? this.a.length > 0 && this.a[0]!.price.toNumber() <= price : this.rawAsks.some((l) => l.amount > 0 && l.price > 0 && l.price <= price);
    return this.b !== undefined ? this.b.length > 0 && this.b[0]!.price.toNumber() >= price : this.rawBids.some((l) => l.amount > 0 && l.price >= price);
  }
}

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
}

/**
 * The Venue over a recorded market, for backtests of a stream recording (`--fill-model book`). The
 * replay feeds each recorded order book in with `book()`; orders are ruled by the platform's one set
 * of order rules, reach the venue `latencyMs` after they are placed, and fill against the book in
 * force when they arrive:
 *
 * - a MARKET order walks the levels from the best price, one fill per level at that level's price,
 *   until its amount (base for a sell, quote for a buy) is done or the book runs out; a remainder the
 *   book could not fill is cancelled (status CANCELLED with what filled), as the platform does;
 * - a LIMIT order first takes what crosses it (levels at or better than its price, at their prices);
 *   IOC/FOK remainders are cancelled (FOK fills nothing unless all of it can fill), the rest rests;
 * - a resting LIMIT fills, at its own price, when a later recorded book's opposite side crosses it
 *   (asks at or below a buy's price, bids at or above a sell's), up to the amount on those levels;
 * - what our fills take is gone from the book until the next recorded book replaces it.
 *
 * Each fill pays `feeBps` of its notional in the quote asset. Funds are checked and held on entry.
 *
 * Held-rate quotes the recording holds (fed in with `quote()`) execute at the quote's price when the
 * execution reaches the venue (after the latency) no later than the quote's `expires_at`, and are
 * refused after it; they settle at once, without a fee. Transfers are refused, saying so.
 */
export class RecordedBookVenue implements Venue {
  readonly name = 'recorded-book';
  private readonly books = new Map<MarketSymbol, Book>();
  private readonly orders = new Map<string, BookOrder>();
  private readonly byRef = new Map<string, BookOrder>();
  private readonly pending: BookOrder[] = [];
  /** Orders resting (OPEN), oldest first: what each new book may cross. */
  private readonly resting = new Set<BookOrder>();
  private readonly fills: VenueFill[] = [];
  private readonly available = new Map<string, Dec>();
  private readonly trading = new Map<string, Dec>();
  private readonly feeRate: Dec;
  private readonly latencyMs: number;
  private seq = 0;
  /** Orders closed since the last `takeClosed()` (a replay source reports them). */
  private closed: BookOrder[] = [];
  private readonly quotes = new Map<string, RecordedQuote>();
  private readonly executions: RecordedQuoteExecution[] = [];
  private readonly executionsByRef = new Map<string, RecordedQuoteExecution>();

  constructor(private readonly o: RecordedBookVenueOptions) {
    this.feeRate = new D(o.feeBps ?? 10).div(10_000);
    this.latencyMs = o.latencyMs ?? 0;
    if (!Number.isFinite(this.latencyMs) || this.latencyMs < 0) throw new VenueRejectedError('BAD_REQUEST', `latency must be 0 or more milliseconds, got ${String(o.latencyMs)}`);
    for (const [asset, amount] of Object.entries(o.funding)) this.available.set(asset, new D(amount));
  }

  /**
   * A recorded book of `market` at `at`: orders that arrived before it meet the book they arrived
   * to, then this book replaces it and crosses the resting orders.
   */
  book(market: MarketSymbol, at: number, bids: readonly PriceLevel[], asks: readonly PriceLevel[]): readonly VenueFill[] {
    const before = this.fills.length;
    this.arrive(at, false);
    const book = new Book(at, bids, asks);
    this.books.set(market, book);
    this.arrive(at);
    for (const order of [...this.resting]) {
      if (order.market === market && book.mayCross(order.side, order.price!.toNumber())) this.crossResting(order, book, at);
    }
    return this.fills.slice(before);
  }

  /** Orders that reach the venue by `at` (before it, unless `inclusive`) meet the book in force. */
  arrive(at: number, inclusive = true): void {
    while (this.pending.length > 0 && (inclusive ? this.pending[0]!.arrivesAt <= at : this.pending[0]!.arrivesAt < at)) {
      const order = this.pending.shift()!;
      this.enter(order, order.arrivesAt);
    }
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
    const reference = book && mid(book);
    const cap = capViolation(rule, instrument, reference ? { reference } : {});
    if (cap !== undefined) throw new VenueRejectedError('NOTIONAL_VALUE_TOO_LARGE', cap.reason, cap.details);
    const now = this.o.now();
    const order: BookOrder = {
      id: `rb-${++this.seq}`, refId: req.refId, market: req.market, side: rule.side, type: rule.type, rule,
      ...(rule.baseAmount && { baseAmount: rule.baseAmount }), ...(rule.quoteAmount && { quoteAmount: rule.quoteAmount }), ...(rule.price && { price: rule.price }),
      status: 'SUBMITTED', amountFilled: new D(0), notionalFilled: new D(0), createdAt: now, arrivesAt: now + this.latencyMs, held: new D(0), spent: false, fees: new D(0),
    };
    if (rule.type !== 'MARKET' && rule.type !== 'LIMIT') throw new VenueRejectedError('BAD_REQUEST', `type: the recorded-book venue fills MARKET and LIMIT orders; replay ${rule.type} with --fill-model points`);
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
    return [...this.pending, ...this.resting].map(toRecord);
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
    const have = this.available.get(pay) ?? new D(0);
    if (payAmount.gt(have)) throw new VenueRejectedError('INSUFFICIENT_FUNDS', `${q.side} ${q.market} by quote needs ${payAmount.toFixed()} ${pay}, ${have.toFixed()} available`, { asset: pay, needed: payAmount.toFixed(), available: have.toFixed() });
    this.move(pay, payAmount.neg(), new D(0));
    this.move(get, getAmount, new D(0));
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
    const assets = new Set([...this.available.keys(), ...this.trading.keys()]);
    return [...assets].sort().map((asset) => ({ asset, available: this.available.get(asset) ?? new D(0), trading: this.trading.get(asset) ?? new D(0) }));
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    throw new VenueRejectedError('BAD_REQUEST', `transfer ${req.refId}: a recorded market has no other profiles to transfer to; backtest transfers with --fill-model points`);
  }

  async findTransferByRef(): Promise<VenueTransfer | undefined> {
    return undefined;
  }

  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    return [];
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
    const have = this.available.get(asset) ?? new D(0);
    if (need.gt(have)) throw new VenueRejectedError('INSUFFICIENT_FUNDS', `${order.side} ${order.market} needs ${need.toFixed()} ${asset}, ${have.toFixed()} available`, { asset, needed: need.toFixed(), available: have.toFixed() });
    this.move(asset, need.neg(), need);
    order.held = need;
  }

  private move(asset: string, available: Dec, trading: Dec): void {
    this.available.set(asset, (this.available.get(asset) ?? new D(0)).plus(available));
    this.trading.set(asset, (this.trading.get(asset) ?? new D(0)).plus(trading));
  }

  /** The taker phase when the order reaches the venue, then rest or close. */
  private enter(order: BookOrder, at: number): void {
    if (order.status !== 'SUBMITTED') return;
    const book = this.books.get(order.market);
    const side = order.side === 'BUY' ? book?.asks : book?.bids;
    const crosses = (p: Dec): boolean => order.price === undefined || (order.side === 'BUY' ? p.lte(order.price) : p.gte(order.price));
    const levels = (side ?? []).filter((l) => crosses(l.price));
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
    else if (order.type === 'MARKET' || order.rule.timeInForce === 'IOC' || order.rule.timeInForce === 'FOK') this.close(order, 'CANCELLED');
    else {
      order.status = 'OPEN';
      this.resting.add(order);
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

  private close(order: BookOrder, status: 'FILLED' | 'CANCELLED'): void {
    order.status = status;
    this.resting.delete(order);
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

function levels(raw: readonly PriceLevel[], side: 'bids' | 'asks'): Level[] {
  const out = raw.filter((l) => l.amount > 0 && l.price > 0).map((l) => ({ price: new D(l.price), amount: new D(l.amount) }));
  return out.sort((a, b) => (side === 'bids' ? b.price.comparedTo(a.price) : a.price.comparedTo(b.price)));
}

function mid(book: Book): Dec | undefined {
  const [bid, ask] = [book.bids[0], book.asks[0]];
  return bid && ask ? bid.price.plus(ask.price).div(2) : (bid ?? ask)?.price;
}

/** FOK: whether the crossing levels hold the whole order. */
function coversAll(order: BookOrder, levels: readonly Level[]): boolean {
  if (order.baseAmount !== undefined) return !order.baseAmount.gt(levels.reduce((s, l) => s.plus(l.amount), new D(0)));
  return true;
}
