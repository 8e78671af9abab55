/**
 * Point replay: the backtest's simulated platform over a series of price points. Where the sandbox's
 * SimPlatform matches orders against a synthetic book every second, point replay knows only one price
 * per point, so it applies the fill rule instead (see docs/backtest.md):
 *
 * - an order placed at point t first gets a chance at point t+1 (never t): a MARKET order fills there at
 *   that point's price moved against the trader by the slippage; a limit order marketable there fills at
 *   that price (slipped, never worse than its limit); otherwise it rests and fills in full at its limit
 *   price at the first later point at or below the limit (a sell: at or above);
 * - a stop order (sell-only) waits with its base reserved and fires at the first point after its own whose
 *   price is at or below `stop_price`: a STOP_MARKET then fills like a MARKET sell at that point, a
 *   STOP_LIMIT becomes a limit sell at `price` (filled there if marketable, else resting);
 * - a held-rate quote offered at point t is point t's price moved by the quote spread, and executing it
 *   settles at once, at t;
 * - balances live in point replay's ledger (exact integer units, `ledger.ts`): placement reserves
 *   funds (available → trading), fills move them; the fill arithmetic is in units too (`fills.ts`);
 * - internal transfers move available funds between the replay's profiles under the sandbox's transfer
 *   limits, settled at once (see `../rules/transfers.ts`, shared with the book fill model);
 * - over OHLCV rows, a point carries its bar and the orders fill inside it: at the next open, at a stop or
 *   a limit the high or low reached (`bar-range.ts`).
 *
 * Every method is synchronous: the backtest driver steps it directly, and PointVenue wraps it in the
 * Venue port's promises so the live executors run unchanged.
 */
import { D, type Dec } from '../../core/decimal.js';
import type { BarExit } from '../../core/messages.js';
import { SimError } from '../../sim/errors.js';
import { compare, exactOf, exactOfNumber, type Exact } from '../../core/exact.js';
import { unitsToNumber } from '../../core/units.js';
import { buyByBase, buyByQuote, buyReservation, rateOfBps, sellByBase, slipped, type FillAmounts } from './fills.js';
import { PointLedger } from './ledger.js';
import {
  checkCommand,
  executionsSince,
  nonNegative,
  PointFill,
  type PointExecution,
  type PointOrder,
  type PointOrderCommand,
  type PointQuote,
  type PointQuoteExecution,
} from './orders.js';
import { PointStops } from './stops.js';
import { exitFillPrice, limitTouch, stopTrigger, type BarRange } from './bar-range.js';
import { INTERNAL_DEBIT, PointProfiles, usdValue, type PointTransfer, type PointTransferRequest } from '../rules/transfers.js';
import { type PointMarketOptions } from './options.js';
import { type TransferLimitView } from '../../sim/platform/transfer-limit-rules.js';
import { offerQuotes, PointQuoteExecutions, type PointQuoteRequest, type QuoteTerms } from './quotes.js';
import { takerBandRefusal } from '../../platform/order-rules.js';
import { byNumber, crosses, gttExpired, isStopType, postOnlyRefusal, takesOnly } from '../../platform/order-life.js';

export type { PointMarketOptions } from './options.js';

interface MarketPoint {
  readonly market: string;
  at: number;
  price: number;
  seq: number;
  priceDec: Dec | undefined;
  /** The price read exactly (made at the first fill of the point). */
  exact: Exact | undefined;
  quotes: readonly PointQuote[] | undefined;
  /** The bar this point closes (an OHLCV row), when the data has one: orders fill inside it (bar-range.ts). */
  range: BarRange | undefined;
}

const PROFILE = 'backtest';
const NO_EXECUTIONS: readonly PointExecution[] = [];
const NOTHING_DROPPED: readonly never[] = [];

