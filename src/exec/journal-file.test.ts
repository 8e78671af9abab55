import { describe, expect, it } from 'vitest';
import { checkJournalFile } from './journal-file.js';
import { MemoryJournal } from './memory-journal.js';

const original = { path: '/bots/a/journal.sqlite', dev: '2049', ino: '1001' };

describe('checkJournalFile', () => {
  it('binds a journal to its file at the first start, then knows it again, renamed or not', () => {
    const j = new MemoryJournal();
    expect(checkJournalFile(j, original)).toBe('bound');
    expect(checkJournalFile(j, original)).toBe('same');
    expect(checkJournalFile(j, { ...original, path: '/bots/b/journal.sqlite' })).toBe('same'); // a move within one disk keeps the file
  });

  it('refuses a copy (another file), naming the original and the fix, and binds it once told it was moved', () => {
    const j = new MemoryJournal();
    checkJournalFile(j, original);
    const copy = { path: '/bots/copy/journal.sqlite', dev: '2049', ino: '2002' };
    expect(() => checkJournalFile(j, copy)).toThrow(
      /journal\.path: \/bots\/copy\/journal\.sqlite is a copy of the journal made in \/bots\/a\/journal\.sqlite.*tradeloop run --journal-moved/,
    );
    expect(checkJournalFile(j, copy, true)).toBe('rebound');
    expect(checkJournalFile(j, copy)).toBe('same');
    expect(() => checkJournalFile(j, original)).toThrow(/is a copy of the journal made in \/bots\/copy/);
  });
});
