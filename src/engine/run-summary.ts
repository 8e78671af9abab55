import type { JournalIntentRow, JournalStore } from '../exec/index.js';
import type { Orphan } from './orphans.js';
import type { RunSummary, RunView } from './run-view.js';

/**
 * What the journal says is left at the end of a run, for the summary: orders still open (counted and
 * named, so an exit that could not close them says which), intents left unresolved, and the orphans
 * found at start counted by what was done to them.
 */
export function endTally(journal: Pick<JournalStore, 'active'>, orphans: readonly Orphan[]): Pick<RunSummary, 'openOrdersLeft' | 'leftOpen' | 'settlingQuoteExecutions' | 'unresolved' | 'orphans'> {
  const active = journal.active();
  // a quote execution waiting for settlement is no order at the venue: no cancel can close it, and the
  // next start follows it to its end, so it is counted apart and never makes the exit fail
  const open = active.filter((r) => r.state === 'open' && r.kind === 'place-order');
  const settling = active.filter((r) => r.state === 'open' && r.kind === 'execute-quote').length;
  const orphanCounts: Record<string, number> = {};
  for (const o of orphans) orphanCounts[o.action] = (orphanCounts[o.action] ?? 0) + 1;
  return {
    openOrdersLeft: open.length,
    leftOpen: open.map(describeOrder),
    ...(settling > 0 && { settlingQuoteExecutions: settling }),
    unresolved: active.filter((r) => r.state === 'unresolved' || r.state === 'sent').length,
    orphans: orphanCounts,
  };
}

/** One open order as the summary names it: ref_id, venue id, side, market, price and status. */
export function describeOrder(r: JournalIntentRow): string {
  const price = r.intent.kind === 'place-order' && r.intent.price ? ` @ ${r.intent.price}` : '';
  return `${r.refId} (order ${r.venueId ?? '?'}, ${r.side ?? ''} ${r.market ?? ''}${price}, ${r.status ?? r.state})`;
}

/** The orphans as the panel lists them. */
export function orphanViews(orphans: readonly Orphan[]): NonNullable<RunView['orphans']> {
  return orphans.map((o) => ({ refId: o.refId, orderId: o.orderId, market: o.market, side: o.side, ...(o.price !== undefined && { price: o.price }), action: o.action }));
}

/** The newest open orders of the journal as the panel lists them (20 at most). */
export function openOrderViews(journal: Pick<JournalStore, 'intents'>): RunView['openOrders'] {
  return journal.intents({ state: 'open', kind: 'place-order', limit: 20 }).map((r) => {
    const i = r.intent.kind === 'place-order' ? r.intent : undefined;
    return { refId: r.refId, market: r.market ?? '', side: r.side ?? '', ...(i?.price && { price: i.price }), ...((i?.baseAmount ?? i?.quoteAmount) && { amount: i?.baseAmount ?? i?.quoteAmount }), status: r.status ?? '' };
  });
}
