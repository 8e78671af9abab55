import type { Clock } from '../clock/index.js';
import type { Intent } from '../core/index.js';
import { errorMessage, type JournalIntentRow, type JournalStore } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import {
  TERMINAL_ORDER_STATUSES,
  VenueNotFoundError,
  type Venue,
  type VenueFill,
  type VenueOrder,
  type VenueQuoteExecution,
} from '../venue/index.js';

/** Strategy named on an orphan's journal row when no journal row said which strategy made it. */
export const UNKNOWN_STRATEGY = 'unknown (orphan)';

/** The journal's meta key holding when it first started trading (epoch ms, this machine's clock). */
export const FIRST_START_KEY = 'first_start';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * From when the venue's history is read at start for records of ours the journal lacks: the journal's
 * first start (recorded at its first start; for a journal made before it was recorded, its oldest
 * intent), an hour earlier for a venue whose clock runs behind ours, and never later than a day ago.
 */
export function historyStart(journal: Pick<JournalStore, 'getMeta' | 'setMeta' | 'intents'>, nowMs: number): number {
  let first = Number(journal.getMeta(FIRST_START_KEY));
  if (!Number.isFinite(first) || first <= 0) {
    first = Math.min(nowMs, journal.intents().at(-1)?.createdAt ?? nowMs);
    journal.setMeta(FIRST_START_KEY, String(first));
  }
  return Math.min(first, nowMs - DAY_MS) - HOUR_MS;
}

export interface HistoryScanDeps {
  readonly venue: Venue;
  readonly journal: JournalStore;
  readonly clock: Pick<Clock, 'now'>;
  readonly refPrefix: string;
  readonly log?: Logger;
  /** Told the ref_id the venue gives each order journaled here, so their fills are journaled under it (FillTracker.confirm). */
  readonly confirm?: (orderId: string, refId: string) => void;
  /** Takes the venue's fills of the orders journaled here (FillTracker.ingest), which journals them under their ref_id. */
  readonly ingest?: (fills: readonly VenueFill[]) => void;
}

/** What the scan journaled: the venue's orders and quote executions of ours the journal lacked. */
export interface Recovered {
  readonly orders: readonly JournalIntentRow[];
  readonly executions: readonly JournalIntentRow[];
}

/** Reads at start go again after a failure that proves nothing (a 5xx, a malformed body), a few times. */
const READ_TRIES = 3;

/**
 * Journals every venue record carrying our ref_id prefix that the journal lacks, open or closed:
 * orders (with their fills, through `ingest`) and quote executions, made since `sinceMs` (see
 * `historyStart`). A venue without history (`ordersSince`) gives its open orders and the orders of
 * the last day's fills instead. A read that keeps failing is logged and leaves that part to the next
 * start; it never stops the run.
 */
export async function recoverHistory(deps: HistoryScanDeps, sinceMs: number): Promise<Recovered> {
  const orders = [...(await unjournaledOrders(deps, sinceMs)).values()].map((o) => journalOrder(deps, o));
  const executions = (await unjournaledExecutions(deps, sinceMs)).map((x) => journalExecution(deps, x));
  await recoverFills(deps, orders, sinceMs);
  return { orders, executions };
}

/** Whether a venue record is ours (our prefix) and missing from the journal: by ref_id alone, since a row sharing a venue id is another record. */
function missing(deps: HistoryScanDeps, refId: string | undefined): refId is string {
  return refId !== undefined && refId.startsWith(`${deps.refPrefix}-`) && deps.journal.get(refId) === undefined;
}

async function unjournaledOrders(deps: HistoryScanDeps, sinceMs: number): Promise<Map<string, VenueOrder>> {
  const { venue, journal, log } = deps;
  const out = new Map<string, VenueOrder>();
  const history = venue.ordersSince?.bind(venue);
  if (history) {
    const read = await persist(
      deps,
      async () => {
        const found = new Map<string, VenueOrder>();
        for await (const o of history(sinceMs)) if (missing(deps, o.refId)) found.set(o.orderId, o);
        return found;
      },
      'list the orders since the journal began',
    );
    for (const [id, o] of read ?? []) out.set(id, o);
  }
  // open orders, and the orders of the last day's fills: all a venue without history offers, and a net under a clock far off
  for (const o of (await persist(deps, () => venue.listOpenOrders(), 'list open orders')) ?? [])
    if (missing(deps, o.refId)) out.set(o.orderId, o);
  const fills = await persist(deps, () => venue.listFills(deps.clock.now() - DAY_MS), "list the last day's fills");
  const unknown = new Set((fills ?? []).map((f) => f.orderId).filter((id) => !out.has(id) && journal.byVenueId(id) === undefined));
  for (const id of unknown) {
    try {
      const o = await venue.getOrder(id);
      if (missing(deps, o.refId)) out.set(o.orderId, o);
    } catch (e) {
      if (!(e instanceof VenueNotFoundError)) log?.warn(`cannot read order ${id} of an unjournaled fill: ${errorMessage(e)}`);
    }
  }
  return out;
}

