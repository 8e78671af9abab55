import { D, type Dec } from '../core/index.js';
import type { PaperExecutionState, PaperFillState, PaperOrderState } from './paper-state.js';
import type { PlaceOrderRequest, VenueFill, VenueOrder, VenueQuoteExecution } from './venue.js';

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
  return { id: o.id, request: o.request, createdAt: o.createdAt, status: o.status, amountFilled: o.amountFilled.toFixed(), notionalFilled: o.notionalFilled.toFixed(), fills: o.fills, ...(o.closedAt !== undefined && { closedAt: o.closedAt }) };
}

export function fillState(f: VenueFill): PaperFillState {
  return { ...f, amount: f.amount.toFixed(), price: f.price.toFixed(), commission: f.commission.toFixed() };
}

export function executionState(x: VenueQuoteExecution & { readonly at: number }): PaperExecutionState {
  return { executionId: x.executionId, refId: x.refId ?? '', quoteId: x.quoteId, market: x.market, side: x.side, price: x.price.toFixed(), baseAmount: x.baseAmount.toFixed(), quoteAmount: x.quoteAmount.toFixed(), status: x.status, at: x.at };
}

