/**
 * The journal's venue-id index holds only intents the venue has named (a partial index, one page
 * fewer in every decision's commit); lookups by venue id still use it, and a journal made with the
 * earlier full index opens and reads the same.
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision, Intent } from '../core/index.js';
import { Journal } from './journal.js';
import { JOURNAL_DDL } from './journal-schema.js';

const intent = (id: string): Intent => ({
  kind: 'place-order',
  intentId: id,
  strategy: 's',
  market: 'BTCUSD',
  side: 'BUY',
  type: 'LIMIT',
  baseAmount: '0.001',
  price: '60000',
});
const approve = (id: string): Decision => ({ kind: 'approve', intent: intent(id), at: 1 }) as Decision;

function exercise(journal: Journal): void {
  journal.recordDecision(approve('a'), { at: 2, request: { refId: 'a' } });
  journal.recordDecision(approve('b'), { at: 3, request: { refId: 'b' } });
  journal.update('a', 4, 'open', { venueId: 'o-1', status: 'OPEN' }, { type: 'response' });
  expect(journal.byVenueId('o-1')?.refId).toBe('a');
  expect(journal.byVenueId('o-2')).toBeUndefined();
  expect(journal.active().map((r) => r.refId)).toEqual(['a', 'b']);
}

describe('journal venue-id index', () => {
  it('is partial in a new journal, and lookups by venue id use it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-journal-')), 'j.sqlite');
    const journal = new Journal(file);
    exercise(journal);
    journal.close();
    const db = new Database(file, { readonly: true });
    const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'intents_venue'").get() as { sql: string }).sql;
    expect(sql).toMatch(/WHERE venue_id IS NOT NULL/);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT * FROM intents WHERE venue_id = ?').all('o-1') as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX intents_venue/);
    // an intent not yet named by the venue has no entry in it
    const entries = db.prepare('SELECT count(*) AS n FROM intents INDEXED BY intents_venue WHERE venue_id IS NOT NULL').get() as {
      n: number;
    };
    expect(entries.n).toBe(1);
    db.close();
  });

  it('a journal made with the earlier full index opens, keeps it and reads the same', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-journal-')), 'j.sqlite');
    const old = new Database(file);
    old.exec(JOURNAL_DDL.replace('ON intents(venue_id) WHERE venue_id IS NOT NULL', 'ON intents(venue_id)'));
    old.close();
    const journal = new Journal(file);
    exercise(journal);
    journal.close();
    const db = new Database(file, { readonly: true });
    expect((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'intents_venue'").get() as { sql: string }).sql).not.toMatch(/WHERE/);
    db.close();
  });
});