export class PointMarket {
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly quoteSpreadBps: number;
  readonly quoteTtlMs: number;
  private readonly fee: Exact;
  private readonly slippage: Exact;
  private readonly ledger = new PointLedger();
  private readonly points = new Map<string, MarketPoint>();
  /** The point moved last. */
  private last: MarketPoint | undefined;
  private readonly orders = new Map<string, PointOrder>();
  private readonly byRef = new Map<string, string>();
  private open: PointOrder[] = [];
  private readonly stops = new PointStops();
  private readonly fills: PointExecution[] = [];
  private readonly quoteExecutions = new PointQuoteExecutions(this.ledger, PROFILE);
  private readonly profiles: PointProfiles;
  private readonly prefix: string;
  private readonly quoteTerms: QuoteTerms;
  private seq = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  private closedAtPoint: PointOrder[] = [];
  /** Exits filled inside the bar they were placed in (see `place`), not yet handed on with a point or `takePlaced`. */
  private placedFills: PointExecution[] = [];
  private placedClosed: PointOrder[] = [];
  private readonly keepClosed: number;
  /** Ids of closed orders, oldest first (only when a window is kept). */
  private readonly closedIds: string[] = [];
  /** Fills made before the first one `fills` still holds. */
  private fillsForgotten = 0;
  /** Bumped whenever balances or open orders change (the driver refreshes its views then). */
  version = 0;
  /**
   * Bumped only when a total (available + trading) of some asset may have changed: fills, quote
   * executions, transfers. Placing or cancelling an order moves funds between available and trading
   * and leaves every total as it was, so the driver's equity marks need no new reading then.
   */
  fundsVersion = 0;

  constructor(options: PointMarketOptions = {}) {
    this.feeBps = nonNegative(options.feeBps ?? 10, 'fee_bps');
    this.slippageBps = nonNegative(options.slippageBps ?? 0, 'slippage_bps');
    this.quoteSpreadBps = nonNegative(options.quoteSpreadBps ?? 10, 'quote_spread_bps');
    this.quoteTtlMs = nonNegative(options.quoteTtlMs ?? 30_000, 'quote_ttl_ms');
    this.fee = rateOfBps(this.feeBps);
    this.slippage = rateOfBps(this.slippageBps);
    this.prefix = options.idPrefix ?? 'pt';
    this.keepClosed = options.keepClosed ?? Number.POSITIVE_INFINITY;
    if (!(this.keepClosed >= 1)) throw new RangeError(`keep_closed must be at least 1, got ${options.keepClosed}`);
    this.quoteTerms = { quoteSpreadBps: this.quoteSpreadBps, quoteTtlMs: this.quoteTtlMs, prefix: this.prefix };
    for (const [asset, value] of Object.entries(options.funding ?? {})) this.ledger.credit(PROFILE, asset, new D(value));
    this.profiles = new PointProfiles(this.ledger, {
      ownId: PROFILE,
      others: options.profiles,
      limits: options.transferLimits,
      seed: options.seed,
    });
  }

  /** Time of the newest point of any market. */
  now(): number {
    return this.lastAt;
  }

  /** The current point's price of `market` (undefined before its first point). */
  price(market: string): number | undefined {
    return this.points.get(market)?.price;
  }

  /**
   * Moves `market` to a new point: first the orders made at earlier points fill at this price (by the
   * rule above), then the new price becomes current. Returns the fills made here (a shared empty array
   * when none: no allocation on the common path). With `range` (the OHLCV row the point closes), the
   * orders fill inside the bar instead: at its open, or where its high or low reached them (bar-range.ts).
   */
  point(market: string, at: number, price: number, range?: BarRange): readonly PointExecution[] {
    if (!(at >= this.lastAt)) throw new RangeError(`points must arrive in time order: ${at} after ${this.lastAt}`);
    if (!(price > 0) || !Number.isFinite(price))
      throw new RangeError(`price of ${market} at ${at} must be a positive number, got ${price}`);
    this.lastAt = at;
    // one market is the usual replay: its point is the last one moved, found without a map lookup
    let p = this.last !== undefined && this.last.market === market ? this.last : this.points.get(market);
    if (p === undefined) {
      p = { market, at, price, seq: 0, priceDec: undefined, exact: undefined, quotes: undefined, range };
      this.points.set(market, p);
    } else {
      p.at = at;
      p.price = price;
      p.seq++;
      p.priceDec = undefined;
      p.exact = undefined;
      p.quotes = undefined;
      p.range = range;
    }
    this.last = p;
    if (this.closedAtPoint.length > 0) this.closedAtPoint = [];
    // exits filled inside the previous bar and not yet taken are handed on with this point, first
    const placed = this.placedFills.length > 0 ? this.takePlaced() : undefined;
    if (placed !== undefined) this.closedAtPoint = [...placed.closed];
    if (this.fills.length >= 2 * this.keepClosed || this.closedIds.length >= 2 * this.keepClosed) this.forgetOld();
    const made = this.open.length === 0 ? NO_EXECUTIONS : this.matchOpen(market, p);
    return placed === undefined ? made : [...placed.fills, ...made];
  }

