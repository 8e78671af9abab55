import { assertNever, type Decision, type Intent } from '../core/index.js';
import { TERMINAL_ORDER_STATUSES, VenueRejectedError, type PlaceOrderRequest, type VenueOrder } from '../venue/venue.js';
import { awaitLanding, errorCode, errorMessage, lookupFailed, pollFailed, stillLanding, type ExecContext } from './exec-context.js';
import type { JournalIntentRow } from './journal.js';
import type { JournalState } from './journal-schema.js';

type PlaceIntent = Extract<Intent, { kind: 'place-order' }>;
type CancelIntent = Extract<Intent, { kind: 'cancel-order' }>;

/**
 * Runs approved order intents. The intent is journaled (by the engine) before this is called; the
 * executor marks it sent, places it with `refId = intentId`, and on an unknown outcome looks the
 * order up by ref_id — never a blind retry. Status and fills are followed by `poll`.
 */
export class OrderExecutor {
  constructor(private readonly ctx: ExecContext) {}

  /**
   * Places the order. With `decision`, the decision and the "sent" mark are journaled together in
   * one transaction (the engine's fast path); without, the decision must already be journaled.
   */
  async place(intent: PlaceIntent, decision?: Decision): Promise<void> {
    const { journal, clock, venue } = this.ctx;
    const req = toRequest(intent);
    if (decision) journal.recordDecision(decision, { at: clock.now(), request: req });
    else journal.markSent(intent.intentId, clock.now(), req);
    this.ctx.crash?.('intent-journaled');
    try {
      const order = await venue.placeOrder(req);
      this.ctx.crash?.('order-sent');
      this.applyOrder(intent.intentId, order, 'response');
      this.ctx.crash?.('order-response');
    } catch (e) {
      if (e instanceof VenueRejectedError) {
        journal.update(
          intent.intentId,
          clock.now(),
          'done',
          { status: 'REJECTED', message: e.message },
          { type: 'rejected', data: { code: e.code, message: e.message } },
        );
        this.ctx.emit({ kind: 'rejected', refId: intent.intentId, code: e.code, message: e.message, at: clock.now() });
        return;
      }
      this.ctx.log?.warn(
        { refId: intent.intentId, code: errorCode(e) },
        `order outcome unknown, looking it up by ref_id: ${errorMessage(e)}`,
      );
      await this.resolve(intent.intentId);
    }
  }

  async cancel(intent: CancelIntent): Promise<void> {
    const { journal, clock, venue } = this.ctx;
    const target = journal.get(intent.orderRefId);
    if (!target?.venueId || target.state === 'done') {
      // a journal keeping a window of finished intents still knows a forgotten one's final state
      const known = target ?? journal.facts(intent.orderRefId);
      const why = !known ? 'unknown order' : known.state === 'done' ? 'order already closed' : 'order not acknowledged yet';
      journal.update(intent.intentId, clock.now(), 'done', { status: 'REJECTED', message: why }, { type: 'rejected', data: { why } });
      this.ctx.emit({
        kind: 'rejected',
        refId: intent.intentId,
        code: 'NOT_CANCELLABLE',
        message: `cannot cancel ${intent.orderRefId}: ${why}`,
        at: clock.now(),
      });
      return;
    }
    journal.markSent(intent.intentId, clock.now(), { cancel: target.venueId });
    try {
      await venue.cancelOrder(target.venueId);
      this.ctx.crash?.('cancel');
      journal.update(
        intent.intentId,
        clock.now(),
        'done',
        { status: 'ACKNOWLEDGED', venueId: target.venueId },
        { type: 'response', data: { acknowledged: true } },
      );
    } catch (e) {
      journal.update(
        intent.intentId,
        clock.now(),
        'done',
        { status: 'FAILED', message: errorMessage(e) },
        { type: 'error', data: { code: errorCode(e), message: errorMessage(e) } },
      );
      this.ctx.emit({ kind: 'failed', refId: intent.intentId, code: errorCode(e), message: errorMessage(e), at: clock.now() });
    }
    await this.refresh(target);
  }

  /** Looks an order up by ref_id after an unknown outcome; unresolved if the venue cannot say. */
  async resolve(refId: string): Promise<void> {
    const { journal, clock, venue } = this.ctx;
    try {
      const order = await venue.findOrderByRef(refId);
      if (order) {
        this.applyOrder(refId, order, 'lookup');
        return;
      }
      const until = stillLanding(this.ctx, refId);
      if (until !== undefined) return awaitLanding(this.ctx, refId, until, 'order');
      journal.update(
        refId,
        clock.now(),
        'done',
        { status: 'NOT_PLACED', message: 'the venue has no order with this ref_id' },
        { type: 'lookup', data: { found: false } },
      );
      this.ctx.emit({ kind: 'failed', refId, code: 'NOT_PLACED', message: 'the order never reached the venue', at: clock.now() });
    } catch (e) {
      lookupFailed(this.ctx, refId, e, true);
    }
  }

