import { sleepOn, type Clock } from '../clock/index.js';
import { errorMessage, type JournalIntentRow, type OrderExecutor } from '../exec/index.js';
import type { Logger } from '../log/index.js';
// by file, not the venue index: the kernel (and so every backtest and optimizer thread) must not load the REST venue and its HTTP client
import { TERMINAL_ORDER_STATUSES, type Venue } from '../venue/venue.js';

/** Default of `run.exit_timeout_ms`: how long cancelling everything may take before it names what is left. */
export const DEFAULT_CANCEL_TIMEOUT_MS = 30_000;

/** Cancels running at once: enough to cancel a grid in one round trip, few enough to leave the request budget to others. */
export const CANCEL_CONCURRENCY = 16;

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 2_000;
/** Re-reads of an acknowledged cancel that still shows the order open before the cancel is sent again. */
const READS_PER_CANCEL = 3;

export interface CancelAllDeps {
  readonly venue: Venue;
  readonly orders: Pick<OrderExecutor, 'applyOrder'>;
  readonly clock: Pick<Clock, 'now' | 'setTimeout'>;
  readonly log?: Logger;
}

/** What became of the orders asked to close (ref_ids). */
export interface CancelAllResult {
  readonly closed: readonly string[];
  /** Still open (or unreadable) when the time ran out. */
  readonly open: readonly string[];
}

/**
 * Cancels `rows` at the venue and confirms each by reading it back until the venue says it is closed,
 * in parallel (at most `CANCEL_CONCURRENCY` at once; the client's request budget paces them further),
 * and at most until `timeoutMs` has passed. A cancel is a DELETE without a ref_id, so the client never
 * resends one whose outcome is unknown: here a failed cancel is sent again only once a read shows the
 * order still open, which proves it did not run. The journal takes every status the venue reports.
 */
export async function cancelOrders(deps: CancelAllDeps, rows: readonly JournalIntentRow[], timeoutMs: number): Promise<CancelAllResult> {
  const deadline = deps.clock.now() + timeoutMs;
  const closed: string[] = [];
  const open: string[] = [];
  const queue = [...rows];
  const worker = async (): Promise<void> => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      ((await beforeDeadline(deps.clock, cancelOne(deps, row, deadline), deadline)) ? closed : open).push(row.refId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CANCEL_CONCURRENCY, queue.length) }, worker));
  return { closed, open };
}

/**
 * `work`'s result, or false once `deadline` has passed first (a request still hanging then does not
 * hold the exit; whatever it brings later is still journaled).
 */
export function beforeDeadline(clock: CancelAllDeps['clock'], work: Promise<boolean>, deadline: number): Promise<boolean> {
  let timer: { cancel(): void } | undefined;
  const late = new Promise<boolean>((resolve) => (timer = clock.setTimeout(() => resolve(false), Math.max(0, deadline - clock.now()))));
  return Promise.race([work, late]).finally(() => timer?.cancel());
}

/** One order: cancel, read back, and again while it shows open, until closed or the deadline. */
async function cancelOne(deps: CancelAllDeps, row: JournalIntentRow, deadline: number): Promise<boolean> {
  const id = row.venueId;
  if (id === null) return false;
  let sendCancel = true;
  let reads = 0;
  for (let delay = FIRST_RETRY_MS; ; delay = Math.min(MAX_RETRY_MS, delay * 2)) {
    if (sendCancel) {
      try {
        await deps.venue.cancelOrder(id);
        sendCancel = false;
        reads = 0;
      } catch (e) {
        // unknown whether it ran: the read below decides (still open proves it did not)
        deps.log?.warn({ refId: row.refId, orderId: id }, `cancel of ${row.refId} failed (${errorMessage(e)}): reading it back`);
      }
    }
    const status = await readBack(deps, row.refId, id);
    if (status !== undefined && TERMINAL_ORDER_STATUSES.has(status)) return true;
    if (status !== undefined && ++reads >= READS_PER_CANCEL) sendCancel = true;
    const left = deadline - deps.clock.now();
    if (left <= 0) return false;
    // at the deadline one more round runs (cancel if due, read), then the order is named as left open
    await sleepOn(deps.clock, Math.min(delay, left));
  }
}

/** Reads the order and journals what the venue says; undefined when the read failed. */
async function readBack(deps: CancelAllDeps, refId: string, orderId: string): Promise<string | undefined> {
  let order;
  try {
    order = await deps.venue.getOrder(orderId);
  } catch (e) {
    deps.log?.warn({ refId, orderId }, `cannot read ${refId} back after its cancel (${errorMessage(e)}): reading again`);
    return undefined;
  }
  try {
    deps.orders.applyOrder(refId, order, 'cancel-confirm');
  } catch (e) {
    // the venue's word decides whether the order is closed; a journal that cannot take it (a failed
    // disk) has halted the run, and the next start reads the order back by its ref_id
    deps.log?.warn({ refId, orderId }, `the journal could not record ${refId} as ${order.status} (${errorMessage(e)})`);
  }
  return order.status;
}
