/**
 * Writes that land late: a request the venue received but had not processed when its answer was lost
 * (or when the runner was killed and restarted). A lookup by ref_id that finds nothing must not close
 * the intent while the write may still land, and an order that lands even later is adopted, never
 * left resting at the venue untracked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import type { ExecReport, Intent } from '../core/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { LATE_WRITE_MS } from './exec-context.js';
import { FillTracker } from './fill-tracker.js';
import { MemoryJournal } from './memory-journal.js';
import { OrderExecutor } from './order-executor.js';
import { QuoteExecutor } from './quote-executor.js';
import { Reconciler } from './reconciler.js';
import { TransferExecutor } from './transfer-executor.js';

const journals: MemoryJournal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

function setup(lateWriteMs?: number) {
  const clock = new TestClock(1_700_000_000_000);
  const venue = new ScriptedVenue(() => clock.now());
  const journal = new MemoryJournal();
  journals.push(journal);
  const reports: ExecReport[] = [];
  const ctx = { venue, journal, clock, emit: (r: ExecReport) => reports.push(r), ...(lateWriteMs !== undefined && { lateWriteMs }) };
  const orders = new OrderExecutor(ctx);
  const transfers = new TransferExecutor(ctx);
  const fills = new FillTracker(ctx, clock.now() - 60_000);
  const reconciler = new Reconciler(ctx, { orders, quotes: new QuoteExecutor(ctx), transfers, fills });
  return { clock, venue, journal, reports, orders, transfers, reconciler };
}

let n = 0;
function buy(): Extract<Intent, { kind: 'place-order' }> {
  return {
    kind: 'place-order',
    intentId: `late-${++n}`,
    strategy: 't',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '1',
    price: '100',
  };
}

/** The venue processes the request it had received: the same order, landing now. */
async function land(s: ReturnType<typeof setup>, i: Extract<Intent, { kind: 'place-order' }>): Promise<void> {
  await s.venue.placeOrder({ refId: i.intentId, market: i.market, side: i.side, type: i.type, baseAmount: i.baseAmount!, price: i.price! });
}

describe('a write that lands after its lookup found nothing', () => {
  it('within lateWriteMs: the intent stays unresolved (reported once), then the late order is found and followed', async () => {
    const s = setup();
    const i = buy();
    s.journal.recordDecision({ kind: 'approve', intent: i, at: s.clock.now() });
    s.venue.inject('placeOrder', 'unknown-before-commit');
    await s.orders.place(i);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'unresolved' });
    s.clock.advance(1_000);
    await s.orders.resolve(i.intentId); // still nothing at the venue, still inside the window
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'unresolved' });
    expect(s.reports.filter((r) => r.kind === 'unresolved')).toHaveLength(1);
    expect(s.reports.some((r) => r.kind === 'failed')).toBe(false);
    await land(s, i);
    s.clock.advance(1_000);
    await s.orders.resolve(i.intentId);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'open', status: 'OPEN' });
    expect(s.reports.map((r) => r.kind)).toEqual(['unresolved', 'accepted']);
    expect(s.venue.ordersPerRef().get(i.intentId)).toBe(1);
  });

  it('a restart inside the window: the reconciler does not agree, names when to look again, and agrees once the order has landed', async () => {
    const s = setup();
    const i = buy();
    // the previous process journaled and sent the intent, then was killed before any answer
    s.journal.recordDecision({ kind: 'approve', intent: i, at: s.clock.now() }, { at: s.clock.now(), request: { ref_id: i.intentId } });
    s.clock.advance(1_000);
    const first = await s.reconciler.reconcile();
    expect(first).toMatchObject({ agreed: false, unresolved: [i.intentId], retryAt: 1_700_000_000_000 + LATE_WRITE_MS });
    await land(s, i);
    s.clock.advance(first.retryAt! - s.clock.now());
    const second = await s.reconciler.reconcile();
    expect(second).toMatchObject({ agreed: true, unresolved: [], foreignOpenOrders: [] });
    expect(second.retryAt).toBeUndefined();
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'open', status: 'OPEN' });
  });

  it('a restart inside the window where nothing ever lands: NOT_PLACED once the window has passed, never resent', async () => {
    const s = setup(500);
    const i = buy();
    s.journal.recordDecision({ kind: 'approve', intent: i, at: s.clock.now() }, { at: s.clock.now(), request: { ref_id: i.intentId } });
    s.clock.advance(100);
    expect((await s.reconciler.reconcile()).retryAt).toBe(1_700_000_000_500);
    s.clock.advance(400);
    expect(await s.reconciler.reconcile()).toMatchObject({ agreed: true });
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'done', status: 'NOT_PLACED' });
    expect(s.venue.calls.filter((c) => c === 'placeOrder')).toHaveLength(0);
  });

  it('after the window: the order closed as NOT_PLACED is adopted when it shows among open orders, and foreign orders are left alone', async () => {
    const s = setup();
    const i = buy();
    s.journal.recordDecision({ kind: 'approve', intent: i, at: s.clock.now() });
    s.venue.inject('placeOrder', 'unknown-before-commit');
    await s.orders.place(i);
    s.clock.advance(LATE_WRITE_MS);
    await s.orders.resolve(i.intentId);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'done', status: 'NOT_PLACED' });
    await land(s, i); // later than anyone waits
    await s.venue.placeOrder({ refId: 'someone-else-1', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '200' });
    const adopted = await s.orders.adoptLate(await s.venue.listOpenOrders());
    expect(adopted).toEqual([i.intentId]);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'open', status: 'OPEN' });
    expect(s.journal.get('someone-else-1')).toBeUndefined();
    expect(s.reports.at(-1)).toMatchObject({ kind: 'accepted', refId: i.intentId });
    expect(await s.orders.adoptLate(await s.venue.listOpenOrders())).toEqual([]); // once
  });

  it('a transfer whose write may still land stays unresolved, then closes as NOT_PLACED after the window', async () => {
    const s = setup();
    const t: Intent = {
      kind: 'transfer',
      intentId: `late-${++n}`,
      strategy: 't',
      fromProfileId: 'a',
      toProfileId: 'b',
      asset: 'USD',
      amount: '5',
    };
    s.journal.recordDecision({ kind: 'approve', intent: t, at: s.clock.now() }, { at: s.clock.now(), request: {} });
    await s.transfers.resolve(t.intentId);
    expect(s.journal.get(t.intentId)).toMatchObject({ state: 'unresolved' });
    s.clock.advance(LATE_WRITE_MS);
    await s.transfers.resolve(t.intentId);
    expect(s.journal.get(t.intentId)).toMatchObject({ state: 'done', status: 'NOT_PLACED' });
  });
});
