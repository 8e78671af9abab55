import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { D, type ExecReport, type Intent } from '../core/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { FillTracker } from './fill-tracker.js';
import { LATE_WRITE_MS } from './exec-context.js';
import { Journal } from './journal.js';
import { OrderExecutor } from './order-executor.js';
import { QuoteExecutor } from './quote-executor.js';
import { Reconciler } from './reconciler.js';
import { TransferExecutor } from './transfer-executor.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

function setup(file = join(mkdtempSync(join(tmpdir(), 'tradeloop-journal-')), 'journal.sqlite')) {
  const clock = new TestClock(1_700_000_000_000);
  const venue = new ScriptedVenue(() => clock.now());
  const journal = new Journal(file);
  journals.push(journal);
  const reports: ExecReport[] = [];
  const ctx = { venue, journal, clock, emit: (r: ExecReport) => reports.push(r) };
  const orders = new OrderExecutor(ctx);
  const quotes = new QuoteExecutor(ctx);
  const transfers = new TransferExecutor(ctx);
  const fills = new FillTracker(ctx, clock.now() - 60_000);
  const reconciler = new Reconciler(ctx, { orders, quotes, transfers, fills });
  return { clock, venue, journal, reports, orders, quotes, transfers, fills, reconciler, file };
}

let n = 0;
function buy(): Extract<Intent, { kind: 'place-order' }> {
  return {
    kind: 'place-order',
    intentId: `ref-${++n}`,
    strategy: 't',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '1',
    price: '100',
  };
}

function journalApproved(s: ReturnType<typeof setup>, intent: Intent): void {
  s.journal.recordDecision({ kind: 'approve', intent, at: s.clock.now() });
}

describe('OrderExecutor', () => {
  it('places an order with ref_id = intent id and journals request and response', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    await s.orders.place(i);
    const row = s.journal.get(i.intentId);
    expect(row).toMatchObject({ state: 'open', status: 'OPEN' });
    expect([...s.venue.orders.values()][0]?.refId).toBe(i.intentId);
    expect(s.journal.events(i.intentId).map((e) => e.type)).toEqual(['decision', 'request', 'response']);
    expect(s.reports.map((r) => r.kind)).toEqual(['accepted']);
  });

  it('resolves a response lost after commit by ref_id, creating no duplicate', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    s.venue.inject('placeOrder', 'unknown-after-commit');
    await s.orders.place(i);
    expect(s.venue.ordersPerRef().get(i.intentId)).toBe(1);
    expect(s.venue.calls.filter((c) => c === 'placeOrder')).toHaveLength(1);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'open', status: 'OPEN' });
  });

  it('closes an order that never reached the venue as NOT_PLACED without resending', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    s.venue.inject('placeOrder', 'unknown-before-commit');
    await s.orders.place(i);
    expect(s.venue.orders.size).toBe(0);
    // the write may still land for LATE_WRITE_MS after it was sent: unresolved until then
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'unresolved' });
    expect(s.reports.at(-1)).toMatchObject({ kind: 'unresolved' });
    s.clock.advance(LATE_WRITE_MS);
    await s.orders.resolve(i.intentId);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'done', status: 'NOT_PLACED' });
    expect(s.reports.at(-1)).toMatchObject({ kind: 'failed', code: 'NOT_PLACED' });
    expect(s.venue.calls.filter((c) => c === 'placeOrder')).toHaveLength(1);
  });

  it('marks the intent unresolved when the lookup fails too, and the reconciler resolves it later', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    s.venue.inject('placeOrder', 'unknown-after-commit');
    s.venue.inject('findOrderByRef', 'unreachable');
    await s.orders.place(i);
    expect(s.journal.get(i.intentId)?.state).toBe('unresolved');
    expect(s.reports.at(-1)?.kind).toBe('unresolved');
    const result = await s.reconciler.reconcile();
    expect(result.agreed).toBe(true);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'open', status: 'OPEN' });
  });

  it('records a rejection as terminal', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    s.venue.inject('placeOrder', 'reject');
    await s.orders.place(i);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'done', status: 'REJECTED' });
    expect(s.reports.at(-1)).toMatchObject({ kind: 'rejected', code: 'INSUFFICIENT_FUNDS' });
  });

  it('cancels through the venue and observes CANCELLED', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    await s.orders.place(i);
    const c: Intent = { kind: 'cancel-order', intentId: 'cancel-1', strategy: 't', orderRefId: i.intentId };
    journalApproved(s, c);
    await s.orders.cancel(c);
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'done', status: 'CANCELLED' });
    expect(s.reports.map((r) => r.kind)).toContain('cancelled');
  });
});

