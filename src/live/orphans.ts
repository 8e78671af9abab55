import type { Config } from '../config/index.js';
import type { FillTracker, JournalIntentRow } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { HaltKind } from '../risk/index.js';
import { recoverHistory, type HistoryScanDeps } from './orphan-history.js';

export { UNKNOWN_STRATEGY } from './orphan-history.js';

/** What a start does with orphans: cancel them, adopt them (follow them as ours), or halt trading. */
export type OrphanPolicy = 'cancel' | 'adopt' | 'halt';

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

export type OrphanScanDeps = HistoryScanDeps;

/**
 * Finds the orphans at start (after reconciling): first every venue record of ours the journal lacks
 * since `sinceMs` is journaled, open or closed, with its fills (see `recoverHistory`); the orphans
 * are the orders among them still open, and the orders the journal holds open from an earlier run.
 * `recovered` is told the ref_ids journaled, so new ids go on past them.
 */
export async function findOrphans(
  deps: OrphanScanDeps,
  sinceMs: number,
  recovered?: (refIds: readonly string[]) => void,
): Promise<Orphan[]> {
  const earlier = deps.journal.active().filter((r) => r.kind === 'place-order' && r.state === 'open' && r.venueId !== null);
  const found: Orphan[] = earlier.map((r) => orphanOf(r, 'earlier-run'));
  const { orders, executions } = await recoverHistory(deps, sinceMs);
  for (const row of orders) if (row.state === 'open') found.push(orphanOf(row, 'not-journaled'));
  recovered?.([...orders, ...executions].map((r) => r.refId));
  return found;
}

function orphanOf(r: JournalIntentRow, origin: Orphan['origin']): Orphan {
  const price = r.intent.kind === 'place-order' ? r.intent.price : undefined;
  return {
    refId: r.refId,
    orderId: r.venueId ?? '',
    market: r.market ?? '',
    side: r.side ?? '',
    status: r.status ?? '',
    strategy: r.strategy,
    origin,
    ...(price !== undefined && { price }),
    action: 'cancel',
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
export async function settleOrphans(
  kernel: OrphanKernel,
  orphans: readonly Orphan[],
  policy: OrphanPolicy,
  timeoutMs: number,
  log: Logger,
): Promise<void> {
  if (orphans.length === 0) return;
  for (const o of orphans) {
    const why = o.origin === 'earlier-run' ? 'left open by an earlier run' : 'at the venue with our prefix but not in the journal';
    log.warn(
      { refId: o.refId, orderId: o.orderId, orphan: policy },
      `orphan ${o.refId} (order ${o.orderId}, ${o.side} ${o.market}${o.price ? ` @ ${o.price}` : ''}, strategy ${o.strategy}) ${why}: ${policy}`,
    );
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
  if (policy === 'halt')
    kernel.haltKeepingOrders(
      `${orphans.length} orphan order(s) found at start (run.orphans: halt): ${refs.join(', ')}; cancel or adopt them, then restart`,
      'orphans',
    );
}

/**
 * At start, after reconciling: finds the orphans (see `findOrphans`), journals the fills held for
 * orders journaled just now, and applies `run.orphans` to them (see `settleOrphans`).
 */
export async function orphansAtStart(
  kernel: OrphanKernel & { readonly fills: Pick<FillTracker, 'confirm' | 'ingest'> },
  deps: Omit<OrphanScanDeps, 'confirm' | 'ingest' | 'log'> & { readonly config: Pick<Config, 'run'>; readonly log: Logger },
  sinceMs: number,
): Promise<Orphan[]> {
  const { config, log } = deps;
  const orphans = await findOrphans(
    { ...deps, confirm: (id, ref) => kernel.fills.confirm(id, ref), ingest: (fills) => kernel.fills.ingest(fills) },
    sinceMs,
    (refs) => kernel.idsPast(refs),
  );
  kernel.fills.ingest([]);
  await settleOrphans(kernel, orphans, orphanPolicy(config.run), config.run.exit_timeout_ms, log);
  return orphans;
}