async function unjournaledExecutions(deps: HistoryScanDeps, sinceMs: number): Promise<VenueQuoteExecution[]> {
  const history = deps.venue.quoteExecutionsSince?.bind(deps.venue);
  if (!history) return [];
  const read = await persist(
    deps,
    async () => {
      const found: VenueQuoteExecution[] = [];
      for await (const x of history(sinceMs)) if (missing(deps, x.refId)) found.push(x);
      return found;
    },
    'list the quote executions since the journal began',
  );
  return read ?? [];
}

/** Journals a venue order the journal lacked, as an approved intent of an unknown strategy, with the venue's facts. */
function journalOrder(deps: HistoryScanDeps, o: VenueOrder): JournalIntentRow {
  const { journal, clock, log } = deps;
  const at = clock.now();
  const intent: Intent = {
    kind: 'place-order',
    intentId: o.refId,
    strategy: UNKNOWN_STRATEGY,
    market: o.market,
    side: o.side,
    type: o.type as Extract<Intent, { kind: 'place-order' }>['type'],
    ...(o.baseAmount && { baseAmount: o.baseAmount.toFixed() }),
    ...(o.quoteAmount && { quoteAmount: o.quoteAmount.toFixed() }),
    ...(o.price && { price: o.price.toFixed() }),
  };
  journal.recordDecision({ kind: 'approve', intent, at }, { at, request: { orphan: true, orderId: o.orderId } });
  const state = TERMINAL_ORDER_STATUSES.has(o.status) ? 'done' : 'open';
  deps.confirm?.(o.orderId, o.refId);
  journal.update(
    o.refId,
    at,
    state,
    {
      venueId: o.orderId,
      status: o.status,
      amountFilled: o.amountFilled.toFixed(),
      ...(o.averagePrice && { averagePrice: o.averagePrice.toFixed() }),
    },
    { type: 'orphan', data: { status: o.status, amount_filled: o.amountFilled.toFixed() } },
  );
  log?.warn(
    { refId: o.refId, orderId: o.orderId },
    `venue order ${o.orderId} (${o.refId}, ${o.side} ${o.market}, ${o.status}) carries our prefix but was not in the journal: journaled`,
  );
  return journal.get(o.refId) as JournalIntentRow;
}

/**
 * Journals a venue quote execution the journal lacked, with both its amounts and its price: settled
 * it is done (a fill at the quote's price, as the journal counts quote executions), created it is
 * open and followed to settlement like the run's own.
 */
function journalExecution(deps: HistoryScanDeps, x: VenueQuoteExecution): JournalIntentRow {
  const { journal, clock, log } = deps;
  const at = clock.now();
  const refId = x.refId as string;
  const intent: Intent = {
    kind: 'execute-quote',
    intentId: refId,
    strategy: UNKNOWN_STRATEGY,
    market: x.market,
    side: x.side,
    baseAmount: x.baseAmount.toFixed(),
    quoteAmount: x.quoteAmount.toFixed(),
  };
  journal.recordDecision({ kind: 'approve', intent, at }, { at, request: { orphan: true, executionId: x.executionId } });
  const state = x.status === 'SETTLED' ? 'done' : 'open';
  journal.update(
    refId,
    at,
    state,
    { venueId: x.executionId, status: x.status, amountFilled: x.baseAmount.toFixed(), averagePrice: x.price.toFixed() },
    { type: 'orphan', data: { status: x.status } },
  );
  log?.warn(
    { refId, executionId: x.executionId },
    `venue quote execution ${x.executionId} (${refId}, ${x.side} ${x.baseAmount.toFixed()} ${x.market} @ ${x.price.toFixed()}, ${x.status}) carries our prefix but was not in the journal: journaled`,
  );
  return journal.get(refId) as JournalIntentRow;
}

/** Reads the fills of the orders just journaled (from the oldest one's creation) and hands them to `ingest`. */
async function recoverFills(deps: HistoryScanDeps, orders: readonly JournalIntentRow[], sinceMs: number): Promise<void> {
  const filled = orders.filter((r) => r.amountFilled !== '0' && r.amountFilled !== '');
  if (filled.length === 0 || !deps.ingest) return;
  const ids = new Set(filled.map((r) => r.venueId as string));
  const fills = await persist(deps, () => deps.venue.listFills(sinceMs), `list the fills of ${filled.length} order(s) journaled at start`);
  if (fills) deps.ingest(fills.filter((f) => ids.has(f.orderId)));
}

async function persist<T>(deps: HistoryScanDeps, read: () => Promise<T>, what: string): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (attempt < READ_TRIES) continue;
      deps.log?.warn(
        `cannot ${what} to look for records of ours the journal lacks (tried ${READ_TRIES} times; the next start looks again): ${errorMessage(e)}`,
      );
      return undefined;
    }
  }
}
