import { describe, expect, it } from 'vitest';
import { MalformedResponseError } from '../../src/api/index.js';
import { TestClock } from '../../src/clock/index.js';
import type { ExecReport, Intent, MarketEvent } from '../../src/core/index.js';
import { FillTracker, MemoryJournal } from '../../src/exec/index.js';
import { AccountStore } from '../../src/state/index.js';
import { PollingMarketSource, ResponseDecoder, type MarketDataApi, type StreamKind } from '../../src/venue/index.js';
import { turns } from '../support/streams-harness.js';
import { CASES, GOOD, goodFor, KINDS, T0, type RecordKind } from '../support/wire-records-fixture.js';

/** An in-process client: each stream answers its good record, and the stream under test also the broken one. */
function api(stream: StreamKind, broken: Record<string, unknown>): MarketDataApi {
  const list = (s: StreamKind, kind: RecordKind) => async () => ({ items: s === stream ? [GOOD[kind], broken] : [GOOD[kind]] });
  const fake = {
    listQuotes: list('quotes', 'quote'),
    listProfileBalances: list('balances', 'balance'),
    listProfileOrders: list('open-orders', 'order'),
    listProfileExecutions: list('fills', 'execution'),
    listQuoteExecutions: list('quote-executions', 'quote execution'),
  };
  return fake as unknown as MarketDataApi;
}

/** A polling source over that client, feeding an account store and a fill tracker as a live run does. */
async function pollOnce(stream: StreamKind, broken: Record<string, unknown>) {
  const clock = new TestClock(T0);
  const source = new PollingMarketSource({
    api: api(stream, broken),
    clock,
    profileId: 'p',
    intervals: { quotesMs: 1_000, balancesMs: 1_000, ordersMs: 1_000, fillsMs: 1_000, quoteExecutionsMs: 1_000 },
  });
  const account = new AccountStore(clock);
  const journal = new MemoryJournal();
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
  journal.recordDecision({ kind: 'approve', intent: sell, at: T0 }, { at: T0, request: {} });
  journal.update('r-1', T0, 'open', { venueId: 'o-1', status: 'OPEN' }, { type: 'response' });
  const reports: ExecReport[] = [];
  const tracker = new FillTracker({ venue: {} as never, journal, clock, emit: (r) => reports.push(r) }, T0 - 60_000);
  tracker.confirm('o-1', 'r-1'); // as the kernel does when the order executor accepts o-1 under r-1
  const quotes: MarketEvent[] = [];
  source.account$.subscribe((e) => account.apply(e));
  source.fills$.subscribe((f) => tracker.ingest(f));
  source.events$.subscribe((e) => quotes.push(e));
  source.start([{ market: 'BTCUSD', kinds: new Set(['quote']) }]);
  for (let t = 0; t < 3_000; t += 250) {
    await turns(5);
    clock.advance(250);
  }
  await turns(5);
  const health = source.health().find((h) => h.stream === stream);
  await source.stop();
  return { health, account: account.snapshot, journal, reports, quotes };
}

describe('the polling decoder never invents money or state', () => {
  it.each(CASES)('refuses a $kind record with $field $how as a MalformedResponseError naming the field', ({ stream, field, record }) => {
    const decode = () => new ResponseDecoder().decode({ kind: stream }, { items: [goodFor(stream), record] }, T0);
    expect(decode).toThrow(MalformedResponseError);
    expect(decode).toThrow(new RegExp(`^${stream} response: .*\\b${field}\\b.*refused rather than guessed`));
  });

  it.each(CASES)(
    'counts a $kind record with $field $how in stream health, and none of its response reaches the stores or the journal',
    async ({ kind, stream, field, record }) => {
      const r = await pollOnce(stream, record);
      expect(r.health?.malformed).toBeGreaterThan(0);
      expect(r.health?.lastError).toMatch(new RegExp(`^MALFORMED_RESPONSE: .*\\b${field}\\b`));
      expect(r.health?.lastSuccessAt).toBeUndefined();
      // the good record beside the broken one is refused with it: a snapshot with a hole would undercount
      if (kind === 'order') expect(r.account.openOrders).toBeUndefined();
      if (kind === 'balance') expect(r.account.balances).toBeUndefined();
      if (kind === 'quote execution') expect(r.account.pendingQuoteExecutions).toBeUndefined();
      if (kind === 'execution') {
        expect(r.journal.fills({ refId: 'r-1' })).toEqual([]);
        expect(r.reports).toEqual([]);
      }
      if (kind === 'quote') expect(r.quotes).toEqual([]);
    },
  );

  it('takes the same records when they are whole: the stores and the journal get them and health counts nothing', async () => {
    for (const { stream } of KINDS) {
      const r = await pollOnce(stream, goodFor(stream));
      expect(r.health?.malformed, stream).toBe(0);
      expect(r.health?.lastSuccessAt, stream).toBeDefined();
    }
    const r = await pollOnce('fills', { ...GOOD.execution, execution_id: '88123458', commission: '0', commission_asset: undefined });
    expect(r.journal.fills({ refId: 'r-1' }).map((f) => [f.fillId, f.commission])).toEqual([
      ['88123457', '0.45'],
      ['88123458', '0'],
    ]);
    expect(r.account.openOrders?.value.map((o) => [o.orderId, o.side, o.status, o.amountFilled.toFixed()])).toEqual([
      ['o-1', 'SELL', 'OPEN', '0'],
    ]);
    expect(r.account.balances?.value.get('BTC')?.available.toFixed()).toBe('1.5');
    expect(r.quotes.map((q) => q.kind === 'quote' && [q.quoteId, q.side, q.price])).toContainEqual(['q-1', 'SELL', '61000']);
  });

  it('refuses an order sized by neither amount, and a limit order without a price, but takes a market order with price "0"', () => {
    const decode = (o: Record<string, unknown>) => () => new ResponseDecoder().decode({ kind: 'open-orders' }, { items: [o] }, T0);
    expect(decode({ ...GOOD.order, base_amount: '0', quote_amount: '' })).toThrow(/order o-1 has neither base_amount nor quote_amount/);
    expect(decode({ ...GOOD.order, price: '0' })).toThrow(/order o-1 has no price, which a LIMIT order carries/);
    expect(decode({ ...GOOD.order, side: 'HOLD' })).toThrow(/order o-1 has side "HOLD", not BUY or SELL/);
    const market = new ResponseDecoder().decode(
      { kind: 'open-orders' },
      { items: [{ ...GOOD.order, type: 'MARKET', side: 'BUY', price: '0', base_amount: '0', quote_amount: '250.00' }] },
      T0,
    ).account;
    expect(market?.kind === 'open-orders' && market.orders.map((o) => [o.price, o.quoteAmount?.toFixed()])).toEqual([[undefined, '250']]);
  });
});
