import { type Dec, ZERO } from '../../core/decimal.js';
import { splitMarket } from '../../core/markets.js';
import { type Ledger } from './ledger.js';
import { type MarketState } from './market-state.js';
import { type Liquidity, type OrderStatus, type SimExecution, type SimOrder, isClosed } from './order-types.js';

/** Commission rates as fractions of the gross trade amount, charged in the quote asset. */
export interface FeeSchedule {
  readonly makerRate: Dec;
  readonly takerRate: Dec;
}

/** What the sim announces as it happens (the sandbox's `await_fill_millis` listens). */
export type SimEvent =
  { readonly kind: 'order'; readonly order: Readonly<SimOrder> } | { readonly kind: 'execution'; readonly execution: SimExecution };

export type SimListener = (event: SimEvent) => void;

/**
 * Moves money for fills and closes: every fill is one atomic ledger change (quote and base legs,
 * commission, release of the reservation), recorded as an execution and on the public tape.
 *
 * Commission: `gross × rate` in the quote asset, exact (unrounded), maker 0.05 % and taker 0.10 %
 * by default. A buy reserves `price × amount × (1 + takerRate)` (market buys: `quote_amount`, which
 * includes commission); a sell reserves its base amount.
 */
export class Settlement {
  readonly executions: SimExecution[] = [];
  private execSeq = 0;

  constructor(
    private readonly ledger: Ledger,
    readonly fees: FeeSchedule,
    private readonly listeners: SimListener[],
    /** Added to every execution number (see IdSource.executionBase): 0 keeps the seed-only ids. */
    private readonly executionBase = 0n,
  ) {}

  /** Puts back the executions of a snapshot (oldest first); new ids continue after them. */
  restore(executions: readonly SimExecution[]): void {
    this.executions.push(...executions);
    this.execSeq = executions.reduce((max, e) => Math.max(max, e.seq), this.execSeq);
  }

  /** Asset and amount an order locks while it works. */
  reservation(order: Pick<SimOrder, 'side' | 'market' | 'type' | 'baseAmount' | 'quoteAmount' | 'price'>): { asset: string; amount: Dec } {
    const { base, quote } = splitMarket(order.market);
    if (order.side === 'SELL') return { asset: base, amount: order.baseAmount! };
    if (order.type === 'MARKET') return { asset: quote, amount: order.quoteAmount! };
    return { asset: quote, amount: order.price!.times(order.baseAmount!).times(this.fees.takerRate.plus(1)) };
  }

  /** Settles one fill of `qty` at `price`; closes the order as FILLED when its base amount is done. */
  fill(order: SimOrder, qty: Dec, price: Dec, liquidity: Liquidity, at: number, market: MarketState): SimExecution {
    const { base, quote } = splitMarket(order.market);
    const gross = qty.times(price);
    const commission = gross.times(liquidity === 'MAKER' ? this.fees.makerRate : this.fees.takerRate);
    const recipient = order.recipientProfileId ?? order.profileId;
    let release: Dec;
    if (order.side === 'BUY') {
      const share = order.type === 'MARKET' ? gross.plus(commission) : qty.times(order.price!).times(this.fees.takerRate.plus(1));
      release = share.gt(order.reserved) ? order.reserved : share;
      this.ledger.apply([
        { profileId: order.profileId, asset: quote, trading: release.neg(), available: release.minus(gross).minus(commission) },
        { profileId: recipient, asset: base, available: qty },
      ]);
    } else {
      release = qty;
      this.ledger.apply([
        { profileId: order.profileId, asset: base, trading: qty.neg() },
        { profileId: recipient, asset: quote, available: gross.minus(commission) },
      ]);
    }
    order.reserved = order.reserved.minus(release);
    order.amountFilled = order.amountFilled.plus(qty);
    order.notionalFilled = order.notionalFilled.plus(gross);
    order.modifiedAt = at;
    const execution = this.record(order, qty, price, gross, commission, quote, liquidity, at);
    market.recordFill({ matchNumber: execution.matchNumber, price: price.toFixed(market.spec.priceDecimals), amount: qty.toFixed(8), at });
    this.emit({ kind: 'execution', execution });
    if (order.baseAmount !== undefined && order.amountFilled.gte(order.baseAmount)) this.close(order, 'FILLED', at, market, undefined);
    return execution;
  }

  /** Closes an order: releases what it still locks, takes it off the book, stamps the time. */
  close(order: SimOrder, status: OrderStatus, at: number, market: MarketState, reason: string | undefined): void {
    if (isClosed(order.status)) return;
    const { asset } = this.reservation(order);
    this.ledger.release(order.profileId, asset, order.reserved);
    order.reserved = ZERO;
    order.status = status;
    order.modifiedAt = at;
    order.closedAt = at;
    order.cancelDueAt = undefined;
    order.reason = reason;
    market.remove(order);
    this.emit({ kind: 'order', order });
  }

  /** Announces an order change that is not a close (accepted, resting, triggered). */
  touched(order: SimOrder): void {
    this.emit({ kind: 'order', order });
  }

  private record(
    order: SimOrder,
    qty: Dec,
    price: Dec,
    gross: Dec,
    commission: Dec,
    quote: string,
    liquidity: Liquidity,
    at: number,
  ): SimExecution {
    const seq = ++this.execSeq;
    const execution: SimExecution = {
      executionId: String(this.executionBase + BigInt(100_000_000 + seq)),
      seq,
      orderId: order.id,
      profileId: order.profileId,
      refId: order.refId,
      market: order.market,
      side: order.side,
      amount: qty,
      price,
      gross,
      commission,
      commissionAsset: quote,
      rebate: ZERO,
      liquidity,
      executedAt: at,
      matchNumber: `X${seq.toString(36).toUpperCase().padStart(11, '0')}`,
    };
    this.executions.push(execution);
    return execution;
  }

  private emit(event: SimEvent): void {
    for (const l of this.listeners) l(event);
  }
}
