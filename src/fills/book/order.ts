/**
 * An order of the recorded-book venue (venue.ts): what it holds while it lives, and its
 * entry: the platform's order rules with the notional cap against the recorded book's mid
 * (`checkOrder`) and the GTT minimum (`gttTooSoon`), all checked when it is placed, before any funds
 * are held.
 */
import { D, type Dec, type MarketSymbol } from '../../core/index.js';
import { checkOrder, isViolation, type RuledOrder } from '../../platform/order-rules.js';
import { gttTooSoon, MIN_GTT_MS } from '../../platform/order-life.js';
import { platformInstrument } from '../../platform/instruments.js';
import { bookMid, type Book } from './levels.js';
import { toVenueOrder } from '../../venue/sim-venue.js';
import { VenueRejectedError, type PlaceOrderRequest, type VenueOrder } from '../../venue/venue.js';

export interface BookOrder {
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

/** What placing an order needs besides the request: the book in force, the time, the latency and the next id. */
export interface Entry {
  readonly book: Book | undefined;
  readonly now: number;
  readonly latencyMs: number;
  /** Called once the order passed its checks (ids are not spent on refused orders). */
  readonly nextId: () => string;
}

/**
 * A new order (SUBMITTED), with the book mid its funds are held at when it names no price; refused as
 * the platform refuses it (bad fields or precision, a notional past the cap, a GTT expiring too soon).
 */
export function newOrder(req: PlaceOrderRequest, e: Entry): { order: BookOrder; reference: Dec | undefined } {
  const reference = e.book && bookMid(e.book);
  const rule = checkOrder(req, platformInstrument(req.market), reference ? { reference } : {});
  if (isViolation(rule)) {
    if (rule.kind === 'cap') throw new VenueRejectedError('NOTIONAL_VALUE_TOO_LARGE', rule.reason, rule.details);
    throw new VenueRejectedError(rule.kind === 'precision' ? 'EXCEED_PRECISION' : 'BAD_REQUEST', rule.message, {
      field: rule.field,
      ...rule.details,
    });
  }
  const now = e.now;
  if (rule.expiresAt !== undefined && gttTooSoon(rule.expiresAt, now)) {
    throw new VenueRejectedError(
      'BAD_REQUEST',
      `expiration_date: a GTT order must expire more than ${MIN_GTT_MS / 1000} s after it is placed (${new Date(now).toISOString()}), got ${new Date(rule.expiresAt).toISOString()}`,
      { field: 'expiration_date' },
    );
  }
  const order: BookOrder = {
    id: e.nextId(),
    refId: req.refId,
    market: req.market,
    side: rule.side,
    type: rule.type,
    rule,
    ...(rule.baseAmount && { baseAmount: rule.baseAmount }),
    ...(rule.quoteAmount && { quoteAmount: rule.quoteAmount }),
    ...(rule.price && { price: rule.price }),
    status: 'SUBMITTED',
    amountFilled: new D(0),
    notionalFilled: new D(0),
    createdAt: now,
    arrivesAt: now + e.latencyMs,
    held: new D(0),
    spent: false,
    fees: new D(0),
    triggered: false,
  };
  return { order, reference };
}

/** Whether the order wants nothing more: its base amount filled, or (quote-sized) its quote spent. */
export function isDone(order: BookOrder): boolean {
  if (order.quoteAmount !== undefined) return order.spent;
  return !order.baseAmount!.minus(order.amountFilled).gt(0);
}

/** The order as the Venue port reports one. */
export function toRecord(o: BookOrder): VenueOrder {
  return toVenueOrder({ ...o, refId: o.refId });
}
