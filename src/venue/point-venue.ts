import { ZERO, type Dec, type Instrument, type MarketSymbol, type Side } from '../core/index.js';
import type { RuledOrder } from '../sim/exchange/order-rules.js';
import { catalogInstruments } from '../sim/market/catalog.js';
import type { PointMarket } from '../sim/replay/point-market.js';
import type { PointExecution, PointOrder, PointQuoteExecution } from '../sim/replay/point-orders.js';
import type { PointTransfer } from '../sim/replay/point-transfers.js';
import { mapError, toTransferLimitRow } from './sim-venue.js';
import {
  TRANSFER_INTENT_TYPE,
  type ExecuteQuoteRequest,
  type PlaceOrderRequest,
  type TransferLimitRow,
  type TransferRequest,
  type Venue,
  type VenueBalance,
  type VenueFill,
  type VenueOrder,
  type VenueOrderStatus,
  type VenueQuote,
  type VenueQuoteExecution,
  type VenueTransfer,
} from './venue.js';

/**
 * The Venue over point replay (`src/sim/replay/point-market.ts`), for backtests. The async methods honour
 * the port, so the live OrderExecutor, QuoteExecutor and FillTracker run unchanged on top of it; the
 * `*Sync` methods let the backtest driver step and read it on its per-point path without a promise.
 * Errors map exactly as SimVenue's: refusals and bad input are VenueRejectedError, unknown ids
 * VenueNotFoundError.
 */
export class PointVenue implements Venue {
  readonly name = 'point-replay';

  constructor(readonly market: PointMarket) {}

  /** Synchronous placement (an existing ref_id returns the order made with it, as live). */
  placeOrderSync(req: PlaceOrderRequest): VenueOrder {
    try {
      return toVenueOrder(this.market.place(req));
    } catch (e) {
      const existing = this.market.findOrderByRef(req.refId);
      if (existing !== undefined) return toVenueOrder(existing);
      throw mapError(e);
    }
  }

  getOrderSync(orderId: string): VenueOrder {
    return this.guard(() => toVenueOrder(this.market.getOrder(orderId)));
  }

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    return this.placeOrderSync(req);
  }

  async cancelOrder(orderId: string): Promise<void> {
    this.guard(() => this.market.cancel(orderId));
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    return this.getOrderSync(orderId);
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    const o = this.market.findOrderByRef(refId);
    return o && toVenueOrder(o);
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    return this.market.openOrders().map(toVenueOrder);
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    return this.market.executions(sinceMs).filter((x) => x.kind === 'order').map(toVenueFill);
  }

  async balances(): Promise<readonly VenueBalance[]> {
    return this.market.balances();
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    return this.market.quotes(market).map((q) => ({ quoteId: q.quoteId, market: q.market, side: q.side, price: q.price, expiresAt: q.expiresAt }));
  }

  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    return this.guard(() => toVenueQuoteExecution(this.market.executeQuote(req)));
  }

  async getQuoteExecution(executionId: string): Promise<VenueQuoteExecution> {
    return this.guard(() => toVenueQuoteExecution(this.market.getQuoteExecution(executionId)));
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    const x = this.market.findQuoteExecutionByRef(refId);
    return x && toVenueQuoteExecution(x);
  }

  /**
   * An internal transfer between the replay's profiles, settled at once; refused as the sandbox refuses
   * it (its limits, funds and field checks). A repeated ref_id returns the transfer made with it.
   */
  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    return this.guard(() => toVenueTransfer(this.market.transfer(req)));
  }

  async findTransferByRef(refId: string): Promise<VenueTransfer | undefined> {
    const t = this.market.findTransferByRef(refId);
    return t && toVenueTransfer(t);
  }

  /** The replay's transfer limits with what remains of each, as the sandbox's ListTransferLimits lists them. */
  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    return this.market.transferLimits(TRANSFER_INTENT_TYPE).map(toTransferLimitRow);
  }

  /** The catalog's trading markets, as the sandbox lists them: point replay checks orders against the same ticks. */
  async instruments(): Promise<readonly Instrument[]> {
    return catalogInstruments();
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw mapError(e);
    }
  }
}

/**
 * A point-replay order as the Venue port speaks of it: SimVenue's fields (in its order, written as
 * JSON). Its amounts and prices are the order rules' readings, whose Decimals are made when first
 * read: the executors read an order's status and fill, never its terms, so an order report costs no
 * Decimal of them. A point fill is one fill in full, so a filled order's average price is its fill's.
 */
class PointVenueOrder implements VenueOrder {
  readonly orderId: string;
  readonly refId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly type: string;
  readonly status: VenueOrderStatus;
  readonly amountFilled: Dec;
  readonly averagePrice: Dec | undefined;
  readonly createdAt: number;
  readonly #terms: RuledOrder;

  constructor(o: PointOrder) {
    this.orderId = o.id;
    this.refId = o.refId;
    this.market = o.market as MarketSymbol;
    this.side = o.side;
    this.type = o.type;
    this.status = o.status;
    this.amountFilled = o.fill === undefined ? ZERO : o.fill.amount;
    this.averagePrice = o.fill?.price;
    this.createdAt = o.createdAt;
    this.#terms = o.terms;
  }

  get baseAmount(): Dec | undefined {
    return this.#terms.baseAmount;
  }

  get quoteAmount(): Dec | undefined {
    return this.#terms.quoteAmount;
  }

  get price(): Dec | undefined {
    return this.#terms.price;
  }

  /** SimVenue's mapping: the same fields in the same order, optional ones only when set. */
  toJSON(): Record<string, unknown> {
    const v: Record<string, unknown> = { orderId: this.orderId, refId: this.refId, market: this.market, side: this.side, type: this.type, status: this.status };
    if (this.baseAmount) v.baseAmount = this.baseAmount;
    if (this.quoteAmount) v.quoteAmount = this.quoteAmount;
    if (this.price) v.price = this.price;
    v.amountFilled = this.amountFilled;
    if (this.averagePrice) v.averagePrice = this.averagePrice;
    v.createdAt = this.createdAt;
    return v;
  }
}

export function toVenueOrder(o: PointOrder): VenueOrder {
  return new PointVenueOrder(o);
}

export function toVenueFill(x: PointExecution): VenueFill {
  return { fillId: x.executionId, orderId: x.orderId, market: x.market, side: x.side, amount: x.amount, price: x.price, commission: x.commission, commissionAsset: x.commissionAsset, at: x.at };
}

function toVenueQuoteExecution(x: PointQuoteExecution): VenueQuoteExecution {
  return { executionId: x.executionId, refId: x.refId, quoteId: x.quoteId, market: x.market, side: x.side, price: x.price, baseAmount: x.baseAmount, quoteAmount: x.quoteAmount, status: x.status };
}

function toVenueTransfer(t: PointTransfer): VenueTransfer {
  return { transferId: t.transferId, refId: t.refId, status: t.status };
}