describe('FillTracker', () => {
  it('records every venue fill exactly once across overlapping polls', async () => {
    const s = setup();
    const i = buy();
    journalApproved(s, i);
    await s.orders.place(i);
    const orderId = s.journal.get(i.intentId)?.venueId as string;
    s.venue.fill(orderId, '0.4', '100');
    expect(await s.fills.poll()).toBe(1);
    s.clock.advance(10);
    s.venue.fill(orderId, '0.6', '100');
    expect(await s.fills.poll()).toBe(1);
    expect(await s.fills.poll()).toBe(0);
    expect(s.journal.fills({ refId: i.intentId })).toHaveLength(2);
    expect(s.reports.filter((r) => r.kind === 'filled')).toHaveLength(2);
  });
});

describe('QuoteExecutor', () => {
  it('executes the freshest unexpired quote and follows it to SETTLED', async () => {
    const s = setup();
    s.venue.quotes.push(
      { quoteId: 'q-old', market: 'BTCUSD', side: 'BUY', price: new D('100'), expiresAt: s.clock.now() + 500 },
      { quoteId: 'q-new', market: 'BTCUSD', side: 'BUY', price: new D('101'), expiresAt: s.clock.now() + 30_000 },
    );
    const i: Intent = { kind: 'execute-quote', intentId: 'qe-1', strategy: 't', market: 'BTCUSD', side: 'BUY', quoteAmount: '101' };
    journalApproved(s, i);
    await s.quotes.execute(i);
    const row = s.journal.get('qe-1');
    expect(row).toMatchObject({ state: 'open', status: 'CREATED' });
    const x = s.venue.executions.get(row?.venueId as string);
    expect(x?.quoteId).toBe('q-new');
    if (x) x.status = 'SETTLED';
    await s.quotes.refresh(s.journal.get('qe-1') as never);
    expect(s.journal.get('qe-1')).toMatchObject({ state: 'done', status: 'SETTLED' });
    expect(s.reports.at(-1)).toMatchObject({ kind: 'quote-executed', settled: true });
  });

  it('resolves a quote execution whose response was lost, without a second execution', async () => {
    const s = setup();
    s.venue.quotes.push({ quoteId: 'q', market: 'BTCUSD', side: 'SELL', price: new D('99'), expiresAt: s.clock.now() + 30_000 });
    const i: Intent = { kind: 'execute-quote', intentId: 'qe-2', strategy: 't', market: 'BTCUSD', side: 'SELL', baseAmount: '0.5' };
    journalApproved(s, i);
    s.venue.inject('executeQuote', 'unknown-after-commit');
    await s.quotes.execute(i);
    expect(s.venue.executions.size).toBe(1);
    expect(s.journal.get('qe-2')?.state).toBe('open');
  });

  it('refuses when no quote has enough time left', async () => {
    const s = setup();
    s.venue.quotes.push({ quoteId: 'q', market: 'BTCUSD', side: 'BUY', price: new D('99'), expiresAt: s.clock.now() + 100 });
    const i: Intent = { kind: 'execute-quote', intentId: 'qe-3', strategy: 't', market: 'BTCUSD', side: 'BUY', quoteAmount: '10' };
    journalApproved(s, i);
    await s.quotes.execute(i);
    expect(s.reports.at(-1)).toMatchObject({ kind: 'rejected', code: 'QUOTE_EXPIRED' });
    expect(s.venue.executions.size).toBe(0);
  });
});