  /**
   * The exits filled inside the bar they were placed in since the last call (see `place`), with their
   * closed orders; undefined when there are none. The replay source reports them at once, as the
   * fills of a point; a point takes any left.
   */
  takePlaced(): { readonly fills: readonly PointExecution[]; readonly closed: readonly PointOrder[] } | undefined {
    if (this.placedFills.length === 0) return undefined;
    const taken = { fills: this.placedFills, closed: this.placedClosed };
    this.placedFills = [];
    this.placedClosed = [];
    return taken;
  }

  /** Orders the last `point` call closed (filled, cancelled by expiry, IOC or post-only, or rejected). */
  closedAtLastPoint(): readonly PointOrder[] {
    return this.closedAtPoint;
  }

  /** Accepts an order at the current point (funds reserved); it fills from the next point on. */
  place(cmd: PointOrderCommand): PointOrder {
    const existing = this.byRef.get(cmd.refId);
    if (existing !== undefined)
      throw new SimError(
        'already-exists',
        `an order with ref_id ${cmd.refId} already exists`,
        { ref_id: cmd.refId },
        { kind: 'order', id: existing },
      );
    const p = this.points.get(cmd.market);
    const c = checkCommand(cmd, p?.price);
    if (p === undefined) throw new SimError('not-found', `market ${c.market} has no price point yet: orders start after the first point`);
    const reserved =
      cmd.side === 'BUY'
        ? {
            asset: c.quote,
            units: c.byQuote ? c.size : buyReservation(c.size, c.exact.price as Exact, this.fee, c.precision),
            scale: c.precision.quoteDp,
          }
        : { asset: c.base, units: c.size, scale: c.precision.baseDp };
    this.ledger.reserveUnits(PROFILE, reserved.asset, reserved.units, reserved.scale);
    const order: PointOrder = {
      id: `${this.prefix}-o${++this.seq}`,
      refId: cmd.refId,
      market: c.market,
      base: c.base,
      quote: c.quote,
      side: cmd.side,
      type: cmd.type,
      timeInForce: c.terms.timeInForce ?? 'GTC',
      terms: c.terms,
      byQuote: c.byQuote,
      limit: c.exact.price === undefined ? Number.NaN : numberOf(c.exact.price),
      expiresAt: cmd.expiresAt,
      createdAt: this.lastAt,
      status: 'OPEN',
      fill: undefined,
      fresh: true,
      precision: c.precision,
      size: c.size,
      limitPrice: c.exact.price,
      reserved,
      reason: undefined,
    };
    this.orders.set(order.id, order);
    this.byRef.set(order.refId, order.id);
    this.version++;
    if (cmd.barExit !== undefined && this.fillInBar(order, cmd.barExit, p)) return order;
    if (isStopType(order.type) && c.exact.stopPrice !== undefined) this.stops.add(order.id, numberOf(c.exact.stopPrice));
    this.open.push(order);
    return order;
  }

  /**
   * A position helper's MARKET sell decided on the bar of the current point, its level reached by
   * the bar's low (a stop) or high (a take-profit): filled now, inside that bar, at the level moved
   * against the trader by the slippage (at the open when the bar opened beyond the level), as a live
   * run watching every price would have sold there. False (an ordinary MARKET order, filled at the
   * next point) without a bar, or when the bar never came to the level.
   */
  private fillInBar(o: PointOrder, exit: BarExit, p: MarketPoint): boolean {
    if (o.type !== 'MARKET' || o.side !== 'SELL' || p.range === undefined || (exit.by !== 'low' && exit.by !== 'high')) return false;
    const level = typeof exit.level === 'string' ? exactOf(exit.level) : undefined;
    if (level === undefined || level.units <= 0n) return false;
    const at = exitFillPrice(numberOf(level), exit.by, p.range);
    if (at === undefined) return false;
    const x = this.atSlipped(o, at === p.range.open ? this.exactAt(p, at) : level, false);
    if (x.base === 0n) return false;
    this.placedFills.push(this.fill(o, x, p));
    this.placedClosed.push(o);
    return true;
  }

  /** Cancels an open order at once (its funds return to available); a closed order stays as it is. */
  cancel(orderId: string): PointOrder {
    const o = this.getOrder(orderId);
    if (o.status === 'OPEN') this.close(o, 'CANCELLED', 'cancelled by request');
    return o;
  }

  getOrder(orderId: string): PointOrder {
    const o = this.orders.get(orderId);
    if (o === undefined) throw new SimError('not-found', `order ${orderId} not found`);
    return o;
  }

  findOrderByRef(refId: string): PointOrder | undefined {
    const id = this.byRef.get(refId);
    return id === undefined ? undefined : this.orders.get(id);
  }

