import { InputError } from '../core/index.js';

/**
 * A journal write that failed: the disk is full (SQLITE_FULL), the device failed (SQLITE_IOERR), the
 * file became read-only or unreadable. The run that meets one can no longer write an intent before
 * its request, so it halts (see `JournalWatch`).
 */
export interface JournalWriteFailure {
  /** SQLite's code (SQLITE_FULL, SQLITE_IOERR_WRITE …), or ERROR when it gave none. */
  readonly code: string;
  readonly message: string;
  /** The journal method that failed (recordDecision, update, checkpoint …). */
  readonly operation: string;
}

/** Hears a journal's first failed write (the journal still throws to the writer, as before). */
export type JournalWriteFailureListener = (failure: JournalWriteFailure) => void;

/**
 * Whether an error thrown by a journal write is SQLite saying the file cannot be written (a full
 * disk, an I/O error, a read-only or damaged file) rather than refusing one record: a constraint (a
 * ref_id recorded twice) is the caller's mistake on a sound journal, and an error that is not
 * SQLite's (a bug in the caller) is neither; they do not stop a run as a failed journal.
 */
export function isJournalFileFailure(e: unknown): boolean {
  const code = codeOf(e);
  return code.startsWith('SQLITE_') && !code.startsWith('SQLITE_CONSTRAINT') && !code.startsWith('SQLITE_MISUSE');
}

export function journalWriteFailure(e: unknown, operation: string): JournalWriteFailure {
  return { code: codeOf(e) || 'ERROR', message: e instanceof Error ? e.message : String(e), operation };
}

function codeOf(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string'
    ? (e as { code: string }).code
    : '';
}

/** The environment variable the run command reads once to cap its journal's growth (TEST-ONLY). */
export const JOURNAL_FULL_AFTER_VARIABLE = 'TRADELOOP_TEST_JOURNAL_FULL_AFTER';

/**
 * TEST-ONLY: `TRADELOOP_TEST_JOURNAL_FULL_AFTER=<n>` lets the journal take n writes, then stops its
 * file from growing (SQLite's max_page_count set to the pages it has), so the next write that needs a
 * page fails with SQLITE_FULL exactly as on a full disk, through SQLite's own error path. Unset or
 * empty gives undefined; anything but a whole number is refused rather than ignored (a fault test
 * that never faults would pass for the wrong reason).
 */
export function journalFullAfterFrom(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InputError(
      JOURNAL_FULL_AFTER_VARIABLE,
      `${JSON.stringify(value)} is not a whole number of journal writes: give one, e.g. 40, or unset it`,
    );
  return n;
}
