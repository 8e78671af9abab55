/**
 * The end-to-end tests poll a journal that a `tradeloop run` child is writing. The file appears when
 * the child opens it, a moment before its tables; `journalReady` keeps a poll in that moment from
 * reading "no such table" (it once failed a kill test that way).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/exec/index.js';
import { journalReady, readJournal } from './reliability-procs.js';

describe('journalReady', () => {
  it('is false with no file, false while only part of the schema is there, true once the journal is made', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-ready-'));
    const file = join(dir, 'journal.sqlite');
    expect(journalReady(file)).toBe(false);
    const early = new Database(file);
    early.pragma('journal_mode = WAL');
    expect(journalReady(file)).toBe(false); // the file, no tables
    early.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    expect(journalReady(file)).toBe(false); // the first table only
    expect(() => readJournal(file)).toThrow(/no such table/);
    early.close();
    const journal = new Journal(file);
    try {
      expect(journalReady(file)).toBe(true);
      expect(readJournal(file).fills).toEqual([]);
    } finally {
      journal.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
