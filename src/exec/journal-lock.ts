import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { InputError } from '../core/index.js';
import { openSqlite } from './sqlite.js';

/** The writer lock of a journal: held while a bot writes to it, released by `release` or by the process dying. */
export interface JournalLock {
  readonly file: string;
  release(): void;
}

/**
 * The companion file that carries a journal's writer lock: `<journal>.lock` beside the journal's real
 * file, every symbolic link and `..` in its path resolved, so each name that reaches the file through
 * links meets one lock.
 */
export function lockFileOf(journalPath: string): string {
  return `${realJournalPath(journalPath)}.lock`;
}

/**
 * Takes the one-writer lock of the journal at `journalPath`, so that two bots never write to one
 * journal (their ref_ids would be the same, their orders each other's). The lock is SQLite's own
 * exclusive file lock (fcntl) on a companion file, `<journal>.lock` beside the journal's real file,
 * held by a connection in exclusive locking mode: the operating system drops it when the process
 * ends, however it ends (SIGKILL included), so a lock file left behind is never stale and never has
 * to be deleted by hand. The journal file itself is not locked: `tradeloop orders` and `trades`
 * read it while a bot runs. A journal at `:memory:` has no other writer and needs no lock.
 *
 * Aliases meet the same lock: a symbolic link is resolved to the real file before the lock's name is
 * made, and a journal file with a second name (a hard link, whose own `.lock` would be another file)
 * is refused, since SQLite would also keep a second write-ahead log beside that name.
 */
export function lockJournal(journalPath: string): JournalLock {
  if (journalPath === ':memory:') return { file: `${journalPath}.lock`, release: () => undefined };
  const file = lockFileOf(journalPath);
  let db: Database.Database | undefined;
  try {
    db = new (openSqlite())(file, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    // the lock is the file lock, not the row: the row (whose pid) need not survive a crash, so the
    // lock file is written without a rollback journal or a sync to disk (two fsyncs fewer at start)
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
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
  const release = (): void => void (held.open && held.close());
  const links = linksOf(file.slice(0, -'.lock'.length));
  if (links > 1) {
    release();
    throw new InputError(
      'journal.path',
      `${journalPath} is one of ${links} names of one journal file (hard links): its writer lock ${file} is taken by name, so a bot on another name would write the same journal beside this one; remove the other name (find it with: find / -xdev -samefile ${journalPath}), or copy the journal to a file of its own and start once with --journal-moved`,
    );
  }
  return { file, release };
}

/** The journal's real path: symbolic links and `..` resolved; a file not made yet resolves through its folder (or its link). */
function realJournalPath(journalPath: string, hops = 0): string {
  const path = resolve(journalPath);
  try {
    return realpathSync(path);
  } catch {
    // not made yet: a dangling link names the file SQLite will create; else the folder's real path
    const target = hops < 40 ? danglingTarget(path) : undefined;
    if (target !== undefined) return realJournalPath(target, hops + 1);
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

function danglingTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    const to = readlinkSync(path);
    return isAbsolute(to) ? to : resolve(dirname(path), to);
  } catch {
    return undefined;
  }
}

/** How many names the file has on disk (1 for a file not made yet). */
function linksOf(path: string): number {
  try {
    return statSync(path).nlink;
  } catch {
    return 1;
  }
}

function lockRefusal(journalPath: string, file: string, e: unknown): InputError {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new InputError(
      'journal.path',
      `${journalPath} is in use by another running bot (its writer lock ${file} is held): a journal has one writer, so stop that bot first, or give this one its own journal.path (tradeloop orders and trades can read the journal meanwhile)`,
    );
  }
  const why = e instanceof Error ? e.message : String(e);
  return new InputError(
    'journal.path',
    `cannot take the writer lock ${file} of ${journalPath} (${why}): make its folder writable, or point journal.path elsewhere`,
  );
}
