import { describe, expect, it } from 'vitest';
import type { Intent } from '../core/index.js';
import { Journal } from './journal.js';
import type { JournalStore } from './journal-store.js';
import { MemoryJournal } from './memory-journal.js';

const order = (id: string, _at: number): Intent => ({ kind: 'place-order', intentId: id, strategy: 's', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });

/** The same script on a journal; returns everything it can read back. */
function script(j: JournalStore): unknown {
  j.recordDecision({ kind: 'approve', intent: order('a-1', 1), at: 1 }, { at: 1, request: { ref_id: 'a-1' } });
  j.recordDecision({ kind: 'approve', intent: order('a-2', 2), at: 2 });
  j.markSent('a-2', 3, { ref_id: 'a-2' });
  j.recordDecision({ kind: 'deny', intent: order('a-3', 4), at: 4, reason: { code: 'RATE', message: 'slow down', details: { count: 3 } } });
  j.update('a-1', 5, 'open', { venueId: 'v-1', status: 'OPEN' }, { type: 'response', data: { status: 'OPEN' } });
  j.update('a-1', 6, 'done', { status: 'FILLED', amountFilled: '1', averagePrice: '100' }, { type: 'status' });
  const first = j.recordFill({ fillId: 'f-1', refId: 'a-1', orderId: 'v-1', market: 'BTCUSD', side: 'BUY', amount: '1', price: '100', commission: '0.1', commissionAsset: 'USD', at: 6 });
  const again = j.recordFill({ fillId: 'f-1', refId: 'a-1', orderId: 'v-1', market: 'BTCUSD', side: 'BUY', amount: '1', price: '100', commission: '0.1', commissionAsset: 'USD', at: 6 });
  j.update('a-2', 7, 'unresolved', { message: 'lookup failed' }, { type: 'lookup-failed' });
  return {
    first,
    again,
    a1: j.get('a-1'),
    byVenue: j.byVenueId('v-1')?.refId,
    facts: j.facts('a-2'),
    active: j.active().map((r) => [r.refId, r.state]),
    denied: j.intents({ state: 'denied' }).map((r) => [r.refId, r.denialCode]),
    all: j.intents().map((r) => r.refId),
    limited: j.intents({ limit: 1 }).map((r) => r.refId),
    fills: j.fills(),
    events: j.events('a-1').map((e) => [e.type, e.at, e.data]),
    seq: [j.nextSequence('x'), j.nextSequence('x')],
    integrity: j.integrityCheck(),
  };
}

describe('journal stores', () => {
  it('MemoryJournal answers exactly as the SQLite journal does', () => {
    const sqlite = new Journal(':memory:');
    const memory = new MemoryJournal();
    expect(script(memory)).toEqual(script(sqlite));
    sqlite.close();
  });

  it('MemoryJournal refuses a ref_id twice', () => {
    const m = new MemoryJournal();
    m.recordDecision({ kind: 'approve', intent: order('dup', 1), at: 1 });
    expect(() => m.recordDecision({ kind: 'approve', intent: order('dup', 2), at: 2 })).toThrow(/already journaled/);
  });
});
