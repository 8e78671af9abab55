import type { Clock } from '../clock/index.js';
import type { ExecReport } from '../core/index.js';
import type { Logger } from '../log/index.js';
import type { Venue } from '../venue/venue.js';
import type { JournalStore } from './journal-store.js';

/** What every executor needs: the venue, the journal, the clock, a logger and a report sink. */
export interface ExecContext {
  readonly venue: Venue;
  readonly journal: JournalStore;
  readonly clock: Pick<Clock, 'now'>;
  readonly log?: Logger;
  /** Receives every execution report (the engine queues them for stores and strategies). */
  readonly emit: (report: ExecReport) => void;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string' ? (e as { code: string }).code : 'ERROR';
}
