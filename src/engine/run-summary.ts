import type { JournalIntentRow, JournalStore } from '../exec/index.js';
import type { RunSummary, RunView } from './run-view.js';
import type { Orphan } from './orphans.js';

/**
 * What the journal says is left at the end of a run, for the summary: orders still open (counted and
 * named, so an exit that could not close them says which), intents left unresolved, and the orphans
 * found at start counted by what was done to them.
 */
export function endTally(journal: Pick<JournalStore, 'active'>, orphans: readonly Orphan[]): Pick<RunSummary, 'openOrdersLeft' | 'leftOpen' | 'unresolved' | 'orphans'> {
  const active = journal.active();
  const open = active.filter((r) => r.state === 'open');
  const orphanCounts: Record<string, number> = {};
  for (const o of orphans) orphanCounts[o.action] = (orphanCounts[o.action] ?? 0) + 1;
  return {
    openOrdersLeft: open.length,
    leftOpen: open.filter((r) => r.kind === 'place-order').map(describeOrder),
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
