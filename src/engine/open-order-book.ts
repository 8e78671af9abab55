import { D, ZERO, type Dec, type ExecReport, type Intent } from '../core/index.js';
import type { JournalStore } from '../exec/index.js';
import type { OpenOrderView } from '../state/index.js';

type PlaceIntent = Extract<Intent, { kind: 'place-order' }>;

/** One of our open orders, with the strategy instance that made it. */
export interface OwnedOpenOrder extends OpenOrderView {
  readonly strategy: string;
}

interface Entry {
  readonly intent: PlaceIntent;
  /** Built when first listed: most orders close before anyone lists them, so none is made for them. */
  view: OwnedOpenOrder | undefined;
}

/**
 * Our open orders as the kernel counts them, the same in every mode: an order counts from the moment
 * the risk gate approves it until the journal records it closed (filled, cancelled, rejected, never
 * placed), whatever the venue's open-orders poll has listed so far. The journal is the truth the
 * executors write in every mode, so a poll that has not yet seen an order entered a moment ago can no
 * longer let a burst pass `max_open_orders`, and a strategy reading `ctx.account.openOrders()` sees
 * the order it just made instead of ordering it again.
 *
 * An order leaves the book on the report that closes it (cancelled, rejected, failed), or, on a report
 * after which the journal says it is done (a fill or an acceptance of an order already filled).
 * Counting is O(1); `list()` reads each open order's latest facts from the journal.
 */
export class OpenOrderBook {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly journal: Pick<JournalStore, 'facts' | 'active'>) {}

  /** Takes in the orders a previous run left open, so a restart counts them from the start. */
  seed(): void {
    for (const row of this.journal.active()) {
      if (row.intent.kind === 'place-order') this.add(row.intent);
    }
  }

  /** An approved order starts counting now (before the venue has seen it). */
  add(intent: PlaceIntent): void {
    this.entries.set(intent.intentId, { intent, view: undefined });
  }

  /** Takes a report (before the engine does): orders closed by it leave the book. */
  onReport(r: ExecReport): void {
    if (!this.entries.has(r.refId)) return;
    switch (r.kind) {
      case 'cancelled':
      case 'rejected':
      case 'failed':
      case 'denied':
        this.entries.delete(r.refId);
        return;
      case 'accepted':
      case 'filled':
      case 'unresolved':
        if (this.journal.facts(r.refId)?.state === 'done') this.entries.delete(r.refId);
        return;
      default:
        return;
    }
  }

  /** Open orders, oldest first, with the journal's latest venue id, status and amount filled. */
  list(): readonly OwnedOpenOrder[] {
    if (this.entries.size === 0) return NONE;
    const out: OwnedOpenOrder[] = [];
    for (const [refId, e] of this.entries) {
      const f = this.journal.facts(refId);
      // no row yet: the executor has not journaled the approval (it does so at once): still counts
      if (f?.state === 'done') {
        this.entries.delete(refId);
        continue;
      }
      let view = e.view ?? (e.view = viewOf(e.intent, '', 'PENDING_SUBMISSION', ZERO));
      if (f && (f.venueId !== (view.orderId || null) || f.status !== view.status || f.amountFilled !== view.amountFilled.toFixed())) {
        view = e.view = viewOf(e.intent, f.venueId ?? '', f.status ?? view.status, new D(f.amountFilled));
      }
      out.push(view);
    }
    return out;
  }

  /** How many of our orders are open (approved and not yet closed). */
  count(): number {
    return this.entries.size;
  }

  /** Whether `refId` names one of our open orders. */
  has(refId: string): boolean {
    return this.entries.has(refId);
  }
}

const NONE: readonly OwnedOpenOrder[] = [];

function viewOf(i: PlaceIntent, orderId: string, status: string, amountFilled: Dec): OwnedOpenOrder {
  return {
    strategy: i.strategy,
    orderId,
    refId: i.intentId,
    market: i.market,
    side: i.side,
    type: i.type,
    ...(i.price !== undefined && { price: new D(i.price) }),
    ...(i.baseAmount !== undefined && { baseAmount: new D(i.baseAmount) }),
    ...(i.quoteAmount !== undefined && { quoteAmount: new D(i.quoteAmount) }),
    amountFilled,
    status,
  };
}
