import { D, type Dec, ZERO } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { platformNotionalCaps } from '../../platform/instruments.js';
import { SimError } from '../errors.js';
import { type Ledger } from './ledger.js';
import { type MarketState } from './market-state.js';
import { platformInstrument } from '../../platform/instruments.js';
import { capViolation, PLATFORM_PRICE_BAND } from '../../platform/order-rules.js';
import { MIN_GTT_MS } from '../../platform/order-life.js';
import { parseOrder, throwViolation } from './order-rules.js';
import { type OrderSpec, type PlaceOrderCommand, type SimOrder, isClosed } from './order-types.js';
import { type ProfileStore } from './profiles.js';
import { type Settlement } from './settlement.js';

/** The platform's trading rules that are numbers (TRADING.md §2.1), overridable for tests. */
export interface TradingRules {
  /** A taker limit order more than this fraction away from mid is rejected (0.15). */
  readonly priceBand: Dec;
  /** Maximum USD notional of market orders (500,000). */
  readonly maxMarketNotionalUsd: Dec;
  /** Maximum USD notional of limit orders per market (BTCUSD, ETHUSD 1,500,000; others 1,000,000). */
  readonly maxLimitNotionalUsd: (market: string) => Dec;
  /** GTT expiry must be more than this far after placement (10 s). */
  readonly minGttMs: number;
  /** A ref_id may be reused once its order has been closed this long (24 h). */
  readonly refIdReuseMs: number;
  /** Delay between a cancel's acknowledgement and its effect. */
  readonly cancelDelayMs: number;
  /**
   * Order-entry delay: with 0 an order runs its taker phase when it is created; above 0 it is answered
   * SUBMITTED and entered (taker phase, or OPEN for a stop) at the first tick at or after
   * createdAt + submitDelayMs.
   */
  readonly submitDelayMs: number;
}

export const DEFAULT_RULES: TradingRules = {
  priceBand: PLATFORM_PRICE_BAND,
  maxMarketNotionalUsd: platformNotionalCaps('BTCUSD').market,
  maxLimitNotionalUsd: (m) => platformNotionalCaps(m).limit,
  minGttMs: MIN_GTT_MS,
  refIdReuseMs: 86_400_000,
  cancelDelayMs: 0,
  submitDelayMs: 0,
};

/** Checks the rules a caller can set as plain numbers; errors name the rule and the fix. */
export function checkRules(rules: TradingRules): void {
  for (const key of ['cancelDelayMs', 'submitDelayMs'] as const) {
    const v = rules[key];
    if (!Number.isSafeInteger(v) || v < 0)
      throw new InputError(key, `expected a whole number of milliseconds, 0 or more, got ${JSON.stringify(v)}`);
  }
}

interface EngineDeps {
  readonly ledger: Ledger;
  readonly settlement: Settlement;
  readonly profiles: ProfileStore;
  readonly market: (market: string) => MarketState;
  readonly newId: () => string;
  readonly rules: TradingRules;
}

/**
 * Order entry: validation, idempotency by ref_id, notional caps, funds, then the taker phase
 * against the book (see `matching.ts`); also the acknowledged-then-applied cancel. With
 * `rules.submitDelayMs` > 0 accepted orders wait here as SUBMITTED until they are due for entry.
 */
export class OrderEntry {
  readonly orders: SimOrder[] = [];
  readonly byId = new Map<string, SimOrder>();
  private readonly byRef = new Map<string, SimOrder>();
  private readonly pendingCancels = new Set<SimOrder>();
  /** SUBMITTED orders not yet entered, oldest first (so also in entry-time order). */
  private readonly awaiting: SimOrder[] = [];

  constructor(private readonly deps: EngineDeps) {}

  /** Validates and accepts an order, reserving its funds; the caller then runs its taker phase. */
  accept(cmd: PlaceOrderCommand, nowMs: number): SimOrder {
    const spec = parseOrder(cmd);
    const profile = this.deps.profiles.get(cmd.profileId);
    if (spec.recipientProfileId !== undefined) this.deps.profiles.get(spec.recipientProfileId);
    this.checkRefId(spec.refId, nowMs);
    const market = this.deps.market(spec.market);
    this.checkNotional(spec, market, nowMs);
    const reservation = this.deps.settlement.reservation(spec);
    this.deps.ledger.require(profile.id, reservation.asset, reservation.amount);
    const order: SimOrder = {
      ...spec,
      id: this.deps.newId(),
      profileId: profile.id,
      createdAt: nowMs,
      seq: this.orders.length + 1,
      status: 'PENDING_SUBMISSION',
      modifiedAt: nowMs,
      amountFilled: ZERO,
      notionalFilled: ZERO,
      reserved: ZERO,
      isTriggered: false,
      closedAt: undefined,
      cancelDueAt: undefined,
      reason: undefined,
    };
    this.deps.ledger.reserve(profile.id, reservation.asset, reservation.amount);
    order.reserved = reservation.amount;
    order.status = 'SUBMITTED';
    this.orders.push(order);
    this.byId.set(order.id, order);
    if (spec.refId !== undefined) this.byRef.set(spec.refId, order);
    return order;
  }

