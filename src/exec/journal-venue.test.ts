import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import type { Intent } from '../core/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { Journal } from './journal.js';
import { bindJournalVenue, checkPrefixUnused, checkVenueHoldsJournal, journalVenue, type VenueIdentity } from './journal-venue.js';

const LOCAL: VenueIdentity = { environment: 'local', host: '127.0.0.1', profileId: 'p-1', sandboxInstance: 'w-aaaa' };

function setup() {
  const clock = new TestClock(1_700_000_000_000);
  return { clock, venue: new ScriptedVenue(() => clock.now()), journal: new Journal(':memory:') };
}

function order(refId: string): Extract<Intent, { kind: 'place-order' }> {
  return {
    kind: 'place-order',
    intentId: refId,
    strategy: 't',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '1',
    price: '100',
  };
}

describe('bindJournalVenue', () => {
  it('binds a new journal, accepts the same venue again and fills in a sandbox instance it lacked', () => {
    const { journal } = setup();
    const { sandboxInstance: _, ...withoutInstance } = LOCAL;
    bindJournalVenue(journal, withoutInstance);
    bindJournalVenue(journal, LOCAL);
    expect(journalVenue(journal)).toEqual(LOCAL);
    expect(() => bindJournalVenue(journal, { ...LOCAL, host: 'localhost' })).not.toThrow(); // the instance alone decides
  });

  it('refuses another sandbox instance, API host or profile, naming what differs and the fix', () => {
    const { journal } = setup();
    bindJournalVenue(journal, LOCAL);
    expect(() => bindJournalVenue(journal, { ...LOCAL, sandboxInstance: 'w-bbbb' })).toThrow(
      /sandbox instance w-aaaa, not w-bbbb: the sandbox's world was started afresh.*--fresh.*own journal\.path/,
    );
    const remote: VenueIdentity = { environment: 'sandbox', host: 'api.sandbox.paxos.com', profileId: 'p-1' };
    const other = setup().journal;
    bindJournalVenue(other, remote);
    expect(() => bindJournalVenue(other, { ...remote, host: 'api.other.example' })).toThrow(
      /API host api\.sandbox\.paxos\.com, not api\.other\.example/,
    );
    expect(() => bindJournalVenue(other, { ...remote, profileId: 'p-2' })).toThrow(/profile p-1, not p-2/);
  });
});

describe('checkVenueHoldsJournal', () => {
  it('refuses a venue that does not know an order the journal holds (a rollback), or holds it under another ref_id', async () => {
    const s = setup();
    s.journal.recordDecision({ kind: 'approve', intent: order('b-1'), at: s.clock.now() });
    const placed = await s.venue.placeOrder({ refId: 'b-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });
    s.journal.update('b-1', s.clock.now(), 'open', { venueId: placed.orderId, status: 'OPEN' }, { type: 'response' });
    await expect(checkVenueHoldsJournal(s.journal, s.venue)).resolves.toBeUndefined();
    s.venue.orders.set(placed.orderId, { ...placed, refId: 'someone-else-9' });
    await expect(checkVenueHoldsJournal(s.journal, s.venue)).rejects.toThrow(
      /holds o-\d+ under ref_id someone-else-9, which this journal recorded for b-1/,
    );
    s.venue.orders.clear();
    await expect(checkVenueHoldsJournal(s.journal, s.venue)).rejects.toThrow(
      /does not know place-order o-\d+.*lost records the journal holds/,
    );
  });
});

describe('checkPrefixUnused', () => {
  it('refuses an empty journal whose prefix the venue already holds, for any kind of record', async () => {
    const s = setup();
    await expect(checkPrefixUnused(s.journal, s.venue, 'bot')).resolves.toBeUndefined();
    s.venue.transfers.set('bot-2', { transferId: 't-1', refId: 'bot-2', status: 'COMPLETED' });
    await expect(checkPrefixUnused(s.journal, s.venue, 'bot')).rejects.toThrow(
      /this journal is empty, but the venue already holds transfer t-1 bot-2: another journal used prefix bot.*new run\.ref_prefix/,
    );
  });

  it('refuses a journal whose next id the venue holds (a copy of a journal that moved on)', async () => {
    const s = setup();
    s.journal.recordDecision({ kind: 'approve', intent: order('bot-1'), at: s.clock.now() });
    await s.venue.placeOrder({ refId: 'bot-2', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });
    await expect(checkPrefixUnused(s.journal, s.venue, 'bot')).rejects.toThrow(
      /issued ids up to bot-1, but the venue already holds order o-\d+ bot-2/,
    );
  });

  it('names the lowest id the venue holds when several ids of the window are held', async () => {
    const s = setup();
    s.venue.transfers.set('bot-3', { transferId: 't-3', refId: 'bot-3', status: 'COMPLETED' });
    s.venue.transfers.set('bot-2', { transferId: 't-2', refId: 'bot-2', status: 'COMPLETED' });
    await expect(checkPrefixUnused(s.journal, s.venue, 'bot')).rejects.toThrow(/already holds transfer t-2 bot-2/);
  });
});

describe('reads at start', () => {
  it('go again after a failure that proves nothing, so one malformed answer does not stop a start', async () => {
    const s = setup();
    s.journal.recordDecision({ kind: 'approve', intent: order('c-1'), at: s.clock.now() });
    const placed = await s.venue.placeOrder({ refId: 'c-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });
    s.journal.update('c-1', s.clock.now(), 'open', { venueId: placed.orderId, status: 'OPEN' }, { type: 'response' });
    s.venue.inject('getOrder', 'unreachable');
    s.venue.inject('findOrderByRef', 'unreachable', 'unreachable');
    await expect(checkVenueHoldsJournal(s.journal, s.venue)).resolves.toBeUndefined();
    await expect(checkPrefixUnused(s.journal, s.venue, 'c')).resolves.toBeUndefined();
    s.venue.inject('getOrder', 'unreachable', 'unreachable', 'unreachable');
    await expect(checkVenueHoldsJournal(s.journal, s.venue)).rejects.toThrow(/unreachable/);
  });
});
