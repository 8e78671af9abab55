import { D, splitMarket, type Dec } from '../../src/core/index.js';
import type { JournalIntentRow } from '../../src/exec/index.js';
import type { ReliabilityHarness } from './reliability-harness.js';

/** What the issue promises, checked against the sandbox's own truth after a run. */
export interface InvariantReport {
  readonly violations: string[];
  readonly figures: {
    readonly venueOrders: number;
    readonly venueQuoteExecutions: number;
    readonly venueTransfers: number;
    readonly venueFills: number;
    readonly journalFills: number;
    readonly everUnresolved: number;
    readonly stillUnresolved: number;
    readonly balances: Readonly<Record<string, string>>;
  };
}

/** Counts per ref_id; returns those seen more than once. */
function duplicates(refIds: ReadonlyArray<string | undefined>): string[] {
  const seen = new Map<string, number>();
  for (const r of refIds) if (r !== undefined) seen.set(r, (seen.get(r) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([r, n]) => `${r}×${n}`);
}

/**
 * Checks, for the run's profile: at most one venue order, quote execution and transfer per ref_id;
 * every venue record of ours journaled with its venue id and every NOT_PLACED one absent at the
 * venue; nothing left sent or unresolved; every intent that was ever unresolved was reported in
 * the log; every venue fill exactly once in the journal; balances derived from the journal alone
 * (funding, fills, quote executions, transfers) equal the sandbox's.
 */
export function checkInvariants(h: ReliabilityHarness, prefix: string): InvariantReport {
  const v: string[] = [];
  const records = venueRecords(h, prefix);
  checkVenueRecords(h, records, v);
  const rows = h.journal.intents();
  const stuck = h.journal.active().filter((r) => r.state === 'sent' || r.state === 'unresolved' || r.state === 'pending');
  if (stuck.length)
    v.push(
      `${stuck.length} intent(s) still unresolved: ${stuck
        .slice(0, 5)
        .map((r) => r.refId)
        .join(', ')}`,
    );
  const everUnresolved = rows.filter((r) => h.journal.events(r.refId).some((e) => e.type === 'lookup-failed'));
  const logs = h.logs();
  const silent = everUnresolved.filter((r) => !new RegExp(`"refId":"${r.refId}"[^\\n]*outcome unresolved`).test(logs));
  if (silent.length)
    v.push(
      `${silent.length} unresolved intent(s) never reported: ${silent
        .slice(0, 5)
        .map((r) => r.refId)
        .join(', ')}`,
    );
  const fills = checkFills(h, v);
  const balances = checkBalances(h, rows, v);
  return {
    violations: v,
    figures: {
      venueOrders: records.orders.length,
      venueQuoteExecutions: records.qx.length,
      venueTransfers: records.transfers.length,
      ...fills,
      everUnresolved: everUnresolved.length,
      stillUnresolved: stuck.length,
      balances,
    },
  };
}

/** The sandbox's orders, quote executions and transfer debits of the run's profile and prefix. */
function venueRecords(h: ReliabilityHarness, prefix: string) {
  const sim = h.sandbox.sim;
  const ours = (ref: string | undefined): boolean => ref !== undefined && ref.startsWith(`${prefix}-`);
  return {
    orders: sim.orders().filter((o) => o.profileId === h.profileId && ours(o.refId)),
    qx: sim.quoteExecutions().filter((x) => x.profileId === h.profileId && ours(x.refId)),
    transfers: sim.allTransfers().filter((t) => t.profileId === h.profileId && t.direction === 'DEBIT' && ours(t.refId)),
  };
}

/** One record per ref_id, each journaled with its venue id, none journaled NOT_PLACED. */
function checkVenueRecords(h: ReliabilityHarness, r: ReturnType<typeof venueRecords>, v: string[]): void {
  for (const [what, refs] of [
    ['orders', r.orders.map((o) => o.refId)],
    ['quote executions', r.qx.map((x) => x.refId)],
    ['transfers', r.transfers.map((t) => t.refId)],
  ] as const) {
    const dup = duplicates(refs);
    if (dup.length) v.push(`more than one venue ${what} for ref_id ${dup.slice(0, 5).join(', ')}`);
  }
  const journaled = (refId: string | undefined, id: string, what: string): void => {
    const row = h.journal.get(refId ?? '');
    if (row?.venueId !== id)
      v.push(`venue ${what} ${id} (${refId}) is ${row ? `journaled with venue id ${row.venueId}` : 'missing from the journal'}`);
  };
  for (const o of r.orders) journaled(o.refId, o.id, 'order');
  for (const x of r.qx) journaled(x.refId, x.id, 'quote execution');
  for (const t of r.transfers) journaled(t.refId, t.id, 'transfer');
  const venueRefs = new Set([...r.orders.map((o) => o.refId), ...r.qx.map((x) => x.refId), ...r.transfers.map((t) => t.refId)]);
  for (const row of h.journal.intents({ state: 'done' }))
    if (row.status === 'NOT_PLACED' && venueRefs.has(row.refId)) v.push(`${row.refId} journaled NOT_PLACED but exists at the venue`);
}

/** Every venue fill of the profile exactly once in the journal. */
function checkFills(h: ReliabilityHarness, v: string[]): { venueFills: number; journalFills: number } {
  const venueFills = h.sandbox.sim.executions().filter((x) => x.profileId === h.profileId);
  const journalFills = h.journal.fills();
  const jf = new Set(journalFills.map((f) => f.fillId));
  const missing = venueFills.filter((x) => !jf.has(x.executionId));
  if (missing.length) v.push(`${missing.length} venue fill(s) missing from the journal, e.g. ${missing[0]?.executionId}`);
  if (journalFills.length !== venueFills.length) v.push(`journal has ${journalFills.length} fills, the venue ${venueFills.length}`);
  return { venueFills: venueFills.length, journalFills: journalFills.length };
}

/** Balances derived from the journal equal the sandbox's (available + trading) for every asset. */
function checkBalances(h: ReliabilityHarness, rows: readonly JournalIntentRow[], v: string[]): Record<string, string> {
  const ledger = journalLedger(rows, h.journal.fills(), h.funding);
  const balances: Record<string, string> = {};
  for (const b of h.sandbox.sim.accounts.balances(h.profileId)) {
    const total = b.available.plus(b.trading);
    balances[b.asset] = total.toFixed();
    const mine = ledger.get(b.asset) ?? new D(0);
    if (!mine.eq(total)) v.push(`${b.asset}: journal says ${mine.toFixed()}, the sandbox ${total.toFixed()}`);
  }
  return balances;
}

/** Balances from the journal alone: funding, plus fills, quote executions and transfers out. */
export function journalLedger(
  rows: readonly JournalIntentRow[],
  fills: ReturnType<ReliabilityHarness['journal']['fills']>,
  funding: Readonly<Record<string, string>>,
): Map<string, Dec> {
  const book = new Map<string, Dec>(Object.entries(funding).map(([a, n]) => [a, new D(n)]));
  const add = (asset: string, amount: Dec): void => void book.set(asset, (book.get(asset) ?? new D(0)).plus(amount));
  for (const f of fills) {
    const { base, quote } = splitMarket(f.market);
    const sign = f.side === 'BUY' ? 1 : -1;
    add(base, new D(f.amount).times(sign));
    add(quote, new D(f.amount).times(f.price).times(-sign));
    add(f.commissionAsset, new D(f.commission).neg());
  }
  for (const r of rows) {
    if (r.venueId === null) continue;
    const i = r.intent;
    if (i.kind === 'execute-quote' && i.quoteAmount !== undefined) {
      const { base, quote } = splitMarket(i.market);
      const sign = i.side === 'BUY' ? 1 : -1;
      add(base, new D(r.amountFilled).times(sign));
      add(quote, new D(i.quoteAmount).times(-sign));
    }
    if (i.kind === 'transfer') add(i.asset, new D(i.amount).neg());
  }
  return book;
}