  openOrders(): readonly PointOrder[] {
    return this.open;
  }

  /** Fills at or after `sinceMs`, oldest first (within the kept window). */
  executions(sinceMs = Number.NEGATIVE_INFINITY): readonly PointExecution[] {
    return executionsSince(this.fills, sinceMs);
  }

  /** How many fills point replay has made, forgotten ones included. */
  get executionCount(): number {
    return this.fillsForgotten + this.fills.length;
  }

  /** The fills from the `index`-th made on (0 is the first ever); throws if some were already forgotten. */
  executionsFrom(index: number): readonly PointExecution[] {
    if (index < this.fillsForgotten)
      throw new RangeError(
        `fills before #${this.fillsForgotten} are forgotten (keep_closed ${this.keepClosed}); read fills at least that often`,
      );
    return index >= this.executionCount ? NO_EXECUTIONS : this.fills.slice(index - this.fillsForgotten);
  }

  /** Balances of every asset a profile (default: the replay's own) ever held: available and trading (held by open orders). */
  balances(profileId = PROFILE): Array<{ readonly asset: string; readonly available: Dec; readonly trading: Dec }> {
    return this.ledger.balances(this.profiles.resolve(profileId));
  }

  balance(asset: string, profileId = PROFILE): { readonly available: Dec; readonly trading: Dec } {
    return this.ledger.get(this.profiles.resolve(profileId), asset);
  }

  /** Available plus trading of `asset` as a number (the backtest's equity marks). */
  totalNumber(asset: string, profileId = PROFILE): number {
    return this.ledger.totalNumber(this.profiles.resolve(profileId), asset);
  }

  /** Moves available funds between two profiles at the current point, settled at once; idempotent by `refId`. */
  transfer(req: PointTransferRequest): PointTransfer {
    if (this.lastAt === Number.NEGATIVE_INFINITY)
      throw new SimError('bad-request', 'transfers start at the first price point: point replay has no time before it');
    const t = this.profiles.transfer(
      req,
      this.lastAt,
      (asset, amount) => usdValue(asset, amount, this.points),
      () => `${this.prefix}-t${++this.seq}`,
    );
    this.version++;
    this.fundsVersion++;
    return t;
  }

  findTransferByRef(refId: string): PointTransfer | undefined {
    return this.profiles.findByRef(refId);
  }

  /** The transfer limits covering `type` with what remains of each now, as the sandbox lists them. */
  transferLimits(type: string = INTERNAL_DEBIT): TransferLimitView[] {
    return this.profiles.limitsFor(type, this.lastAt);
  }

  /** The buy and sell quotes offered at the current point of `market` (none before its first point). */
  quotes(market: string): readonly PointQuote[] {
    const p = this.points.get(market);
    if (p === undefined) return [];
    p.quotes ??= offerQuotes(market, p.at, p.seq, this.priceOf(p), this.quoteTerms);
    return p.quotes;
  }

  /** Executes a quote of the current point; settles at once. Idempotent by `refId`. */
  executeQuote(req: PointQuoteRequest): PointQuoteExecution {
    const prior = this.findQuoteExecutionByRef(req.refId);
    if (prior !== undefined) return prior;
    const quote = [...this.points.keys()].flatMap((m) => this.quotes(m)).find((q) => q.quoteId === req.quoteId);
    if (quote === undefined) throw new SimError('not-found', `quote ${req.quoteId} is not offered (quotes live for one point)`);
    if (quote.expiresAt < this.lastAt)
      throw new SimError('not-found', `quote ${req.quoteId} expired at ${new Date(quote.expiresAt).toISOString()}`);
    const { exec, fill } = this.quoteExecutions.settle(req, quote, this.lastAt, () => `${this.prefix}-x${++this.seq}`);
    this.addFill(fill);
    this.version++;
    this.fundsVersion++;
    return exec;
  }

  getQuoteExecution(executionId: string): PointQuoteExecution {
    return this.quoteExecutions.get(executionId);
  }

  findQuoteExecutionByRef(refId: string): PointQuoteExecution | undefined {
    return this.quoteExecutions.findByRef(refId);
  }

  private priceOf(p: MarketPoint): Dec {
    p.priceDec ??= new D(p.price);
    return p.priceDec;
  }

  private exactPriceOf(p: MarketPoint): Exact {
    // a point's price is a finite positive number (checked by `point`)
    p.exact ??= exactOfNumber(p.price) as Exact;
    return p.exact;
  }

