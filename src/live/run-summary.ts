import type { JournalIntentRow, JournalStore } from '../exec/index.js';
import type { Orphan } from './orphans.js';
import type { RunSummary, RunView } from './run-view.js';

/**
 * What the journal says is left at the end of a run, for the summary: orders still open (counted and
 * named, so an exit that could not close them says which), quote executions not followed to their
 * end (named likewise), intents left unresolved, and the orphans found at start counted by what was
 * done to them.
 */
export function endTally(
  journal: Pick<JournalStore, 'active'>,
  orphans: readonly Orphan[],
): Pick<RunSummary, 'openOrdersLeft' | 'leftOpen' | 'settlingQuoteExecutions' | 'leftSettling' | 'unresolved' | 'orphans'> {
  const active = journal.active();
  const open = active.filter((r) => r.state === 'open' && r.kind === 'place-order');
  // a quote execution is no order at the venue: no cancel closes it, but the exit follows it to its
  // end (SETTLED, or proved never made); one it could not is named here (CREATED, or outcome unknown)
  const settling = active.filter((r) => r.kind === 'execute-quote');
  const orphanCounts: Record<string, number> = {};
  for (const o of orphans) orphanCounts[o.action] = (orphanCounts[o.action] ?? 0) + 1;
  return {
    openOrdersLeft: open.length,
    leftOpen: open.map(describeOrder),
    ...(settling.length > 0 && { settlingQuoteExecutions: settling.length, leftSettling: settling.map(describeQuoteExecution) }),
    unresolved: active.filter((r) => r.state === 'unresolved' || r.state === 'sent').length,
    orphans: orphanCounts,
  };
}

/** One quote execution as the summary names it: ref_id, execution id, side, market and status (or the journal's state when the venue's is unknown). */
export function describeQuoteExecution(r: JournalIntentRow): string {
  return `${r.refId} (quote execution ${r.venueId ?? '?'}, ${r.side ?? ''} ${r.market ?? ''}, ${r.status ?? r.state})`;
}

/** One open order as the summary names it: ref_id, venue id, side, market, price and status. */
export function describeOrder(r: JournalIntentRow): string {
  const price = r.intent.kind === 'place-order' && r.intent.price ? ` @ ${r.intent.price}` : '';
  return `${r.refId} (order ${r.venueId ?? '?'}, ${r.side ?? ''} ${r.market ?? ''}${price}, ${r.status ?? r.state})`;
}

/** The orphans as the panel lists them. */
export function orphanViews(orphans: readonly Orphan[]): NonNullable<RunView['orphans']> {
  return orphans.map((o) => ({
    refId: o.refId,
    orderId: o.orderId,
    market: o.market,
    side: o.side,
    ...(o.price !== undefined && { price: o.price }),
    action: o.action,
  }));
}

/** The newest open orders of the journal as the panel lists them (20 at most). */
export function openOrderViews(journal: Pick<JournalStore, 'intents'>): RunView['openOrders'] {
  return journal.intents({ state: 'open', kind: 'place-order', limit: 20 }).map((r) => {
    const i = r.intent.kind === 'place-order' ? r.intent : undefined;
    return {
      refId: r.refId,
      market: r.market ?? '',
      side: r.side ?? '',
      ...(i?.price && { price: i.price }),
      ...((i?.baseAmount ?? i?.quoteAmount) && { amount: i?.baseAmount ?? i?.quoteAmount }),
      status: r.status ?? '',
    };
  });
}