  /** Puts back the orders of a snapshot (oldest first) with their ref_ids and pending cancels. */
  restore(orders: readonly SimOrder[]): void {
    for (const order of orders) {
      this.orders.push(order);
      this.byId.set(order.id, order);
      if (order.refId !== undefined) this.byRef.set(order.refId, order);
      if (!isClosed(order.status) && order.cancelDueAt !== undefined) this.pendingCancels.add(order);
      if (order.status === 'SUBMITTED') this.awaiting.push(order);
    }
  }

  /** Keeps an accepted order SUBMITTED until `createdAt + submitDelayMs` (see `dueEntries`). */
  hold(order: SimOrder): void {
    this.awaiting.push(order);
  }

  /** True while some order waits for entry. */
  get hasAwaiting(): boolean {
    return this.awaiting.length > 0;
  }

  /**
   * Takes the held orders due for entry at `atMs`, oldest first. Orders closed meanwhile, or with a
   * cancel pending, are dropped: a cancel requested before entry ends the order without matching.
   */
  dueEntries(atMs: number): SimOrder[] {
    const delay = this.deps.rules.submitDelayMs;
    const due: SimOrder[] = [];
    let n = 0;
    while (n < this.awaiting.length && this.awaiting[n]!.createdAt + delay <= atMs) {
      const order = this.awaiting[n++]!;
      if (!isClosed(order.status) && order.cancelDueAt === undefined) due.push(order);
    }
    this.awaiting.splice(0, n);
    return due;
  }

  /** When the oldest held order is due for entry, if any. */
  nextEntryDue(): number | undefined {
    const first = this.awaiting[0];
    return first === undefined ? undefined : first.createdAt + this.deps.rules.submitDelayMs;
  }

  /** Finds an order of a profile; 404 when it does not exist or belongs to another profile. */
  get(profileId: string, orderId: string): SimOrder {
    const order = this.byId.get(orderId);
    if (order === undefined || order.profileId !== profileId)
      throw new SimError('not-found', `order ${orderId} not found in profile ${profileId}`);
    return order;
  }

  /** Acknowledges a cancel; it takes effect `cancelDelayMs` later. Closed orders are 403. */
  requestCancel(profileId: string, orderId: string, nowMs: number): void {
    const order = this.get(profileId, orderId);
    if (isClosed(order.status)) throw new SimError('forbidden', `order ${orderId} is ${order.status} and cannot be cancelled`);
    if (order.cancelDueAt === undefined) order.cancelDueAt = nowMs + this.deps.rules.cancelDelayMs;
    this.pendingCancels.add(order);
  }

  /** Applies the cancels due at or before `atMs`, in request order. */
  applyDueCancels(atMs: number): void {
    for (const order of this.pendingCancels) {
      if (isClosed(order.status)) this.pendingCancels.delete(order);
      else if (order.cancelDueAt !== undefined && order.cancelDueAt <= atMs) {
        this.pendingCancels.delete(order);
        this.deps.settlement.close(
          order,
          'CANCELLED',
          Math.max(order.cancelDueAt, order.modifiedAt),
          this.deps.market(order.market),
          'cancelled by request',
        );
      }
    }
  }

  /** Earliest pending cancel time, if any. */
  nextCancelDue(): number | undefined {
    let next: number | undefined;
    for (const o of this.pendingCancels)
      if (o.cancelDueAt !== undefined && (next === undefined || o.cancelDueAt < next)) next = o.cancelDueAt;
    return next;
  }

  private checkRefId(refId: string | undefined, nowMs: number): void {
    if (refId === undefined) return;
    const existing = this.byRef.get(refId);
    if (existing === undefined) return;
    const reusable = existing.closedAt !== undefined && nowMs - existing.closedAt > this.deps.rules.refIdReuseMs;
    if (!reusable)
      throw new SimError('already-exists', `an order with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'order',
        id: existing.id,
      });
  }

  /** The platform's notional cap, by the order rules (a MARKET sell is valued at the book's mid). */
  private checkNotional(spec: OrderSpec, market: MarketState, nowMs: number): void {
    const { rules } = this.deps;
    const unpriced = spec.quoteAmount === undefined && spec.price === undefined && spec.stopPrice === undefined;
    const v = capViolation(spec, platformInstrument(spec.market), {
      ...(unpriced && { reference: this.midOf(market, nowMs) }),
      quotePerUsd: new D(market.spec.fx),
      caps: { market: rules.maxMarketNotionalUsd, limit: rules.maxLimitNotionalUsd(spec.market) },
    });
    if (v !== undefined) throwViolation(v);
  }

  private midOf(market: MarketState, nowMs: number): Dec {
    return new D(market.synthetic.book(market.synthetic.tickOf(nowMs)).mid.toFixed(8));
  }
}
