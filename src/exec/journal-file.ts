import { InputError } from '../core/index.js';
import type { JournalStore } from './journal-store.js';

/** Where a journal file lives on disk: its path and the file's identity (device and inode). */
export interface JournalFileIdentity {
  readonly path: string;
  readonly dev: string;
  readonly ino: string;
}

const META_KEY = 'file';

/**
 * Refuses a copy of a journal. Two copies of one journal issue the same ref_ids: one could place an
 * order and the other a quote execution or transfer under the same id before either has moved on
 * (which the start's check at the venue only sees afterwards). A journal records the file it was made
 * in; a rename or a move within one disk keeps the file (its inode), a copy does not. When the original
 * is really gone (a move to another disk, a restore from backup), `moved` rebinds it to this file.
 * Returns what happened, for the log.
 */
export function checkJournalFile(
  journal: Pick<JournalStore, 'getMeta' | 'setMeta'>,
  file: JournalFileIdentity,
  moved = false,
): 'bound' | 'same' | 'rebound' {
  const raw = journal.getMeta(META_KEY);
  const bound = raw === undefined ? undefined : parse(raw);
  if (bound !== undefined && bound.dev === file.dev && bound.ino === file.ino) {
    if (bound.path !== file.path) journal.setMeta(META_KEY, JSON.stringify(file)); // renamed or moved on one disk: the same file
    return 'same';
  }
  if (bound !== undefined && !moved) {
    throw new InputError(
      'journal.path',
      `${file.path} is a copy of the journal made in ${bound.path} (another file on disk): two copies of one journal issue the same ref_ids, so trade from the original only; if the original is gone (moved to another disk, restored from a backup), start once with tradeloop run --journal-moved`,
    );
  }
  journal.setMeta(META_KEY, JSON.stringify(file));
  return bound === undefined ? 'bound' : 'rebound';
}

function parse(raw: string): JournalFileIdentity | undefined {
  try {
    const v = JSON.parse(raw) as Partial<JournalFileIdentity>;
    return typeof v.path === 'string' && typeof v.dev === 'string' && typeof v.ino === 'string'
      ? { path: v.path, dev: v.dev, ino: v.ino }
      : undefined;
  } catch {
    return undefined;
  }
}
