import type { Clock } from '../clock/index.js';
import type { Config } from '../config/index.js';
import type { Intent } from '../core/index.js';
import { errorMessage, type FillTracker, type JournalIntentRow, type JournalStore } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { HaltKind } from '../risk/index.js';
import { TERMINAL_ORDER_STATUSES, type Venue, type VenueOrder } from '../venue/index.js';

/** What a start does with orphans: cancel them, adopt them (follow them as ours), or halt trading. */
export type OrphanPolicy = 'cancel' | 'adopt' | 'halt';

/** Strategy named on an orphan's journal row when no journal row said which strategy made it. */
export const UNKNOWN_STRATEGY = 'unknown (orphan)';

/**
 * The `run.orphans` policy in force: the configured one, else `cancel`, or `adopt` when
 * `cancel_on_exit` is false, since orders a run leaves open on purpose are meant to be found again.
 */
export function orphanPolicy(run: Pick<Config['run'], 'cancel_on_exit' | 'orphans'>): OrphanPolicy {
  return run.orphans ?? (run.cancel_on_exit ? 'cancel' : 'adopt');
}

/** One orphan as logged, shown in the panel and counted in the summary. */
export interface Orphan {
  readonly refId: string;
  readonly orderId: string;
  readonly market: string;
  readonly side: string;
  readonly price?: string;
  readonly status: string;
  readonly strategy: string;
  /** Journaled just now (the journal lacked it), or left open by an earlier run. */
  readonly origin: 'not-journaled' | 'earlier-run';
  /** What was done: the policy, or `left-open` when a cancel did not close it in time. */
  action: OrphanPolicy | 'left-open' | 'closed';
}

export interface OrphanScanDeps {
  readonly venue: Venue;
  readonly journal: JournalStore;
  readonly clock: Pick<Clock, 'now'>;
  readonly refPrefix: string;
  readonly log?: Logger;
  /** Told the ref_id the venue gives each order journaled here, so their fills are journaled under it (FillTracker.confirm). */
  readonly confirm?: (orderId: string, refId: string) => void;
}

/**
 * Finds the orphans at start (after reconciling): venue records whose ref_id carries our prefix but
 * that the journal lacks (open orders, and orders the fills of the last day name), which it journals
 * first so none is untracked, and the orders the journal holds open from an earlier run. Records
 * already closed are journaled but are no orphans (nothing rests). A failed read of the venue is
 * logged and leaves that part for the next start: it never stops the run.
 */
export async function findOrphans(deps: OrphanScanDeps, sinceMs: number): Promise<Orphan[]> {
  const earlier = deps.journal.active().filter((r) => r.kind === 'place-order' && r.state === 'open' && r.venueId !== null);
  const found: Orphan[] = earlier.map((r) => orphanOf(r, 'earlier-run'));
  for (const order of await unjournaled(deps, sinceMs)) {
    const row = journalOrphan(deps, order);
    if (row.state === 'open') found.push(orphanOf(row, 'not-journaled'));
  }
  return found;
}

/** Venue orders with our prefix that the journal does not hold (open ones, and those our fills name). */
async function unjournaled(deps: OrphanScanDeps, sinceMs: number): Promise<VenueOrder[]> {
  const { venue, journal, log } = deps;
  const ours = (o: { refId: string }): boolean => o.refId.startsWith(`${deps.refPrefix}-`) && journal.get(o.refId) === undefined;
  const out = new Map<string, VenueOrder>();
  try {
    // by ref_id alone: a journal row sharing the venue id is another record (a world that reissued ids)
    for (const o of await venue.listOpenOrders()) if (ours(o)) out.set(o.orderId, o);
  } catch (e) {
    log?.warn(`cannot list open orders to look for orphans: ${errorMessage(e)}`);
  }
  try {
    const unknown = new Set((await venue.listFills(sinceMs)).map((f) => f.orderId).filter((id) => !out.has(id) && journal.byVenueId(id) === undefined));
    for (const id of unknown) {
      const o = await venue.getOrder(id);
      if (ours(o)) out.set(o.orderId, o);
    }
  } catch (e) {
    log?.warn(`cannot read the orders of unjournaled fills to look for orphans: ${errorMessage(e)}`);
  }
  return [...out.values()];
}