  /** Runs the fill rule over the open orders of `market` at its new point. */
  private matchOpen(market: string, p: MarketPoint): readonly PointExecution[] {
    const made: PointExecution[] = [];
    let closed = false;
    // inside a bar the stops go first (of a stop-loss and a take-profit the bar both reached, the loss
    // first), unless the run's intrabar rule takes this bar's high as reached first
    const orders = p.range !== undefined && this.stops.size > 0 ? byExtreme(this.open, this.stops, p.range.lowFirst !== false) : this.open;
    for (const o of orders) {
      if (o.market !== market || o.status !== 'OPEN') continue;
      if (gttExpired(o.expiresAt, p.at)) {
        this.close(o, 'CANCELLED', 'GTT expired', false);
      } else {
        const fill =
          this.stops.size > 0 && this.stops.waits(o.id) ? this.triggered(o, p) : o.fresh ? this.firstChance(o, p) : this.resting(o, p);
        o.fresh = false;
        if (fill !== undefined && fill.base === 0n) this.close(o, 'REJECTED', 'the fill would be smaller than the base precision', false);
        else if (fill !== undefined) made.push(this.fill(o, fill, p));
      }
      if (o.status !== 'OPEN') {
        closed = true;
        this.closedAtPoint.push(o);
      }
    }
    if (closed) this.open = this.open.filter((o) => o.status === 'OPEN');
    return made.length === 0 ? NO_EXECUTIONS : made;
  }

  /** A waiting stop at a later point: once the price is at or below its stop, its first chance as a market or limit sell. */
  private triggered(o: PointOrder, p: MarketPoint): FillAmounts | undefined {
    if (p.range === undefined) return this.stops.fires(o.id, p.price) ? this.firstChance(o, p) : undefined;
    // inside a bar: fired by the low, at the stop (or the open, when the bar gapped through it)
    const at = stopTrigger(this.stops.stopOf(o.id)!, p.range);
    if (at === undefined) return undefined;
    this.stops.remove(o.id);
    return this.firstChance(o, p, at);
  }

  /**
   * The point after placement (or a stop's trigger): MARKET fills; a marketable limit fills (slipped,
   * capped at the limit). The chance begins at the point's price, or inside a bar at its open (a fired
   * stop: at `triggeredAt`); there a limit the bar's high or low reached later fills at its limit.
   */
  private firstChance(o: PointOrder, p: MarketPoint, triggeredAt?: number): FillAmounts | undefined {
    const at = triggeredAt ?? p.range?.open;
    if (o.type === 'MARKET' || o.type === 'STOP_MARKET') return this.atSlipped(o, this.exactAt(p, at), false);
    const marketable = crosses(o.side, at ?? p.price, o.limit, byNumber);
    // the platform's entry rules, with the point's price as the mid: the same status and words as the sandbox
    const postOnly = postOnlyRefusal(o.type, marketable);
    if (postOnly !== undefined) return void this.close(o, 'REJECTED', postOnly, false);
    if (marketable) {
      const band = o.type === 'LIMIT' ? takerBandRefusal(o.terms.price as Dec, at === undefined ? this.priceOf(p) : new D(at)) : undefined;
      if (band !== undefined) return void this.close(o, 'REJECTED', band, false);
      return this.atSlipped(o, this.exactAt(p, at), true);
    }
    // an immediate order's remainder (here: all of it) is cancelled; the others rest
    if (takesOnly(o.type, o.timeInForce))
      return void this.close(o, 'CANCELLED', `${o.timeInForce} order not marketable at the next point`, false);
    // a limit placed before the bar that the bar's high or low reached (a fired stop limit waits for the next bar)
    if (p.range !== undefined && triggeredAt === undefined && limitTouch(o.side, o.limit, p.range) === 'limit')
      return this.amounts(o, o.limitPrice as Exact);
    return undefined;
  }

  /** Later points: a resting limit fills in full at its limit price once the price reaches it (inside a bar: at the open when it opened through it). */
  private resting(o: PointOrder, p: MarketPoint): FillAmounts | undefined {
    if (p.range !== undefined) {
      const touch = limitTouch(o.side, o.limit, p.range);
      return touch === undefined ? undefined : this.amounts(o, touch === 'open' ? this.exactAt(p, p.range.open) : (o.limitPrice as Exact));
    }
    const reached = crosses(o.side, p.price, o.limit, byNumber);
    return reached ? this.amounts(o, o.limitPrice as Exact) : undefined;
  }

