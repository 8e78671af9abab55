import { describe, expect, it } from 'vitest';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { TestClock } from '../clock/index.js';
import type { ExecReport, Intent } from '../core/index.js';
import { Journal } from './journal.js';
import type { JournalStore } from './journal-store.js';
import { MemoryJournal } from './memory-journal.js';
import { OrderExecutor } from './order-executor.js';

const order = (id: string, _at: number): Intent => ({
  kind: 'place-order',
  intentId: id,
  strategy: 's',
  market: 'BTCUSD',
  side: 'BUY',
  type: 'LIMIT',
  baseAmount: '1',
  price: '100',
});

/** The same script on a journal; returns everything it can read back. */
function script(j: JournalStore): unknown {
  j.recordDecision({ kind: 'approve', intent: order('a-1', 1), at: 1 }, { at: 1, request: { ref_id: 'a-1' } });
  j.recordDecision({ kind: 'approve', intent: order('a-2', 2), at: 2 });
  j.markSent('a-2', 3, { ref_id: 'a-2' });
  j.recordDecision({ kind: 'deny', intent: order('a-3', 4), at: 4, reason: { code: 'RATE', message: 'slow down', details: { count: 3 } } });
  j.update('a-1', 5, 'open', { venueId: 'v-1', status: 'OPEN' }, { type: 'response', data: { status: 'OPEN' } });
  j.update('a-1', 6, 'done', { status: 'FILLED', amountFilled: '1', averagePrice: '100' }, { type: 'status' });
  const first = j.recordFill({
    fillId: 'f-1',
    refId: 'a-1',
    orderId: 'v-1',
    market: 'BTCUSD',
    side: 'BUY',
    amount: '1',
    price: '100',
    commission: '0.1',
    commissionAsset: 'USD',
    at: 6,
  });
  const again = j.recordFill({
    fillId: 'f-1',
    refId: 'a-1',
    orderId: 'v-1',
    market: 'BTCUSD',
    side: 'BUY',
    amount: '1',
    price: '100',
    commission: '0.1',
    commissionAsset: 'USD',
    at: 6,
  });
  j.update('a-2', 7, 'unresolved', { message: 'lookup failed' }, { type: 'lookup-failed' });
  return {
    first,
    again,
    a1: j.get('a-1'),
    byVenue: j.byVenueId('v-1')?.refId,
    facts: j.facts('a-2'),
    active: j.active().map((r) => [r.refId, r.state]),
    denied: j.intents({ state: 'denied' }).map((r) => [r.refId, r.denialCode, r.message]),
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
    // a denial keeps its reason beside its code (what `tradeloop orders` shows)
    expect((script(new MemoryJournal()) as { denied: unknown }).denied).toEqual([['a-3', 'RATE', 'slow down']]);
    sqlite.close();
  });

  it('MemoryJournal refuses a ref_id twice', () => {
    const m = new MemoryJournal();
    m.recordDecision({ kind: 'approve', intent: order('dup', 1), at: 1 });
    expect(() => m.recordDecision({ kind: 'approve', intent: order('dup', 2), at: 2 })).toThrow(/already journaled/);
  });
});

describe('MemoryJournal with a window of finished intents', () => {
  const fill = (fillId: string, refId: string) => ({
    fillId,
    refId,
    orderId: `v-${refId}`,
    market: 'BTCUSD',
    side: 'BUY' as const,
    amount: '1',
    price: '100',
    commission: '0.1',
    commissionAsset: 'USD',
    at: 1,
  });

  /** Five orders placed and filled in turn, one denial, and one order left open throughout. */
  function run(j: MemoryJournal): void {
    j.recordDecision({ kind: 'approve', intent: order('open', 0), at: 0 }, { at: 0, request: {} });
    j.update('open', 0, 'open', { venueId: 'v-open', status: 'OPEN' }, { type: 'response' });
    for (let k = 1; k <= 5; k++) {
      j.recordDecision({ kind: 'approve', intent: order(`o-${k}`, k), at: k }, { at: k, request: {} });
      j.update(`o-${k}`, k, 'open', { venueId: `v-o-${k}`, status: 'OPEN' }, { type: 'response' });
      j.recordFill(fill(`f-${k}`, `o-${k}`));
      j.update(`o-${k}`, k, 'done', { status: 'FILLED', amountFilled: '1' }, { type: 'status' });
    }
    j.recordDecision({ kind: 'deny', intent: order('d-6', 6), at: 6, reason: { code: 'RATE', message: 'slow down', details: {} } });
  }

  it('keeps the newest finished intents and every active one; the rules still hold for the forgotten', () => {
    const j = new MemoryJournal({ keepFinished: 2 });
    run(j);
    j.forgetFinished();
    expect(
      j
        .intents()
        .map((r) => r.refId)
        .sort(),
    ).toEqual(['d-6', 'o-5', 'open']);
    expect(j.active().map((r) => r.refId)).toEqual(['open']);
    expect(j.fills().map((f) => f.fillId)).toEqual(['f-5']);
    expect([j.get('o-1'), j.byVenueId('v-o-1'), j.events('o-1')]).toEqual([undefined, undefined, []]);
    expect(j.events('o-5').map((e) => e.type)).toEqual(['decision', 'request', 'response', 'fill', 'status']);
    // the forgotten still answer their final state, keep their ref_id and their fill ids taken
    expect(j.facts('o-1')).toEqual({ state: 'done', venueId: null, status: null, amountFilled: '0' });
    expect(() => j.recordDecision({ kind: 'approve', intent: order('o-1', 9), at: 9 })).toThrow(/already journaled/);
    expect(j.recordFill(fill('f-1', 'o-1'))).toBe(false);
    expect(j.integrityCheck()).toBe('ok');
  });

  it('refuses a cancel of a forgotten order as closed, as it does with the whole record', async () => {
    const clock = new TestClock(10);
    const journal = new MemoryJournal({ keepFinished: 1 });
    const reports: ExecReport[] = [];
    const orders = new OrderExecutor({ venue: new ScriptedVenue(() => clock.now()), journal, clock, emit: (r) => reports.push(r) });
    run(journal);
    journal.forgetFinished();
    expect(journal.get('o-1')).toBeUndefined();
    const cancel: Intent = { kind: 'cancel-order', intentId: 'c-1', strategy: 's', orderRefId: 'o-1' };
    journal.recordDecision({ kind: 'approve', intent: cancel, at: 10 });
    await orders.cancel(cancel);
    expect(reports).toEqual([
      expect.objectContaining({
        kind: 'rejected',
        refId: 'c-1',
        code: 'NOT_CANCELLABLE',
        message: 'cannot cancel o-1: order already closed',
      }),
    ]);
  });

  it('keeps everything by default, and refuses a window below one', () => {
    const j = new MemoryJournal();
    run(j);
    expect(j.intents()).toHaveLength(7);
    expect(j.fills()).toHaveLength(5);
    expect(() => new MemoryJournal({ keepFinished: 0 })).toThrow(/at least 1/);
  });
});
