import { D, type Dec, type MarketEvent, type PriceLevel } from '../../core/index.js';
import type { RecordedBookVenue } from '../book/venue.js';
import type { PaperExecutionState, PaperFillState, PaperOrderState } from './state.js';
import type { PlaceOrderRequest, VenueFill, VenueOrder, VenueQuoteExecution } from '../../venue/venue.js';

/** A paper order as the paper venue keeps it: the request as placed, and what it filled (in every run). */
export interface PaperOrder {
  readonly id: string;
  readonly request: PlaceOrderRequest;
  readonly createdAt: number;
  status: string;
  amountFilled: Dec;
  notionalFilled: Dec;
  fills: number;
  closedAt?: number;
}

/** Closed orders and quote executions kept whatever their age (the newest: a restart reads them back). */
export const KEEP_NEWEST = 64;
/** At most this many closed orders, fills and quote executions are kept (the newest). */
const KEEP_AT_MOST = 5_000;

/** The items (oldest first) that are among the newest `newest`, or recent and among the newest KEEP_AT_MOST. */
export function keepRecent<T>(items: T[], recent: (item: T) => boolean, newest: number): T[] {
  const n = items.length;
  const out = items.filter((item, i) => n - i <= newest || (n - i <= KEEP_AT_MOST && recent(item)));
  return out.length === n ? items : out;
}

/** A paper order as the Venue port speaks of it. */
export function record(o: PaperOrder): VenueOrder {
  const r = o.request;
  return {
    orderId: o.id,
    refId: r.refId,
    market: r.market,
    side: r.side,
    type: r.type,
    status: o.status,
    ...(r.baseAmount !== undefined && { baseAmount: new D(r.baseAmount) }),
    ...(r.quoteAmount !== undefined && { quoteAmount: new D(r.quoteAmount) }),
    ...(r.price !== undefined && { price: new D(r.price) }),
    amountFilled: o.amountFilled,
    ...(o.amountFilled.gt(0) && { averagePrice: o.notionalFilled.div(o.amountFilled) }),
    createdAt: o.createdAt,
  };
}

export function orderState(o: PaperOrder): PaperOrderState {
  return {
    id: o.id,
    request: o.request,
    createdAt: o.createdAt,
    status: o.status,
    amountFilled: o.amountFilled.toFixed(),
    notionalFilled: o.notionalFilled.toFixed(),
    fills: o.fills,
    ...(o.closedAt !== undefined && { closedAt: o.closedAt }),
  };
}

export function fillState(f: VenueFill): PaperFillState {
  return { ...f, amount: f.amount.toFixed(), price: f.price.toFixed(), commission: f.commission.toFixed() };
}

export function executionState(x: VenueQuoteExecution & { readonly at: number }): PaperExecutionState {
  return {
    executionId: x.executionId,
    refId: x.refId ?? '',
    quoteId: x.quoteId,
    market: x.market,
    side: x.side,
    price: x.price.toFixed(),
    baseAmount: x.baseAmount.toFixed(),
    quoteAmount: x.quoteAmount.toFixed(),
    status: x.status,
    at: x.at,
  };
}

/**
 * Enters an open order in `engine` again for what it has left (a restart, a rebuilt engine): its
 * engine id, or why it could not be (a remainder under the smallest amount, say).
 */
export async function reenter(engine: RecordedBookVenue, order: PaperOrder): Promise<string | { readonly error: string }> {
  const req = order.request;
  const left = req.baseAmount === undefined ? undefined : new D(req.baseAmount).minus(order.amountFilled);
  try {
    if (left !== undefined && !left.gt(0)) throw new Error('nothing left to fill');
    return (await engine.placeOrder({ ...req, ...(left && { baseAmount: left.toFixed() }) })).orderId;
  } catch (e) {
    return { error: `${left === undefined ? '' : `${left.toFixed()} left: `}${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * A book as a rebuilt engine should start from: without the levels that cross a live order's price
 * (a resting order that still rests has taken all of them). Levels our fills took part of are whole
 * again until the next book replaces this one.
 */
export function withoutCrossed(
  book: Extract<MarketEvent, { kind: 'book' }>,
  live: readonly PaperOrder[],
): { bids: PriceLevel[]; asks: PriceLevel[] } {
  const limits = (side: 'BUY' | 'SELL'): number[] =>
    live
      .filter((o) => o.request.market === book.market && o.request.side === side && o.request.price !== undefined)
      .map((o) => Number(o.request.price));
  const [buys, sells] = [limits('BUY'), limits('SELL')];
  return {
    asks: book.asks.filter((l) => !buys.some((p) => l.price <= p)),
    bids: book.bids.filter((l) => !sells.some((p) => l.price >= p)),
  };
}
