import { InputError, type Dec, type Instrument, type MarketSymbol } from '../core/index.js';
import { tradingInstruments } from '../platform/instruments.js';
import { SimError } from '../sim/errors.js';
import type { SimExecution } from '../sim/exchange/order-types.js';
import type { SimQuoteExecution } from '../sim/exchange/quote-executions.js';
import type { SimPlatform } from '../sim/sim.js';
import type { TransferLimitView } from '../platform/transfer-limits.js';
import type { SimTransfer } from '../sim/platform/transfers.js';
import {
  REF_ID_REUSED,
  TRANSFER_INTENT_TYPE,
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

/**
 * The Venue over the simulated platform, with no HTTP: paper mode uses it on the embedded sandbox's
 * platform (backtests use PointVenue, over point replay). It passes the same contract suite as
 * RestVenue and PointVenue. Calls are synchronous underneath; the promises only honour the port's shape.
 */
export class SimVenue implements Venue {
  readonly name = 'sim';

  constructor(
    readonly sim: SimPlatform,
    readonly profileId: string = sim.profiles.defaultId,
  ) {}

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    return this.placeOrderSync(req);
  }

  /** The body of `placeOrder`: the platform answers at once (a reused ref_id returns its order, or REF_ID_REUSED). */
  placeOrderSync(req: PlaceOrderRequest): VenueOrder {
    try {
      return toVenueOrder(
        this.sim.placeOrder({
          profileId: this.profileId,
          refId: req.refId,
          market: req.market,
          side: req.side,
          type: req.type,
          baseAmount: req.baseAmount,
          quoteAmount: req.quoteAmount,
          price: req.price,
          stopPrice: req.stopPrice,
          timeInForce: req.timeInForce,
          expirationDate: req.expiresAt === undefined ? undefined : String(req.expiresAt),
        }),
      );
    } catch (e) {
      if (e instanceof SimError && e.kind === 'already-exists' && e.existing?.kind === 'order') {
        return sameOrder(req, toVenueOrder(this.sim.getOrder(this.profileId, e.existing.id)));
      }
      throw mapError(e);
    }
  }

  async cancelOrder(orderId: string): Promise<void> {
    try {
      this.sim.cancelOrder(this.profileId, orderId);
    } catch (e) {
      throw mapError(e);
    }
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    try {
      return toVenueOrder(this.sim.getOrder(this.profileId, orderId));
    } catch (e) {
      throw mapError(e);
    }
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    const found = this.sim.listOrdersNow({ profileId: this.profileId, refIds: [refId] })[0];
    return found && toVenueOrder(found);
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    return this.sim.listOrdersNow({ profileId: this.profileId, status: 'OPEN' }).map(toVenueOrder);
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    return this.sim.listExecutionsNow({ profileId: this.profileId, beginMs: sinceMs }).map(toVenueFill).reverse();
  }

  async *ordersSince(sinceMs: number): AsyncIterable<VenueOrder> {
    const all = this.sim.listOrdersNow({ profileId: this.profileId, beginMs: sinceMs });
    for (const o of all.reverse()) yield toVenueOrder(o);
  }

  async *quoteExecutionsSince(sinceMs: number): AsyncIterable<VenueQuoteExecution> {
    const all = this.sim.listQuoteExecutions({ profileId: this.profileId, beginMs: sinceMs });
    for (const x of all.reverse()) yield toVenueQuoteExecution(x);
  }

  async balances(): Promise<readonly VenueBalance[]> {
    this.sim.now();
    return this.sim.accounts.balances(this.profileId);
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    try {
      return this.sim
        .listQuotes([market])
        .map((q) => ({ quoteId: q.id, market: q.market, side: q.side, price: q.price, expiresAt: q.expiresAt }));
    } catch (e) {
      throw mapError(e);
    }
  }

  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    return this.executeQuoteSync(req);
  }

  /** The body of `executeQuote`: the platform answers at once (a reused ref_id returns the earlier execution). */
  executeQuoteSync(req: ExecuteQuoteRequest): VenueQuoteExecution {
    try {
      return toVenueQuoteExecution(
        this.sim.executeQuote({
          profileId: this.profileId,
          quoteId: req.quoteId,
          refId: req.refId,
          baseAmount: req.baseAmount,
          quoteAmount: req.quoteAmount,
        }),
      );
    } catch (e) {
      if (e instanceof SimError && e.kind === 'already-exists' && e.existing?.kind === 'quote-execution') {
        return toVenueQuoteExecution(this.sim.getQuoteExecution(this.profileId, e.existing.id));
      }
      throw mapError(e);
    }
  }

  async getQuoteExecution(id: string): Promise<VenueQuoteExecution> {
    try {
      return toVenueQuoteExecution(this.sim.getQuoteExecution(this.profileId, id));
    } catch (e) {
      throw mapError(e);
    }
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    const profileId = this.sim.profiles.get(this.profileId, true).id;
    const found = this.sim.quoteExecutions().find((x) => x.refId === refId && x.profileId === profileId);
    return found && toVenueQuoteExecution(found);
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    try {
      return toVenueTransfer(
        this.sim.internalTransfer({
          refId: req.refId,
          asset: req.asset,
          amount: req.amount,
          fromProfileId: req.fromProfileId,
          toProfileId: req.toProfileId,
        }),
      );
    } catch (e) {
      if (e instanceof SimError && e.kind === 'already-exists' && e.existing?.kind === 'transfer')
        return toVenueTransfer(this.sim.getTransfer(e.existing.id));
      throw mapError(e);
    }
  }

  async findTransferByRef(refId: string): Promise<VenueTransfer | undefined> {
    const found = this.sim.listTransfers({ refIds: [refId], types: [TRANSFER_INTENT_TYPE] }).items[0];
    return found && toVenueTransfer(found);
  }

  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    return this.sim.transferLimits(TRANSFER_INTENT_TYPE).map(toTransferLimitRow);
  }

  /** The platform's trading instruments: what the sandbox's ListMarkets serves over the same simulated platform. */
  async instruments(): Promise<readonly Instrument[]> {
    return tradingInstruments();
  }
}

