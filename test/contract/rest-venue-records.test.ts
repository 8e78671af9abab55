import { describe, expect, it } from 'vitest';
import { MalformedResponseError, type ApiClient } from '../../src/api/index.js';
import { TestClock } from '../../src/clock/index.js';
import type { ExecReport, Intent } from '../../src/core/index.js';
import { FillTracker, MemoryJournal, OrderExecutor } from '../../src/exec/index.js';
import { RestVenue, VenueUnknownOutcomeError } from '../../src/venue/index.js';
import { CASES, GOOD, T0, type RecordKind } from '../support/wire-records-fixture.js';

/** A RestVenue whose client answers every read and write with `record` (alone, or as a one-item page). */
function venueAnswering(record: Record<string, unknown>): RestVenue {
  const one = async () => record;
  const page = async () => ({ items: [record] });
  const api = {
    createOrder: one,
    getOrder: one,
    listProfileOrders: page,
    listQuotes: page,
    createQuoteExecution: one,
    getQuoteExecution: one,
    listQuoteExecutions: page,
    listProfileBalances: page,
    paginate: async function* () {
      yield record;
    },
  };
  return new RestVenue(api as unknown as ApiClient, 'p');
}

/** The venue calls that map each record kind. */
const READS: Record<RecordKind, ReadonlyArray<readonly [string, (v: RestVenue) => Promise<unknown>]>> = {
  order: [
    ['getOrder', (v) => v.getOrder('o-1')],
    ['findOrderByRef', (v) => v.findOrderByRef('r-1')],
    ['listOpenOrders', (v) => v.listOpenOrders()],
  ],
  execution: [['listFills', (v) => v.listFills(T0)]],
  'quote execution': [
    ['getQuoteExecution', (v) => v.getQuoteExecution('qx-1')],
    ['findQuoteExecutionByRef', (v) => v.findQuoteExecutionByRef('r-2')],
  ],
  balance: [['balances', (v) => v.balances()]],
  quote: [['listQuotes', (v) => v.listQuotes('BTCUSD')]],
};

const sell: Intent = {
  kind: 'place-order',
  intentId: 'r-1',
  strategy: 't',
  market: 'BTCUSD',
  side: 'SELL',
  type: 'LIMIT',
  baseAmount: '0.015',
  price: '61250.5',
};

function executors(venue: RestVenue) {
  const clock = new TestClock(T0);
  const journal = new MemoryJournal();
  const reports: ExecReport[] = [];
  const ctx = { venue, journal, clock, emit: (r: ExecReport) => reports.push(r) };
  return { clock, journal, reports, orders: new OrderExecutor(ctx), fills: new FillTracker(ctx, T0 - 60_000) };
}

describe('RestVenue never invents money or state from a venue record', () => {
  it.each(CASES)('refuses a $kind record with $field $how in every call that reads one', async ({ kind, field, record }) => {
    const venue = venueAnswering(record);
    for (const [call, read] of READS[kind]) {
      const error = await read(venue).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, call).toBeInstanceOf(MalformedResponseError);
      expect((error as Error).message, call).toMatch(new RegExp(`\\b${field}\\b.*refused rather than guessed`));
    }
  });

  it('maps the same records when they are whole', async () => {
    for (const kind of Object.keys(READS) as RecordKind[]) {
      for (const [call, read] of READS[kind]) await expect(read(venueAnswering(GOOD[kind])), call).resolves.toBeDefined();
    }
    expect(await venueAnswering(GOOD.order).getOrder('o-1')).toMatchObject({ orderId: 'o-1', side: 'SELL', status: 'OPEN', createdAt: T0 });
  });

  it('takes a malformed answer to an order it placed as an unknown outcome: the intent stays unresolved, never open', async () => {
    const broken = { ...GOOD.order, status: undefined };
    await expect(
      venueAnswering(broken).placeOrder({
        refId: 'r-1',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'LIMIT',
        baseAmount: '0.015',
        price: '61250.5',
      }),
    ).rejects.toThrow(VenueUnknownOutcomeError);
    const s = executors(venueAnswering(broken));
    await s.orders.place(sell, { kind: 'approve', intent: sell, at: T0 });
    expect(s.journal.get('r-1')).toMatchObject({ state: 'unresolved' });
    expect(s.reports.map((r) => r.kind)).toEqual(['unresolved']);
  });

  it('journals no fill from a malformed execution and reports none', async () => {
    const s = executors(venueAnswering({ ...GOOD.execution, commission: undefined }));
    s.journal.recordDecision({ kind: 'approve', intent: sell, at: T0 }, { at: T0, request: {} });
    s.journal.update('r-1', T0, 'open', { venueId: 'o-1', status: 'OPEN' }, { type: 'response' });
    expect(await s.fills.poll()).toBe(0);
    expect(s.journal.fills({ refId: 'r-1' })).toEqual([]);
    expect(s.reports).toEqual([]);
  });
});
