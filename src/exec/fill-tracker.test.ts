import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { D, type ExecReport, type Intent } from '../core/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { FillTracker } from './fill-tracker.js';
import { Journal } from './journal.js';
import { MemoryJournal } from './memory-journal.js';
import { OrderExecutor } from './order-executor.js';

function setup() {
  const clock = new TestClock(1_700_000_000_000);
  const venue = new ScriptedVenue(() => clock.now());
  const journal = new Journal(':memory:');
  const reports: ExecReport[] = [];
  const ctx = { venue, journal, clock, emit: (r: ExecReport) => reports.push(r) };
  return { clock, venue, journal, reports, ctx, orders: new OrderExecutor(ctx), fills: new FillTracker(ctx, clock.now() - 60_000) };
}

type Setup = ReturnType<typeof setup>;

function buy(refId: string): Extract<Intent, { kind: 'place-order' }> {
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

/**
 * The journal holds `refId` as venue order `orderId` (journaled by an earlier run), while the venue
 * now holds another order under that id, with another ref_id, which has a fill: the case of a
 * sandbox that started afresh and reissued its ids.
 */
function reissued(s: Setup, refId: string, orderId: string, venueRef: string): void {
  s.journal.recordDecision({ kind: 'approve', intent: buy(refId), at: s.clock.now() });
  s.journal.update(refId, s.clock.now(), 'open', { venueId: orderId, status: 'OPEN', amountFilled: '0' }, { type: 'response' });
  s.venue.orders.set(orderId, {
    orderId,
    refId: venueRef,
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    status: 'OPEN',
    baseAmount: new D('1'),
    price: new D('100'),
    amountFilled: new D('0'),
  });
}

describe('FillTracker attributes a fill by the ref_id the venue gives its order', () => {
  it('a polled fill whose order carries another ref_id than the journal row found by venue id is not journaled', async () => {
    const s = setup();
    reissued(s, 'old-1', 'o-77', 'new-1');
    s.venue.fill('o-77', '0.5', '100');
    expect(await s.fills.poll()).toBe(0);
    expect(s.journal.fills()).toEqual([]);
    expect(s.reports.filter((r) => r.kind === 'filled')).toEqual([]);
  });

  it('a pushed fill of such an order is held, checked against the venue, and not journaled either', async () => {
    const s = setup();
    reissued(s, 'old-1', 'o-77', 'new-1');
    s.venue.fill('o-77', '0.5', '100');
    expect(s.fills.ingest(s.venue.fills)).toBe(0);
    expect(s.fills.heldCount).toBe(1);
    // the tracker reads the order from the venue on its own; let that read answer
    for (let k = 0; k < 5; k++) await Promise.resolve();
    expect(s.venue.calls).toContain('getOrder');
    expect(s.fills.ingest([])).toBe(0);
    expect(s.journal.fills()).toEqual([]);
  });

  it('a pushed fill of an order the executor accepted under its ref_id is journaled at once', async () => {
    const s = setup();
    const i = buy('ref-1');
    s.journal.recordDecision({ kind: 'approve', intent: i, at: s.clock.now() });
    await s.orders.place(i);
    const accepted = s.reports.find((r) => r.kind === 'accepted');
    if (accepted?.kind !== 'accepted') throw new Error('not accepted');
    s.fills.confirm(accepted.orderId, accepted.refId);
    s.venue.fill(accepted.orderId, '0.4', '100');
    expect(s.fills.ingest(s.venue.fills)).toBe(1);
    expect(s.journal.fills({ refId: 'ref-1' })).toHaveLength(1);
  });

  it('a fill of an order of an earlier run is journaled once the venue confirms its ref_id', async () => {
    const s = setup();
    reissued(s, 'old-1', 'o-77', 'old-1');
    s.venue.fill('o-77', '0.5', '100');
    expect(await s.fills.poll()).toBe(1);
    expect(s.journal.fills({ refId: 'old-1' })).toHaveLength(1);
  });

  it.each([
    ['SQLite', () => new Journal(':memory:')],
    ['memory', () => new MemoryJournal()],
  ])(
    'a fill after a cancel of its order is journaled under the order, not the cancel that carries the same venue id (%s journal)',
    async (_, make) => {
      const s = setup();
      const journal = make();
      const ctx = { ...s.ctx, journal };
      const orders = new OrderExecutor(ctx);
      const fills = new FillTracker(ctx, s.clock.now() - 60_000);
      const i = buy('ref-1');
      journal.recordDecision({ kind: 'approve', intent: i, at: s.clock.now() });
      await orders.place(i);
      const orderId = journal.get('ref-1')?.venueId as string;
      fills.confirm(orderId, 'ref-1');
      const cancel: Intent = { kind: 'cancel-order', intentId: 'ref-2', strategy: 't', orderRefId: 'ref-1' };
      journal.recordDecision({ kind: 'approve', intent: cancel, at: s.clock.now() });
      s.venue.fill(orderId, '0.4', '100');
      await orders.cancel(cancel);
      expect(journal.get('ref-2')?.venueId).toBe(orderId);
      expect(fills.ingest(s.venue.fills)).toBe(1);
      expect(journal.fills().map((f) => f.refId)).toEqual(['ref-1']);
    },
  );
});

describe('FillTracker tells on each fill whether its order is done', () => {
  /** Journals `refId` as venue order `orderId` in `status` with `amountFilled`, and lets the tracker take its fills. */
  function journaled(s: Setup, refId: string, orderId: string, state: 'open' | 'done', status: string, amountFilled: string): void {
    s.journal.recordDecision({ kind: 'approve', intent: { ...buy(refId), type: 'MARKET', price: undefined }, at: s.clock.now() });
    s.journal.update(refId, s.clock.now(), state, { venueId: orderId, status, amountFilled }, { type: 'response' });
    s.venue.orders.set(orderId, {
      orderId,
      refId,
      market: 'BTCUSD',
      side: 'BUY',
      type: 'MARKET',
      status: 'OPEN',
      quoteAmount: new D('100'),
      amountFilled: new D('0'),
    });
    s.fills.confirm(orderId, refId);
  }

  const done = (s: Setup): Array<boolean | undefined> => s.reports.flatMap((r) => (r.kind === 'filled' ? [r.orderDone] : []));

  it('the one fill of an order the venue closed FILLED says so', () => {
    const s = setup();
    journaled(s, 'm-1', 'o-1', 'done', 'FILLED', '0.5');
    s.venue.fill('o-1', '0.5', '100');
    expect(s.fills.ingest(s.venue.fills)).toBe(1);
    expect(done(s)).toEqual([true]);
  });

  it('of several fills only the one that completes the amount filled says so, whichever batch it comes in', () => {
    const s = setup();
    journaled(s, 'm-1', 'o-1', 'done', 'FILLED', '1.0');
    s.venue.fill('o-1', '0.25', '100');
    s.venue.fill('o-1', '0.5', '101');
    expect(s.fills.ingest(s.venue.fills.slice(0, 1))).toBe(1);
    s.venue.fill('o-1', '0.25', '102');
    expect(s.fills.ingest(s.venue.fills)).toBe(2);
    expect(done(s)).toEqual([false, false, true]);
  });

  it('a fill of an order still open says more may come; a partly filled order the venue cancelled is done at its last fill', () => {
    const s = setup();
    journaled(s, 'm-1', 'o-1', 'open', 'OPEN', '0.2');
    s.venue.fill('o-1', '0.2', '100');
    s.fills.ingest(s.venue.fills);
    journaled(s, 'm-2', 'o-2', 'done', 'CANCELLED', '0.3');
    s.venue.fill('o-2', '0.3', '100');
    s.fills.ingest(s.venue.fills);
    expect(done(s)).toEqual([false, true]);
  });
});