/** A simulated transfer limit as ListTransferLimits lists it (the sandbox's wire strings). */
export function toTransferLimitRow(l: TransferLimitView): TransferLimitRow {
  return { limitAsset: l.limitAsset, limit: l.limit.toFixed(), remaining: l.remaining.toFixed(), periodSeconds: String(l.periodSeconds) };
}

/** Maps the sim's refusals to venue errors (bad input is a rejection too: never retried). */
export function mapError(e: unknown): Error {
  if (e instanceof SimError) {
    if (e.kind === 'not-found') return new VenueNotFoundError(e.message);
    return new VenueRejectedError(e.kind.toUpperCase().replace(/-/g, '_'), e.message, e.meta ?? {});
  }
  if (e instanceof InputError) return new VenueRejectedError('BAD_REQUEST', e.message, { field: e.field });
  return e instanceof Error ? e : new Error(String(e));
}

/** What both simulated venues' order records have in common (the sim's and point replay's). */
export interface SimOrderLike {
  readonly id: string;
  readonly refId?: string | undefined;
  readonly market: string;
  readonly side: VenueOrder['side'];
  readonly type: string;
  readonly status: string;
  readonly baseAmount?: Dec | undefined;
  readonly quoteAmount?: Dec | undefined;
  readonly price?: Dec | undefined;
  readonly amountFilled: Dec;
  readonly notionalFilled: Dec;
  readonly createdAt: number;
}

/** A simulated order record as the Venue port speaks of it. */
export function toVenueOrder(o: SimOrderLike): VenueOrder {
  return {
    orderId: o.id,
    refId: o.refId ?? '',
    market: o.market,
    side: o.side,
    type: o.type,
    status: o.status,
    ...(o.baseAmount && { baseAmount: o.baseAmount }),
    ...(o.quoteAmount && { quoteAmount: o.quoteAmount }),
    ...(o.price && { price: o.price }),
    amountFilled: o.amountFilled,
    ...(o.amountFilled.gt(0) && { averagePrice: o.notionalFilled.div(o.amountFilled) }),
    createdAt: o.createdAt,
  };
}

export function toVenueQuoteExecution(x: SimQuoteExecution): VenueQuoteExecution {
  return {
    executionId: x.id,
    ...(x.refId !== undefined && { refId: x.refId }),
    quoteId: x.quoteId,
    market: x.market,
    side: x.side,
    price: x.price,
    baseAmount: x.baseAmount,
    quoteAmount: x.quoteAmount,
    status: x.status,
  };
}

export function toVenueTransfer(t: SimTransfer): VenueTransfer {
  return { transferId: t.id, refId: t.refId ?? '', status: t.status };
}

export function toVenueFill(x: SimExecution): VenueFill {
  return {
    fillId: x.executionId,
    orderId: x.orderId,
    market: x.market,
    side: x.side,
    amount: x.amount,
    price: x.price,
    commission: x.commission,
    commissionAsset: x.commissionAsset,
    at: x.executedAt,
  };
}

/** The existing order when it is the one requested; a REF_ID_REUSED refusal when a field differs. */
function sameOrder(req: PlaceOrderRequest, o: VenueOrder): VenueOrder {
  const differs =
    (req.market !== o.market && 'market') ||
    (req.side !== o.side && 'side') ||
    (req.type !== o.type && 'type') ||
    (req.price !== undefined && o.price !== undefined && !o.price.eq(req.price) && 'price') ||
    (req.baseAmount !== undefined && o.baseAmount !== undefined && !o.baseAmount.eq(req.baseAmount) && 'base_amount');
  if (!differs) return o;
  throw new VenueRejectedError(
    REF_ID_REUSED,
    `ref_id ${JSON.stringify(req.refId)} already names a different order (field ${differs} differs): use a new ref_id`,
    { existing: o.orderId },
  );
}
