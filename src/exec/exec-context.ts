import type { Clock } from '../clock/index.js';
import type { ExecReport } from '../core/index.js';
import type { Logger } from '../log/index.js';
import type { Venue } from '../venue/venue.js';
import type { CrashHook } from './crash-point.js';
import type { JournalStore } from './journal-store.js';

/** What every executor needs: the venue, the journal, the clock, a logger and a report sink. */
export interface ExecContext {
  readonly venue: Venue;
  readonly journal: JournalStore;
  readonly clock: Pick<Clock, 'now'>;
  readonly log?: Logger;
  /** Receives every execution report (the engine queues them for stores and strategies). */
  readonly emit: (report: ExecReport) => void;
  /**
   * How long after it was sent a write may still reach the venue (default LATE_WRITE_MS). Until
   * then a lookup by ref_id that finds nothing leaves the intent unresolved, funds still reserved,
   * instead of concluding the write never arrived: a request the venue received but had not yet
   * processed when the answer was lost (or when the runner was killed and restarted) can land later.
   */
  readonly lateWriteMs?: number;
  /**
   * TEST-ONLY: called at each step of the order lifecycle (see `CrashStep`) so the reliability
   * suite can kill a runner there. Given by the composition root (the run command builds it from
   * TRADELOOP_TEST_CRASH_AT once); absent everywhere else, which costs one property read per step.
   */
  readonly crash?: CrashHook;
}

/**
 * Default for ExecContext.lateWriteMs: longer than a runner's restart and than the time a venue
 * takes to process a write it has received, short enough that a restart after a crash does not
 * hold trading for long. A write that lands even later is adopted by the open-orders follow-up
 * (`OrderExecutor.adoptLate`) rather than left as an order nobody tracks.
 */
export const LATE_WRITE_MS = 3_000;

/**
 * When a lookup by ref_id found nothing: the time until which the write may still land (the intent
 * stays unresolved), or undefined when that time has passed and the write never arrived.
 */
export function stillLanding(ctx: ExecContext, refId: string): number | undefined {
  let sentAt: number | undefined;
  for (const e of ctx.journal.events(refId)) if (e.type === 'request') sentAt = e.at;
  if (sentAt === undefined) return undefined;
  const until = sentAt + (ctx.lateWriteMs ?? LATE_WRITE_MS);
  return ctx.clock.now() < until ? until : undefined;
}

/**
 * Records that a lookup by ref_id found nothing yet while the write may still land: the intent is
 * unresolved until `until` (reported once, on the change to unresolved).
 */
export function awaitLanding(ctx: ExecContext, refId: string, until: number, what: string): void {
  const { journal, clock } = ctx;
  const message = `the venue has no ${what} with this ref_id yet; the write may still land until ${new Date(until).toISOString()}`;
  const was = journal.get(refId)?.state;
  journal.update(refId, clock.now(), 'unresolved', { message }, { type: 'lookup', data: { found: false, until } });
  if (was !== 'unresolved') ctx.emit({ kind: 'unresolved', refId, message, at: clock.now() });
}

/**
 * Records that a lookup by ref_id failed (the venue could not say): the intent is unresolved and is
 * looked up again on every follow cycle. Each failure is journaled; the report goes out on the change
 * to unresolved only, so an outage does not report (and log) the same intent every cycle.
 */
export function lookupFailed(ctx: ExecContext, refId: string, e: unknown, withCode = false): void {
  const { journal, clock } = ctx;
  const was = journal.get(refId)?.state;
  journal.update(
    refId,
    clock.now(),
    'unresolved',
    { message: errorMessage(e) },
    { type: 'lookup-failed', data: { ...(withCode && { code: errorCode(e) }), message: errorMessage(e) } },
  );
  if (was !== 'unresolved') ctx.emit({ kind: 'unresolved', refId, message: errorMessage(e), at: clock.now() });
}

/**
 * Logs a failed follow-up read (order status, quote execution, fills) as a warning, except when the
 * client did not send it because the venue is unreachable: that state is logged once when it begins
 * and once when it ends, so each read it refuses is only a debug line (a read every follow cycle for
 * every open order made 160 warnings in 40 s of outage).
 */
export function pollFailed(ctx: ExecContext, e: unknown, fields: Record<string, unknown>, message: string): void {
  if (errorCode(e) === 'VENUE_UNREACHABLE') ctx.log?.debug(fields, message);
  else ctx.log?.warn(fields, message);
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string'
    ? (e as { code: string }).code
    : 'ERROR';
}
