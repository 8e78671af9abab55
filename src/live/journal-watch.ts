import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock, TimerHandle } from '../clock/index.js';
import { TradeloopError } from '../core/index.js';
import type { JournalStore, JournalWriteFailure } from '../exec/index.js';

/** Why a run's journal can no longer be trusted: a write failed, or its file left its path. */
export type JournalFailureKind = 'write-failed' | 'deleted' | 'replaced';

export interface JournalFailure {
  readonly kind: JournalFailureKind;
  /** What happened, in words, naming the file. */
  readonly reason: string;
  readonly at: number;
}

/** The run's journal failed before trading started: nothing was fed to the strategies. */
export class JournalFailedError extends TradeloopError {
  constructor(readonly failure: JournalFailure) {
    super('JOURNAL_FAILED', `trading not started: ${failure.reason}`);
  }
}

/** A file's identity on disk, as `stat` gives it (device and inode), or undefined when nothing is at the path. */
export type FileIdentityOf = (path: string) => { readonly dev: string; readonly ino: string } | undefined;

export interface JournalWatchDeps {
  readonly clock: Pick<Clock, 'now' | 'setTimeout'>;
  readonly journal: Pick<JournalStore, 'onWriteFailure'>;
  /** The journal's file (absolute path); undefined for a journal in memory, whose file is not watched. */
  readonly path?: string;
  /** How often the file at `path` is compared with the one the run opened. */
  readonly intervalMs: number;
  /** Called once, with the first failure found. */
  readonly onFailure: (failure: JournalFailure) => void;
  /** Injectable for tests (default: `stat`). */
  readonly identityOf?: FileIdentityOf;
}

/** Default for how often the journal's file is looked at: well inside a follow cycle's few seconds. */
export const JOURNAL_WATCH_MS = 1_000;

/**
 * Watches the journal a run writes to, for what would make it write into the void: a write the file
 * refuses (a full disk, an I/O error, a read-only file), heard from the journal as it fails; and the
 * file deleted or replaced under the run (`rm -rf .tradeloop`, a restore over it), found by comparing
 * the device and inode at its path with the file the run opened, every `intervalMs`. An unlinked
 * SQLite file still takes writes, so without this a run would go on trading into a journal no one
 * will ever read again, and the next start would not know its orders.
 */
export class JournalWatch {
  private timer: TimerHandle | undefined;
  private opened: { readonly dev: string; readonly ino: string } | undefined;
  private found: JournalFailure | undefined;
  private stopped = false;

  constructor(private readonly deps: JournalWatchDeps) {}

  /** The first failure found, if any. */
  get failure(): JournalFailure | undefined {
    return this.found;
  }

  /**
   * Listens for failed writes and takes the identity of the file at the journal's path now as the
   * one the run opened; sets no timer (see `start`).
   */
  listen(): void {
    const { journal, path } = this.deps;
    journal.onWriteFailure?.((f) => this.fail('write-failed', writeFailureReason(f, path)));
    if (path === undefined) return;
    this.opened = this.identityOf(path);
    if (this.opened === undefined) this.fail('deleted', deletedReason(path));
  }

  /** Starts looking at the file every `intervalMs` (once the run trades; `stop` ends it). */
  start(): void {
    this.check();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  /** Compares the file at the journal's path with the one the run opened (also run on each interval). */
  check(): void {
    const path = this.deps.path;
    if (path === undefined || this.opened === undefined || this.found) return;
    const now = this.identityOf(path);
    if (now === undefined) this.fail('deleted', deletedReason(path));
    else if (now.dev !== this.opened.dev || now.ino !== this.opened.ino) {
      this.fail(
        'replaced',
        `the journal ${path} was replaced during the run (another file is at its path now: restored, copied or made anew over it), so this run's records would go to a file no one reads`,
      );
    }
  }

  private schedule(): void {
    if (this.stopped || this.found || this.opened === undefined) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.check();
      this.schedule();
    }, this.deps.intervalMs);
  }

  private fail(kind: JournalFailureKind, reason: string): void {
    if (this.found) return;
    this.found = { kind, reason, at: this.deps.clock.now() };
    this.timer?.cancel();
    this.deps.onFailure(this.found);
  }

  private identityOf(path: string): { dev: string; ino: string } | undefined {
    return (this.deps.identityOf ?? statIdentity)(path);
  }
}

function statIdentity(path: string): { dev: string; ino: string } | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return { dev: String(st.dev), ino: String(st.ino) };
  } catch {
    return undefined;
  }
}

function writeFailureReason(f: JournalWriteFailure, path: string | undefined): string {
  return `a write to the journal${path === undefined ? '' : ` ${path}`} failed (${f.code}: ${f.message}, in ${f.operation}): no intent can be journaled before its request`;
}

function deletedReason(path: string): string {
  const folder = statIdentity(dirname(path)) === undefined ? ` (its folder ${dirname(path)} too)` : '';
  return `the journal ${path} was deleted during the run${folder}, so this run's records would go to a file no one reads and the next start would not know its orders`;
}
