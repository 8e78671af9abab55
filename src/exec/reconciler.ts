import { errorMessage, stillLanding, type ExecContext } from './exec-context.js';
import type { FillTracker } from './fill-tracker.js';
import type { JournalIntentRow } from './journal.js';
import type { OrderExecutor } from './order-executor.js';
import type { QuoteExecutor } from './quote-executor.js';
import type { TransferExecutor } from './transfer-executor.js';

export interface ReconcileResult {
  /** True when journal and venue agree and trading may start. */
  readonly agreed: boolean;
  /** One line per repair, for the operator. */
  readonly repairs: readonly string[];
  /** Intents whose outcome is still unknown. */
  readonly unresolved: readonly string[];
  /** Open orders at the venue that the journal does not know. */
  readonly foreignOpenOrders: readonly string[];
  readonly newFills: number;
  /**
   * When some unresolved intents are writes that may still land (ExecContext.lateWriteMs): the
   * earliest time their lookup can conclude, so a caller waits until then rather than guessing.
   */
  readonly retryAt?: number;
}

export interface Executors {
  readonly orders: OrderExecutor;
  readonly quotes: QuoteExecutor;
  readonly transfers: TransferExecutor;
  readonly fills: FillTracker;
}

/**
 * Brings the journal to the venue's truth: intents journaled but never sent are closed, sent or
 * unresolved ones are looked up by ref_id, open ones are re-read, and fills missed while down are
 * recorded once. Trading starts only when nothing is left unresolved.
 */
export class Reconciler {
  constructor(
    private readonly ctx: ExecContext,
    private readonly ex: Executors,
  ) {}

  async reconcile(): Promise<ReconcileResult> {
    const repairs: string[] = [];
    for (const row of this.ctx.journal.active()) {
      const before = `${row.state}/${row.status ?? '-'}`;
      await this.settle(row);
      const after = this.ctx.journal.get(row.refId);
      const now = `${after?.state}/${after?.status ?? '-'}`;
      if (now !== before) repairs.push(`${row.refId} (${row.kind}): ${before} → ${now}`);
    }
    const newFills = await this.ex.fills.poll();
    if (newFills) repairs.push(`${newFills} fill(s) recorded that arrived while away`);
    const foreign = await this.foreignOpenOrders();
    const unresolved = this.ctx.journal
      .active()
      .filter((r) => r.state === 'sent' || r.state === 'unresolved')
      .map((r) => r.refId);
    const landing = unresolved.map((refId) => stillLanding(this.ctx, refId)).filter((t): t is number => t !== undefined);
    return {
      agreed: unresolved.length === 0,
      repairs,
      unresolved,
      foreignOpenOrders: foreign,
      newFills,
      ...(landing.length > 0 && { retryAt: Math.min(...landing) }),
    };
  }

  private async settle(row: JournalIntentRow): Promise<void> {
    const { journal, clock } = this.ctx;
    if (row.state === 'pending') {
      journal.update(
        row.refId,
        clock.now(),
        'done',
        { status: 'NOT_SENT', message: 'approved but never sent before a restart' },
        { type: 'reconcile', data: { abandoned: true } },
      );
      this.ctx.emit({ kind: 'failed', refId: row.refId, code: 'NOT_SENT', message: 'abandoned at restart: never sent', at: clock.now() });
      return;
    }
    switch (row.kind) {
      case 'place-order':
        return row.state === 'open' ? this.ex.orders.refresh(row) : this.ex.orders.resolve(row.refId);
      case 'execute-quote':
        return row.state === 'open' ? this.ex.quotes.refresh(row) : this.ex.quotes.resolve(row.refId);
      case 'transfer':
        return this.ex.transfers.resolve(row.refId);
      case 'cancel-order':
        // a cancel's effect shows on its order, which is reconciled on its own
        journal.update(row.refId, clock.now(), 'done', { status: 'ACKNOWLEDGED' }, { type: 'reconcile', data: {} });
        return;
    }
  }

  private async foreignOpenOrders(): Promise<string[]> {
    try {
      const open = await this.ctx.venue.listOpenOrders();
      const foreign: string[] = [];
      for (const o of open) {
        // by ref_id only: a row that merely shares the venue id is another record (orphans are settled at start)
        const row = this.ctx.journal.get(o.refId);
        if (!row) foreign.push(o.orderId);
        else if (row.venueId !== o.orderId || row.state !== 'open') this.ex.orders.applyOrder(row.refId, o, 'reconcile');
      }
      return foreign;
    } catch (e) {
      this.ctx.log?.warn(`cannot list open orders while reconciling: ${errorMessage(e)}`);
      return [];
    }
  }
}
