import { linkSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../core/index.js';
import { Journal } from './journal.js';
import { isJournalFileFailure, journalFullAfterFrom, type JournalWriteFailure } from './journal-faults.js';
import { lockFileOf, lockJournal } from './journal-lock.js';

function file(): string {
  return join(mkdtempSync(join(tmpdir(), 'tradeloop-jfaults-')), 'journal.sqlite');
}

const denial = (id: string): Decision =>
  ({
    kind: 'deny',
    at: 1,
    intent: { kind: 'cancel-order', intentId: id, strategy: 's', orderRefId: 'x' },
    reason: { code: 'HALTED', message: 'halted', details: {} },
  }) as Decision;

describe('journal write failures', () => {
  it('a journal whose file may no longer grow fails with SQLITE_FULL, and its listeners hear the first failure once', () => {
    const j = new Journal(file(), { fullAfterWrites: 3 });
    const heard: JournalWriteFailure[] = [];
    j.onWriteFailure((f) => heard.push(f));
    let thrown: unknown;
    try {
      for (let n = 0; n < 10_000; n++) j.setMeta(`k${n}`, 'x'.repeat(200));
    } catch (e) {
      thrown = e;
    }
    expect((thrown as { code?: string }).code).toBe('SQLITE_FULL');
    expect(heard).toEqual([{ code: 'SQLITE_FULL', message: 'database or disk is full', operation: 'setMeta' }]);
    expect(j.writeFailure).toEqual(heard[0]);
    const late: JournalWriteFailure[] = [];
    j.onWriteFailure((f) => late.push(f));
    expect(late).toEqual(heard);
    j.close();
  });

  it('a record refused by a constraint (an id written twice) is no failure of the file', () => {
    const j = new Journal(file());
    const heard: JournalWriteFailure[] = [];
    j.onWriteFailure((f) => heard.push(f));
    j.recordDecision(denial('a-1'));
    expect(() => j.recordDecision(denial('a-1'))).toThrow(/UNIQUE/);
    expect(heard).toEqual([]);
    expect(j.quickCheck()).toBe('ok');
    j.close();
  });

  it("only SQLite's own errors about the file count as failures of the journal", () => {
    expect(isJournalFileFailure(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(true);
    expect(isJournalFileFailure(Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }))).toBe(true);
    expect(isJournalFileFailure(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }))).toBe(
      false,
    );
    expect(isJournalFileFailure(new TypeError('x is undefined'))).toBe(false);
  });

  it('the test fault takes a whole number of writes, and refuses anything else', () => {
    expect(journalFullAfterFrom(undefined)).toBeUndefined();
    expect(journalFullAfterFrom('')).toBeUndefined();
    expect(journalFullAfterFrom('40')).toBe(40);
    expect(() => journalFullAfterFrom('soon')).toThrow(/TRADELOOP_TEST_JOURNAL_FULL_AFTER: "soon" is not a whole number/);
  });
});

describe('the writer lock of a journal reached by another name', () => {
  it('a symbolic link meets the lock of the real file', () => {
    const real = file();
    const alias = join(mkdtempSync(join(tmpdir(), 'tradeloop-jalias-')), 'journal.sqlite');
    symlinkSync(real, alias);
    expect(lockFileOf(alias)).toBe(`${real}.lock`);
    const held = lockJournal(real);
    expect(() => lockJournal(alias)).toThrow(
      new RegExp(`is in use by another running bot \\(its writer lock ${real.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\.lock is held\\)`),
    );
    held.release();
    lockJournal(alias).release();
  });

  it('a journal file with a second name (a hard link) is refused under either name', () => {
    const real = file();
    new Journal(real).close();
    const other = join(mkdtempSync(join(tmpdir(), 'tradeloop-jalias-')), 'journal.sqlite');
    linkSync(real, other);
    expect(() => lockJournal(real)).toThrow(/is one of 2 names of one journal file \(hard links\)/);
    expect(() => lockJournal(other)).toThrow(/is one of 2 names of one journal file \(hard links\)/);
  });
});
