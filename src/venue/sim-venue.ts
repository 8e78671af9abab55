import { InputError, type MarketSymbol } from '../core/index.js';
import { SimError } from '../sim/errors.js';
import type { OrderRecord, SimExecution } from '../sim/order-types.js';
import type { SimPlatform } from '../sim/sim.js';
import {
  VenueNotFoundError,
  VenueRejectedError,
  type ExecuteQuoteRequest,
  type PlaceOrderRequest,
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
 * The Venue over the simulated platform, with no HTTP: paper mode and the backtester use it, and it
 * passes the same contract suite as RestVenue. Calls are synchronous underneath; the promises only
 * honour the port's shape.
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

  /** Synchronous form for the backtester's per-point path. */
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
        return toVenueOrder(this.sim.getOrder(this.profileId, e.existing.id));
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
    return this.sim
      .listExecutionsNow({ profileId: this.profileId, beginMs: sinceMs })
      .map(toVenueFill)
      .reverse();
  }

  async balances(): Promise<readonly VenueBalance[]> {
    this.sim.now();
    return this.sim.accounts.balances(this.profileId);
  }

  async listQuotes(_market: MarketSymbol): Promise<readonly VenueQuote[]> {
    throw unsupported('held-rate quotes');
  }

  async executeQuote(_req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    throw unsupported('quote executions');
  }

  async getQuoteExecution(_id: string): Promise<VenueQuoteExecution> {
    throw unsupported('quote executions');
  }

  async findQuoteExecutionByRef(_refId: string): Promise<VenueQuoteExecution | undefined> {
    return undefined;
  }

  async transfer(_req: TransferRequest): Promise<VenueTransfer> {
    throw unsupported('internal transfers');
  }

  async findTransferByRef(_refId: string): Promise<VenueTransfer | undefined> {
    return undefined;
  }
}

function unsupported(what: string): VenueRejectedError {
  return new VenueRejectedError('UNSUPPORTED', `the simulated venue does not offer ${what} yet`);
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

export function toVenueOrder(o: OrderRecord): VenueOrder {
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
