import { type Instrument, type MarketSymbol, type PriceLevel } from '../../core/index.js';
import { tradingInstruments } from '../../platform/instruments.js';
import type { TransferLimitConfig } from '../../platform/transfer-limits.js';
import { INTERNAL_DEBIT, PointProfiles, usdValue } from '../rules/transfers.js';
import type { RecordedTrade } from '../../venue/polling/recent-trades.js';
import { OWN, RecordedBookFunds } from './funds.js';
import { RecordedBookMatcher } from './matching.js';
import { newOrder, toRecord, type BookOrder } from './order.js';
import { RecordedQuoteDesk, type RecordedQuote, type RecordedQuoteExecution } from './quotes.js';
import { mapError, toTransferLimitRow } from '../../venue/sim-venue.js';
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
} from '../../venue/venue.js';

export type { RecordedQuote, RecordedQuoteExecution } from './quotes.js';

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
 * point replay (`../rules/transfers.ts`: one implementation, the same checks, codes and words).
 *
 * This class is the Venue port over its parts, beside it: order entry and its checks
 * (order.ts), funds and fills (funds.ts), matching on books and trades
 * with stops and GTT expiry (matching.ts), quotes (quotes.ts) and the
 * recorded book's levels (levels.ts).
 */
export class RecordedBookVenue implements Venue {
  readonly name = 'recorded-book';
  private readonly orders = new Map<string, BookOrder>();
  private readonly byRef = new Map<string, BookOrder>();
  private readonly funds: RecordedBookFunds;
  private readonly matcher: RecordedBookMatcher;
  private readonly desk: RecordedQuoteDesk;
  private readonly profiles: PointProfiles;
  private readonly latencyMs: number;
  private seq = 0;

  constructor(private readonly o: RecordedBookVenueOptions) {
    this.latencyMs = o.latencyMs ?? 0;
    if (!Number.isFinite(this.latencyMs) || this.latencyMs < 0)
      throw new VenueRejectedError('BAD_REQUEST', `latency must be 0 or more milliseconds, got ${String(o.latencyMs)}`);
    this.funds = new RecordedBookFunds(o.funding, o.feeBps ?? 10);
    this.matcher = new RecordedBookMatcher(this.funds);
    this.desk = new RecordedQuoteDesk({ ledger: this.funds.ledger, now: o.now, latencyMs: this.latencyMs, nextSeq: () => ++this.seq });
    this.profiles = new PointProfiles(this.funds.ledger, { ownId: OWN, others: o.profiles, limits: o.transferLimits, seed: o.seed });
  }

  /**
   * A recorded book of `market` at `at`: orders that arrived before it meet the book they arrived
   * to, then this book replaces it, fires the stops its mid reaches and crosses the resting orders.
   */
  book(market: MarketSymbol, at: number, bids: readonly PriceLevel[], asks: readonly PriceLevel[]): readonly VenueFill[] {
    return this.matcher.book(market, at, bids, asks);
  }

  /**
   * A recorded trade of `market` (its `at` is when it executed): resting limits that were at the
   * venue by then and whose price it went at or through fill at their own price, best price first
   * then oldest, until the trade's amount is used up. A trade seen before (same match number) is
   * ignored.
   */
  trade(market: MarketSymbol, t: RecordedTrade): readonly VenueFill[] {
    return this.matcher.trade(market, t);
  }

  /** Orders that reach the venue by `at` (before it, unless `inclusive`) meet the book in force; GTT orders past their expiry close. */
  arrive(at: number, inclusive = true): void {
    this.matcher.arrive(at, inclusive);
  }

  /** Orders that closed since the last call (filled, cancelled, rejected). */
  takeClosed(): readonly VenueOrder[] {
    return this.matcher.takeClosed();
  }

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    const existing = this.byRef.get(req.refId);
    if (existing !== undefined) return toRecord(existing);
    const now = this.o.now();
    const { order, reference } = newOrder(req, {
      book: this.matcher.bookOf(req.market),
      now,
      latencyMs: this.latencyMs,
      nextId: () => `rb-${++this.seq}`,
    });
    this.funds.hold(order, reference);
    this.orders.set(order.id, order);
    this.byRef.set(order.refId, order);
    this.matcher.submit(order, now);
    return toRecord(order);
  }

  async cancelOrder(orderId: string): Promise<void> {
    this.matcher.cancel(this.find(orderId));
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    return toRecord(this.find(orderId));
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    const o = this.byRef.get(refId);
    return o && toRecord(o);
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    return this.matcher.open().map(toRecord);
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    return this.funds.fills.filter((f) => f.at >= sinceMs);
  }

  /** A recorded held-rate quote: offered until its `expiresAt`. */
  quote(q: RecordedQuote): void {
    this.desk.offer(q);
  }

  /** The recorded quotes of `market` not yet expired, newest last. */
  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    return this.desk.list(market);
  }

  /**
   * Executes a recorded quote at its price when the request reaches the venue (now plus the latency)
   * no later than the quote's `expires_at`; refused after it. Idempotent by `refId`.
   */
  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    return this.desk.execute(req);
  }

  async getQuoteExecution(executionId: string): Promise<VenueQuoteExecution> {
    return this.desk.get(executionId);
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    return this.desk.findByRef(refId);
  }

  /** Every quote execution so far, oldest first. */
  allQuoteExecutions(): readonly RecordedQuoteExecution[] {
    return this.desk.all();
  }

  async balances(): Promise<readonly VenueBalance[]> {
    return this.funds.balances();
  }

  /**
   * An internal transfer between the replay's profiles, settled at once (its ref_id repeated returns
   * the first), refused as the sandbox refuses it: its field checks, transfer limits (crypto valued
   * at the last recorded book mid) and funds.
   */
  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    try {
      const marks = new Map<string, { price: number }>();
      for (const [market, mid] of this.matcher.mids()) marks.set(market, { price: mid.toNumber() });
      const t = this.profiles.transfer(
        req,
        this.o.now(),
        (asset, amount) => usdValue(asset, amount, marks),
        () => `rt-${++this.seq}`,
      );
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
    return tradingInstruments();
  }

  /** Every fill so far, oldest first. */
  allFills(): readonly VenueFill[] {
    return this.funds.fills;
  }

  private find(orderId: string): BookOrder {
    const o = this.orders.get(orderId);
    if (o === undefined) throw new VenueNotFoundError(`order ${orderId} not found`);
    return o;
  }
}