describe('Reconciler', () => {
  it('after a restart closes never-sent intents, resolves sent ones and records missed fills', async () => {
    const first = setup();
    const sent = buy();
    const neverSent = buy();
    journalApproved(first, sent);
    journalApproved(first, neverSent);
    // crash right after sending: the venue has the order, the journal only knows it was sent
    first.journal.markSent(sent.intentId, first.clock.now(), {});
    await first.venue.placeOrder({ refId: sent.intentId, market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });
    const orderId = [...first.venue.orders.keys()][0] as string;
    first.venue.fill(orderId, '1', '100');
    first.journal.close();

    const journal = new Journal(first.file);
    journals.push(journal);
    const reports: ExecReport[] = [];
    const ctx = { venue: first.venue, journal, clock: first.clock, emit: (r: ExecReport) => reports.push(r) };
    const orders = new OrderExecutor(ctx);
    const rec = new Reconciler(ctx, {
      orders,
      quotes: new QuoteExecutor(ctx),
      transfers: new TransferExecutor(ctx),
      fills: new FillTracker(ctx, first.clock.now() - 60_000),
    });
    const result = await rec.reconcile();
    expect(result.agreed).toBe(true);
    expect(journal.get(sent.intentId)).toMatchObject({ state: 'done', status: 'FILLED', venueId: orderId });
    expect(journal.get(neverSent.intentId)).toMatchObject({ state: 'done', status: 'NOT_SENT' });
    expect(journal.fills({ refId: sent.intentId })).toHaveLength(1);
    expect(result.repairs.length).toBeGreaterThanOrEqual(3);
    expect(first.venue.ordersPerRef().get(sent.intentId)).toBe(1);
    expect(journal.integrityCheck()).toBe('ok');
  });

  it('reports open orders at the venue that the journal does not know', async () => {
    const s = setup();
    await s.venue.placeOrder({ refId: 'someone-else', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '200' });
    const result = await s.reconciler.reconcile();
    expect(result.foreignOpenOrders).toHaveLength(1);
  });
});

describe('Journal', () => {
  it('keeps sequences across reopen and passes the integrity check', () => {
    const s = setup();
    expect(s.journal.nextSequence('intent')).toBe(1);
    expect(s.journal.nextSequence('intent')).toBe(2);
    s.journal.close();
    const j = new Journal(s.file);
    journals.push(j);
    expect(j.nextSequence('intent')).toBe(3);
    expect(j.integrityCheck()).toBe('ok');
  });

  it('journals a denial with its code and never as active', () => {
    const s = setup();
    const i = buy();
    s.journal.recordDecision({ kind: 'deny', intent: i, at: 1, reason: { code: 'RATE', message: 'too many', details: {} } });
    expect(s.journal.get(i.intentId)).toMatchObject({ state: 'denied', denialCode: 'RATE' });
    expect(s.journal.active()).toHaveLength(0);
  });
});

describe('TransferExecutor', () => {
  it('resolves a lost transfer response by ref_id with one transfer', async () => {
    const s = setup();
    const t: Intent = {
      kind: 'transfer',
      intentId: 'tr-1',
      strategy: 't',
      asset: 'USD',
      amount: '5',
      fromProfileId: 'a',
      toProfileId: 'b',
    };
    journalApproved(s, t);
    s.venue.inject('transfer', 'unknown-after-commit');
    await s.transfers.transfer(t);
    expect(s.venue.transfers.size).toBe(1);
    expect(s.journal.get('tr-1')).toMatchObject({ state: 'done', status: 'COMPLETED' });
  });
});