/** Journals a venue order the journal lacked, as an approved intent of an unknown strategy, with the venue's facts. */
function journalOrphan(deps: OrphanScanDeps, o: VenueOrder): JournalIntentRow {
  const { journal, clock, log } = deps;
  const at = clock.now();
  const intent: Intent = {
    kind: 'place-order', intentId: o.refId, strategy: UNKNOWN_STRATEGY, market: o.market, side: o.side, type: o.type as Extract<Intent, { kind: 'place-order' }>['type'],
    ...(o.baseAmount && { baseAmount: o.baseAmount.toFixed() }),
    ...(o.quoteAmount && { quoteAmount: o.quoteAmount.toFixed() }),
    ...(o.price && { price: o.price.toFixed() }),
  };
  journal.recordDecision({ kind: 'approve', intent, at }, { at, request: { orphan: true, orderId: o.orderId } });
  const state = TERMINAL_ORDER_STATUSES.has(o.status) ? 'done' : 'open';
  deps.confirm?.(o.orderId, o.refId);
  journal.update(o.refId, at, state, { venueId: o.orderId, status: o.status, amountFilled: o.amountFilled.toFixed(), ...(o.averagePrice && { averagePrice: o.averagePrice.toFixed() }) }, { type: 'orphan', data: { status: o.status, amount_filled: o.amountFilled.toFixed() } });
  log?.warn({ refId: o.refId, orderId: o.orderId }, `venue order ${o.orderId} (${o.refId}, ${o.side} ${o.market}, ${o.status}) carries our prefix but was not in the journal: journaled`);
  return journal.get(o.refId) as JournalIntentRow;
}

function orphanOf(r: JournalIntentRow, origin: Orphan['origin']): Orphan {
  const price = r.intent.kind === 'place-order' ? r.intent.price : undefined;
  return {
    refId: r.refId, orderId: r.venueId ?? '', market: r.market ?? '', side: r.side ?? '', status: r.status ?? '', strategy: r.strategy, origin,
    ...(price !== undefined && { price }), action: 'cancel',
  };
}

/** What `settleOrphans` needs of the kernel. */
export interface OrphanKernel {
  cancelAll(only: ReadonlySet<string>, timeoutMs: number): Promise<{ readonly open: readonly string[] }>;
  adopt(refIds: readonly string[]): void;
  idsPast(refIds: readonly string[]): void;
  haltKeepingOrders(reason: string, kind?: HaltKind): void;
}

/**
 * Applies the policy to the orphans found at start, each logged: `cancel` cancels and confirms them
 * (those still open when `timeoutMs` runs out are named), `adopt` follows them as ours (counted
 * against the limits, their fills journaled, their reports to the strategy the journal names when it
 * runs), `halt` adopts them too and halts new intents until an operator looks (nothing is cancelled).
 */
export async function settleOrphans(kernel: OrphanKernel, orphans: readonly Orphan[], policy: OrphanPolicy, timeoutMs: number, log: Logger): Promise<void> {
  if (orphans.length === 0) return;
  for (const o of orphans) {
    const why = o.origin === 'earlier-run' ? 'left open by an earlier run' : 'at the venue with our prefix but not in the journal';
    log.warn({ refId: o.refId, orderId: o.orderId, orphan: policy }, `orphan ${o.refId} (order ${o.orderId}, ${o.side} ${o.market}${o.price ? ` @ ${o.price}` : ''}, strategy ${o.strategy}) ${why}: ${policy}`);
  }
  const refs = orphans.map((o) => o.refId);
  kernel.idsPast(refs);
  if (policy === 'cancel') {
    const { open } = await kernel.cancelAll(new Set(refs), timeoutMs);
    for (const o of orphans) o.action = open.includes(o.refId) ? 'left-open' : 'cancel';
    if (open.length) log.error(`${open.length} orphan order(s) still open after ${timeoutMs} ms of cancelling: ${open.join(', ')}`);
    return;
  }
  kernel.adopt(refs);
  for (const o of orphans) o.action = policy;
  if (policy === 'halt') kernel.haltKeepingOrders(`${orphans.length} orphan order(s) found at start (run.orphans: halt): ${refs.join(', ')}; cancel or adopt them, then restart`, 'orphans');
}

/**
 * At start, after reconciling: finds the orphans (see `findOrphans`), journals the fills held for
 * orders journaled just now, and applies `run.orphans` to them (see `settleOrphans`).
 */
export async function orphansAtStart(
  kernel: OrphanKernel & { readonly fills: Pick<FillTracker, 'confirm' | 'ingest'> },
  deps: Omit<OrphanScanDeps, 'confirm' | 'log'> & { readonly config: Pick<Config, 'run'>; readonly log: Logger },
  sinceMs: number,
): Promise<Orphan[]> {
  const { config, log } = deps;
  const orphans = await findOrphans({ ...deps, confirm: (id, ref) => kernel.fills.confirm(id, ref) }, sinceMs);
  kernel.fills.ingest([]);
  await settleOrphans(kernel, orphans, orphanPolicy(config.run), config.run.exit_timeout_ms, log);
  return orphans;
}