  /**
   * Adopts orders that reached the venue after their intent was closed as NOT_PLACED (a write that
   * landed later than `lateWriteMs`): each open order whose ref_id names such an intent is read from
   * the venue, journaled as open and followed like any other, so no order rests at the venue
   * untracked. Returns the ref_ids adopted. Orders with no journaled ref_id belong to someone else
   * and are left alone.
   */
  async adoptLate(open: ReadonlyArray<{ readonly orderId: string; readonly refId: string }>): Promise<string[]> {
    const adopted: string[] = [];
    for (const o of open) {
      const row = this.ctx.journal.get(o.refId);
      if (row?.kind !== 'place-order' || row.state !== 'done' || row.status !== 'NOT_PLACED') continue;
      try {
        const order = await this.ctx.venue.getOrder(o.orderId);
        this.ctx.log?.warn(
          { refId: o.refId, orderId: o.orderId },
          `order ${o.orderId} reached the venue after its intent was closed as never placed: adopted and followed`,
        );
        this.applyOrder(o.refId, order, 'late-landing');
        adopted.push(o.refId);
      } catch (e) {
        this.ctx.log?.warn(
          { refId: o.refId, orderId: o.orderId },
          `cannot read order ${o.orderId} that landed late (adopted at the next poll): ${errorMessage(e)}`,
        );
      }
    }
    return adopted;
  }

  /** Re-reads one journaled order from the venue and records any change. */
  async refresh(row: JournalIntentRow): Promise<void> {
    if (!row.venueId) return this.resolve(row.refId);
    try {
      const order = await this.ctx.venue.getOrder(row.venueId);
      this.applyOrder(row.refId, order, 'status');
    } catch (e) {
      pollFailed(this.ctx, e, { refId: row.refId, code: errorCode(e) }, `order status poll failed: ${errorMessage(e)}`);
    }
  }

  /** Records the venue's view of an order; emits accepted/cancelled/rejected on transitions. */
  applyOrder(refId: string, order: VenueOrder, source: string): void {
    const { journal, clock } = this.ctx;
    if (!sameRef(refId, order, this.ctx)) return;
    const before = journal.facts(refId);
    const state: JournalState = TERMINAL_ORDER_STATUSES.has(order.status) ? 'done' : 'open';
    const text = order.text;
    const filled = text === undefined ? order.amountFilled.toFixed() : text.amountFilled;
    const changed = before?.status !== order.status || before.amountFilled !== filled || before.venueId !== order.orderId;
    if (!changed && before?.state === state) return;
    const averagePrice = text === undefined ? order.averagePrice?.toFixed() : text.averagePrice;
    journal.update(
      refId,
      clock.now(),
      state,
      { venueId: order.orderId, status: order.status, amountFilled: filled, averagePrice },
      { type: source, data: { status: order.status, amount_filled: filled } },
    );
    const at = clock.now();
    if (!before?.venueId) this.ctx.emit({ kind: 'accepted', refId, orderId: order.orderId, at });
    if (before?.status !== order.status) {
      if (order.status === 'CANCELLED') this.ctx.emit({ kind: 'cancelled', refId, orderId: order.orderId, at });
      else if (order.status === 'REJECTED')
        this.ctx.emit({ kind: 'rejected', refId, code: 'REJECTED', message: 'rejected by the venue', at });
    }
  }
}

/**
 * Whether the venue's order carries the journaled ref_id: an order is never recorded under another
 * intent because its venue id matched (a venue that reissued ids, or another venue's order).
 */
function sameRef(refId: string, order: VenueOrder, ctx: ExecContext): boolean {
  if (order.refId === refId) return true;
  ctx.log?.error(
    { refId, orderId: order.orderId, venueRef: order.refId },
    `order ${order.orderId} not recorded for ${refId}: the venue gives it ref_id ${order.refId || '(none)'}`,
  );
  return false;
}

/** The extreme of a bar that reaches each rule's level. */
const BAR_EXTREME = { 'stop-loss': 'low', 'trailing-stop': 'low', 'take-profit': 'high' } as const;

function toRequest(i: PlaceIntent): PlaceOrderRequest {
  switch (i.type) {
    case 'MARKET':
    case 'LIMIT':
    case 'POST_ONLY_LIMIT':
    case 'STOP_MARKET':
    case 'STOP_LIMIT': {
      // by assignment, not spreads of conditional objects: this runs for every order
      const r: { -readonly [K in keyof PlaceOrderRequest]: PlaceOrderRequest[K] } = {
        refId: i.intentId,
        market: i.market,
        side: i.side,
        type: i.type,
      };
      if (i.baseAmount !== undefined) r.baseAmount = i.baseAmount;
      if (i.quoteAmount !== undefined) r.quoteAmount = i.quoteAmount;
      if (i.price !== undefined) r.price = i.price;
      if (i.stopPrice !== undefined) r.stopPrice = i.stopPrice;
      if (i.timeInForce !== undefined) r.timeInForce = i.timeInForce;
      if (i.expiresAt !== undefined) r.expiresAt = i.expiresAt;
      // a position helper's exit decided on a bar's extreme (only point replay over OHLCV rows reads it)
      if (i.exitLevel !== undefined && i.exitReason !== undefined && Object.hasOwn(BAR_EXTREME, i.exitReason))
        r.barExit = { level: i.exitLevel, by: BAR_EXTREME[i.exitReason as keyof typeof BAR_EXTREME] };
      return r;
    }
    default:
      return assertNever(i.type);
  }
}