  /** The point's price exactly, or `at` (an open, a stop) read exactly. */
  private exactAt(p: MarketPoint, at: number | undefined): Exact {
    return at === undefined ? this.exactPriceOf(p) : (exactOfNumber(at) as Exact);
  }

  /** `o` filled at `at` (the point's price, a bar's open or a stop) moved against it by the slippage, never worse than its limit when `capped`. */
  private atSlipped(o: PointOrder, at: Exact, capped: boolean): FillAmounts {
    const price = slipped(at, o.side, this.slippage);
    if (!capped) return this.amounts(o, price);
    const limit = o.limitPrice as Exact;
    const worse = o.side === 'BUY' ? compare(price, limit) > 0 : compare(price, limit) < 0;
    return this.amounts(o, worse ? limit : price);
  }

  /** What `o` moves filling at `price` (the fill rules of `fills.ts`). */
  private amounts(o: PointOrder, price: Exact): FillAmounts {
    if (o.side === 'SELL') return sellByBase(o.size, price, this.fee, o.precision);
    return o.byQuote ? buyByQuote(o.size, price, this.fee, o.precision) : buyByBase(o.size, price, this.fee, o.precision);
  }

  /** Moves the fill's funds atomically: the reservation goes, the other asset arrives. */
  private fill(o: PointOrder, x: FillAmounts, p: MarketPoint): PointExecution {
    const r = o.reserved;
    if (o.side === 'BUY') this.ledger.settleUnits(PROFILE, r.asset, r.units, x.quote, r.scale, o.base, x.base, o.precision.baseDp);
    else this.ledger.settleUnits(PROFILE, r.asset, r.units, x.base, r.scale, o.quote, x.quote, o.precision.quoteDp);
    o.status = 'FILLED';
    this.retire(o);
    const exec = new PointFill(
      {
        executionId: `${this.prefix}-f${++this.seq}`,
        orderId: o.id,
        refId: o.refId,
        market: o.market,
        side: o.side,
        commissionAsset: o.quote,
        at: p.at,
        kind: 'order',
        exactAmount: { units: x.base, scale: o.precision.baseDp },
        exactPrice: x.price,
        exactCommission: x.fee,
        exactQuoteAmount: { units: x.quote, scale: o.precision.quoteDp },
      },
      o.terms,
      x.price === p.exact ? p.price : undefined,
    );
    o.fill = exec;
    this.addFill(exec);
    this.version++;
    this.fundsVersion++;
    return exec;
  }

  private addFill(x: PointExecution): void {
    this.fills.push(x);
  }

  private retire(o: PointOrder): void {
    if (this.keepClosed !== Number.POSITIVE_INFINITY) this.closedIds.push(o.id);
  }

  /**
   * Forgets the oldest closed orders and fills beyond the window (once either list holds twice the
   * window). Runs as a point begins, so every record made since the last point stays readable however
   * many there are: the reader (the backtest driver) takes them before it moves to the next point.
   */
  private forgetOld(): void {
    this.fillsForgotten += dropOldest(this.fills, this.keepClosed).length;
    for (const id of dropOldest(this.closedIds, this.keepClosed)) this.orders.delete(id);
  }

  private close(o: PointOrder, status: 'CANCELLED' | 'REJECTED', reason: string, prune = true): void {
    this.ledger.releaseUnits(PROFILE, o.reserved.asset, o.reserved.units, o.reserved.scale);
    if (this.stops.size > 0) this.stops.remove(o.id);
    o.status = status;
    o.reason = reason;
    this.retire(o);
    if (prune) this.open = this.open.filter((x) => x !== o);
    this.version++;
  }
}

/**
 * Once `list` holds twice `keep` items, removes and returns all but the newest `keep` (none before):
 * trimming in halves keeps the cost per item flat.
 */
function dropOldest<T>(list: T[], keep: number): readonly T[] {
  return list.length < 2 * keep ? NOTHING_DROPPED : list.splice(0, list.length - keep);
}

/** The open orders with the waiting stops (met by a bar's low) first, or last when the high came first; each group in placement order. */
function byExtreme(open: readonly PointOrder[], stops: PointStops, lowFirst: boolean): PointOrder[] {
  const waiting = open.filter((o) => stops.waits(o.id));
  const others = open.filter((o) => !stops.waits(o.id));
  return lowFirst ? [...waiting, ...others] : [...others, ...waiting];
}

/** An exact price as the nearest number (limit and stop prices compared with each point's). */
function numberOf(x: Exact): number {
  return unitsToNumber(x.units, x.scale);
}
