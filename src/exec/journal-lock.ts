import Database from 'better-sqlite3';
import { InputError } from '../core/index.js';

/** The writer lock of a journal: held while a bot writes to it, released by `release` or by the process dying. */
export interface JournalLock {
  readonly file: string;
  release(): void;
}

/** The companion file that carries a journal's writer lock. */
export function lockFileOf(journalPath: string): string {
  return `${journalPath}.lock`;
}

/**
 * Takes the one-writer lock of the journal at `journalPath`, so that two bots never write to one
 * journal (their ref_ids would be the same, their orders each other's). The lock is SQLite's own
 * exclusive file lock (fcntl) on a companion file, `<journal>.lock`, held by a connection in
 * exclusive locking mode: the operating system drops it when the process ends, however it ends
 * (SIGKILL included), so a lock file left behind is never stale and never has to be deleted by
 * hand. The journal file itself is not locked: `tradeloop orders` and `trades` read it while a
 * bot runs. A journal at `:memory:` has no other writer and needs no lock.
 */
export function lockJournal(journalPath: string): JournalLock {
  const file = lockFileOf(journalPath);
  if (journalPath === ':memory:') return { file, release: () => undefined };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS writer (pid INTEGER NOT NULL)');
    // the first write takes the exclusive lock; in exclusive locking mode it is kept until close
    db.transaction(() => {
      db?.exec('DELETE FROM writer');
      db?.prepare('INSERT INTO writer (pid) VALUES (?)').run(process.pid);
    }).exclusive();
  } catch (e) {
    db?.close();
    throw lockRefusal(journalPath, file, e);
  }
  const held = db;
  return { file, release: () => held.open && held.close() };
}

function lockRefusal(journalPath: string, file: string, e: unknown): InputError {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new InputError('journal.path', `${journalPath} is in use by another running bot (its writer lock ${file} is held): a journal has one writer, so stop that bot first, or give this one its own journal.path (tradeloop orders and trades can read the journal meanwhile)`);
  }
  const why = e instanceof Error ? e.message : String(e);
  return new InputError('journal.path', `cannot take the writer lock ${file} of ${journalPath} (${why}): make its folder writable, or point journal.path elsewhere`);
}
