import { ZERO, type Dec, type Instrument, type MarketSymbol, type Side } from '../../core/index.js';
import { toText } from '../../core/exact.js';
import type { RuledOrder } from '../../platform/order-rules.js';
import { tradingInstruments } from '../../platform/instruments.js';
import type { PointMarket } from './market.js';
import type { PointExecution, PointOrder, PointQuoteExecution } from './orders.js';
import type { PointTransfer } from '../rules/transfers.js';
import { mapError, toTransferLimitRow } from '../../venue/sim-venue.js';
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
  type VenueText,
  type VenueTransfer,
} from '../../venue/venue.js';

/**
 * The Venue over point replay (`src/fills/point/market.ts`), for backtests. The async methods honour
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
    return this.market
      .executions(sinceMs)
      .filter((x) => x.kind === 'order')
      .map(toVenueFill);
  }

  async balances(): Promise<readonly VenueBalance[]> {
    return this.market.balances();
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    return this.market
      .quotes(market)
      .map((q) => ({ quoteId: q.quoteId, market: q.market, side: q.side, price: q.price, expiresAt: q.expiresAt }));
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

  /** The platform's trading instruments, as the sandbox lists them: point replay checks orders against the same ticks. */
  async instruments(): Promise<readonly Instrument[]> {
    return tradingInstruments();
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
 * JSON). Its money is the order rules' and the fill's exact readings, whose Decimals are made when
 * first read; the executors read an order's status and its fill as text (`text`), never its terms, so
 * an order report costs no Decimal. A point fill is one fill in full, so a filled order's average
 * price is its fill's.
 */
class PointVenueOrder implements VenueOrder {
  readonly orderId: string;
  readonly refId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly type: string;
  readonly status: VenueOrderStatus;
  readonly createdAt: number;
  readonly #terms: RuledOrder;
  readonly #fill: PointExecution | undefined;

  constructor(o: PointOrder) {
    this.orderId = o.id;
    this.refId = o.refId;
    this.market = o.market as MarketSymbol;
    this.side = o.side;
    this.type = o.type;
    this.status = o.status;
    this.createdAt = o.createdAt;
    this.#terms = o.terms;
    this.#fill = o.fill;
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

  get amountFilled(): Dec {
    return this.#fill === undefined ? ZERO : this.#fill.amount;
  }

  get averagePrice(): Dec | undefined {
    return this.#fill?.price;
  }

  get text(): { amountFilled: string; averagePrice: string | undefined } {
    const f = this.#fill;
    return f === undefined ? UNFILLED : { amountFilled: toText(f.exactAmount), averagePrice: toText(f.exactPrice) };
  }

  /** SimVenue's mapping: the same fields in the same order, optional ones only when set. */
  toJSON(): Record<string, unknown> {
    const v: Record<string, unknown> = {
      orderId: this.orderId,
      refId: this.refId,
      market: this.market,
      side: this.side,
      type: this.type,
      status: this.status,
    };
    if (this.baseAmount) v.baseAmount = this.baseAmount;
    if (this.quoteAmount) v.quoteAmount = this.quoteAmount;
    if (this.price) v.price = this.price;
    v.amountFilled = this.amountFilled;
    if (this.averagePrice) v.averagePrice = this.averagePrice;
    v.createdAt = this.createdAt;
    return v;
  }
}

const UNFILLED = Object.freeze({ amountFilled: '0', averagePrice: undefined });

export function toVenueOrder(o: PointOrder): VenueOrder {
  return new PointVenueOrder(o);
}

/**
 * A point-replay fill as the Venue port speaks of it. Its Decimals are the fill's own, made when first
 * read; the fill tracker reads its text (`text`), written from the exact units, so a fill reported
 * costs no Decimal.
 */
class PointVenueFill implements VenueFill {
  readonly fillId: string;
  readonly orderId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly commissionAsset: string;
  readonly at: number;
  readonly #x: PointExecution;

  constructor(x: PointExecution) {
    this.fillId = x.executionId;
    this.orderId = x.orderId;
    this.market = x.market as MarketSymbol;
    this.side = x.side;
    this.commissionAsset = x.commissionAsset;
    this.at = x.at;
    this.#x = x;
  }

  get amount(): Dec {
    return this.#x.amount;
  }

  get price(): Dec {
    return this.#x.price;
  }

  get commission(): Dec {
    return this.#x.commission;
  }

  get text(): VenueText {
    const x = this.#x;
    return { amount: toText(x.exactAmount), price: toText(x.exactPrice), commission: toText(x.exactCommission) };
  }

  /** The port's fields, as the plain fill object this replaced wrote them. */
  toJSON(): Record<string, unknown> {
    const { fillId, orderId, market, side, amount, price, commission, commissionAsset, at } = this;
    return { fillId, orderId, market, side, amount, price, commission, commissionAsset, at };
  }
}

export function toVenueFill(x: PointExecution): VenueFill {
  return new PointVenueFill(x);
}

function toVenueQuoteExecution(x: PointQuoteExecution): VenueQuoteExecution {
  return {
    executionId: x.executionId,
    refId: x.refId,
    quoteId: x.quoteId,
    market: x.market,
    side: x.side,
    price: x.price,
    baseAmount: x.baseAmount,
    quoteAmount: x.quoteAmount,
    status: x.status,
  };
}

function toVenueTransfer(t: PointTransfer): VenueTransfer {
  return { transferId: t.transferId, refId: t.refId, status: t.status };
}
