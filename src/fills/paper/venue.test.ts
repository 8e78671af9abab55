/**
 * The paper venue of `tradeloop run --paper` on real data, with fills computed by hand: it fills on
 * the books it is shown, keeps its account in a store after every change, and a venue opened again
 * from that store continues it (balances, an open order with what it filled, old fills, quote
 * executions) with ids that never repeat; a damaged account is refused naming the fix.
 */
import { describe, expect, it } from 'vitest';
import { InputError, type PriceLevel } from '../../core/index.js';
import { PaperVenue } from './venue.js';
import { PAPER_STATE_META_KEY, type PaperStateStore } from './state.js';
import { VenueRejectedError, type VenueFill } from '../../venue/venue.js';

const lv = (...pairs: [number, number][]): PriceLevel[] => pairs.map(([price, amount]) => ({ price, amount }));
const brief = (fs: readonly VenueFill[]) =>
  fs.map((f) => [f.fillId, f.orderId, f.amount.toFixed(), f.price.toFixed(), f.commission.toFixed()]);

/** A store like the journal's meta table: one text value. */
function memoryStore(): PaperStateStore & { text(): string | undefined; saves: number } {
  let value: string | undefined;
  const s = {
    saves: 0,
    load: () => value,
    save: (v: string) => {
      value = v;
      s.saves++;
    },
    text: () => value,
  };
  return s;
}

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, at: (t: number) => (now = t) };
}

async function balances(v: PaperVenue): Promise<Record<string, string>> {
  return Object.fromEntries((await v.balances()).map((b) => [b.asset, `${b.available.toFixed()}/${b.trading.toFixed()}`]));
}

const book = (at: number, bids: PriceLevel[], asks: PriceLevel[]) => ({ kind: 'book' as const, market: 'BTCUSD', at, bids, asks });

describe('PaperVenue', () => {
  it("fills a crossing buy on the book it was shown, at the levels' prices with the fee, and keeps the account", async () => {
    const store = memoryStore();
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 10, latencyMs: 0, now: t.now, store });
    expect(v.continued).toBe(false);
    v.observe(book(1_000, lv([99, 1]), lv([100, 1], [101, 2])));
    const o = await v.placeOrder({
      refId: 'r-1',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      baseAmount: '2',
      price: '101',
    });
    // 1 × 100 + 1 × 101 = 201, fees 0.1 + 0.101
    expect(o).toMatchObject({ orderId: 'paper-1', status: 'FILLED' });
    expect(o.amountFilled.toFixed()).toBe('2');
    expect(o.averagePrice!.toFixed()).toBe('100.5');
    expect(brief(await v.listFills(0))).toEqual([
      ['paper-1-f1', 'paper-1', '1', '100', '0.1'],
      ['paper-1-f2', 'paper-1', '1', '101', '0.101'],
    ]);
    expect(await balances(v)).toEqual({ USD: '798.799/0', BTC: '2/0' });
    const kept = JSON.parse(store.text()!) as { balances: Record<string, string>; orders: unknown[]; fills: unknown[] };
    expect(kept.balances).toEqual({ USD: '798.799', BTC: '2' });
    expect(kept.orders).toHaveLength(1);
    expect(kept.fills).toHaveLength(2);
  });

  it('a restart continues the account: the open order keeps what it filled and fills the rest on a later book, ids go on', async () => {
    const store = memoryStore();
    const t = clock();
    const first = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: t.now, store });
    first.observe(book(1_000, lv([90, 5]), lv([100, 5])));
    // a buy of 3 at 95 rests; a later book's ask at 94 crosses it for 1 (at the order's price, 95)
    await first.placeOrder({ refId: 'r-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '3', price: '95' });
    expect(await balances(first)).toEqual({ USD: '715/285' });
    t.at(2_000);
    first.observe(book(2_000, lv([90, 5]), lv([94, 1], [100, 5])));
    await first.flush();
    expect((await first.getOrder('paper-1')).amountFilled.toFixed()).toBe('1');
    expect(await balances(first)).toEqual({ USD: '715/190', BTC: '1/0' });

    t.at(10_000);
    const second = await PaperVenue.open({ funding: { USD: '999999' }, feeBps: 0, latencyMs: 0, now: t.now, store });
    expect(second.continued).toBe(true);
    expect(second.restoreNotes).toEqual([]);
    // the kept account, not the funding: USD 905 in all, 190 of it held again for the 2 left at 95
    expect(await balances(second)).toEqual({ USD: '715/190', BTC: '1/0' });
    const open = await second.listOpenOrders();
    expect(open.map((o) => [o.orderId, o.refId, o.status, o.amountFilled.toFixed()])).toEqual([['paper-1', 'r-1', 'OPEN', '1']]);
    expect(brief(await second.listFills(0))).toEqual([['paper-1-f1', 'paper-1', '1', '95', '0']]);
    second.observe(book(10_000, lv([90, 5]), lv([93, 5])));
    await second.flush();
    const done = await second.getOrder('paper-1');
    expect([done.status, done.amountFilled.toFixed(), done.averagePrice!.toFixed()]).toEqual(['FILLED', '3', '95']);
    expect(brief(await second.listFills(0))).toEqual([
      ['paper-1-f1', 'paper-1', '1', '95', '0'],
      ['paper-1-f2', 'paper-1', '2', '95', '0'],
    ]);
    expect(await balances(second)).toEqual({ USD: '715/0', BTC: '3/0' });
    // the next order's id follows the kept ones (never paper-1 again)
    const next = await second.placeOrder({ refId: 'r-2', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '200' });
    expect(next.orderId).toBe('paper-2');
    // the same ref_id answers the same order (idempotent, as the platform is)
    expect(
      (await second.placeOrder({ refId: 'r-2', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '200' })).orderId,
    ).toBe('paper-2');
  });

  it('an order reaches the venue after the latency and meets the book in force then (known when the next book comes)', async () => {
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 500, now: t.now });
    v.observe(book(1_000, lv([99, 1]), lv([100, 1])));
    const o = await v.placeOrder({
      refId: 'r',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      baseAmount: '1',
      price: '105',
    });
    expect(o.status).toBe('SUBMITTED');
    // it arrives at 1500, when the book of 1000 is still in force: it fills there at 100
    t.at(1_600);
    v.observe(book(1_600, lv([99, 1]), lv([104, 1])));
    const filled = await v.getOrder(o.orderId);
    expect([filled.status, filled.averagePrice?.toFixed()]).toEqual(['FILLED', '100']);
    // one placed at 1600 arrives at 2100, after the book of 2000 replaced that of 1600
    const late = await v.placeOrder({
      refId: 'r2',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'IOC',
      baseAmount: '1',
      price: '105',
    });
    t.at(2_000);
    v.observe(book(2_000, lv([99, 1]), lv([103, 1])));
    expect((await v.getOrder(late.orderId)).status).toBe('SUBMITTED');
    t.at(2_500);
    v.observe(book(2_500, lv([99, 1]), lv([101, 1])));
    expect((await v.getOrder(late.orderId)).averagePrice?.toFixed()).toBe('103');
  });

  it('executes a quote the platform offered until it expires, and a restart still finds the execution by ref_id', async () => {
    const store = memoryStore();
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 10, latencyMs: 0, now: t.now, store });
    v.observe({ kind: 'quote', market: 'BTCUSD', at: 1_000, quoteId: 'q1', side: 'BUY', price: '100', expiresAt: 2_000 });
    const x = await v.executeQuote({ refId: 'x-1', quoteId: 'q1', quoteAmount: '50' });
    expect([x.executionId, x.status, x.baseAmount.toFixed(), x.quoteAmount.toFixed()]).toEqual(['paper-q1', 'SETTLED', '0.5', '50']);
    t.at(2_001);
    await expect(v.executeQuote({ refId: 'x-2', quoteId: 'q1', quoteAmount: '50' })).rejects.toMatchObject({ code: 'EXPIRED' });
    const again = await PaperVenue.open({ funding: {}, feeBps: 10, latencyMs: 0, now: t.now, store });
    expect((await again.findQuoteExecutionByRef('x-1'))?.executionId).toBe('paper-q1');
    expect(await balances(again)).toEqual({ USD: '950/0', BTC: '0.5/0' });
  });

  it('refuses transfers: paper mode moves no money', async () => {
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: () => 1 });
    const refusal = await v
      .transfer({ refId: 't', asset: 'USD', amount: '1', fromProfileId: 'a', toProfileId: 'b' })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(VenueRejectedError);
    expect((refusal as Error).message).toMatch(/paper mode moves no money/);
  });

  it('refuses a damaged kept account, naming journal.path and the fix', async () => {
    for (const text of [
      '{not json',
      JSON.stringify({ version: 1, seq: 0, balances: { USD: 'lots' }, orders: [], fills: [], executions: [] }),
    ]) {
      const store: PaperStateStore = { load: () => text, save: () => undefined };
      const refusal = await PaperVenue.open({ funding: {}, feeBps: 0, latencyMs: 0, now: () => 1, store }).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(InputError);
      expect((refusal as Error).message).toMatch(
        /^journal\.path: the paper account kept in this journal cannot be read .*point journal\.path at a new file/,
      );
    }
    expect(PAPER_STATE_META_KEY).toBe('paper_account');
  });

  it('keeps the newest closed orders whatever their age (a restart reads them back), and drops old fills', async () => {
    const store = memoryStore();
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '100000' }, feeBps: 0, latencyMs: 0, now: t.now, store, retentionMs: 1_000 });
    v.observe(book(1_000, lv([99, 1_000]), lv([100, 1_000])));
    for (let i = 1; i <= 70; i++)
      await v.placeOrder({
        refId: `r-${i}`,
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'IOC',
        baseAmount: '1',
        price: '100',
      });
    t.at(1_000_000);
    await v.placeOrder({ refId: 'r-71', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '50' });
    const kept = JSON.parse(store.text()!) as { orders: Array<{ id: string }>; fills: unknown[] };
    // the open one and the 64 newest closed (paper-7 … paper-70); the fills are past the retention
    expect(kept.orders.map((o) => o.id)).toEqual([...Array.from({ length: 64 }, (_, i) => `paper-${i + 7}`), 'paper-71']);
    expect(kept.fills).toEqual([]);
    const again = await PaperVenue.open({ funding: {}, feeBps: 0, latencyMs: 0, now: t.now, store });
    expect((await again.getOrder('paper-70')).refId).toBe('r-70');
    await expect(again.getOrder('paper-6')).rejects.toThrow(/paper order paper-6 not found/);
  });

  it('a failed save fails the write that made it and is reported for a book; the next save writes the whole account', async () => {
    let broken = false;
    let text: string | undefined;
    const store: PaperStateStore = {
      load: () => text,
      save: (v) => {
        if (broken) throw new Error('disk full');
        text = v;
      },
    };
    const reported: unknown[] = [];
    const t = clock();
    const v = await PaperVenue.open({
      funding: { USD: '1000' },
      feeBps: 0,
      latencyMs: 0,
      now: t.now,
      store,
      onSaveError: (e) => reported.push(e),
    });
    v.observe(book(1_000, lv([99, 5]), lv([100, 5])));
    broken = true;
    await expect(
      v.placeOrder({ refId: 'r-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '95' }),
    ).rejects.toThrow('disk full');
    v.observe(book(2_000, lv([99, 5]), lv([95, 5])));
    await v.flush();
    expect(reported.map((e) => (e as Error).message)).toEqual(['disk full', 'disk full']);
    broken = false;
    await v.placeOrder({ refId: 'r-2', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '90' });
    const kept = JSON.parse(text!) as { orders: Array<{ id: string; status: string }>; balances: Record<string, string> };
    expect(kept.orders.map((o) => [o.id, o.status])).toEqual([
      ['paper-1', 'FILLED'],
      ['paper-2', 'OPEN'],
    ]);
    expect(kept.balances).toEqual({ USD: '905', BTC: '1' });
  });

  it('fills a resting limit on a public trade at or through its price (each trade once), as a replay with trades does', async () => {
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: t.now });
    v.observe(book(1_000, lv([90, 5]), lv([100, 5])));
    await v.placeOrder({ refId: 'r', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '95' });
    // a trade before the order reached the venue, and one above its price, fill nothing
    v.observeTrades('BTCUSD', [
      { matchNumber: 'm0', price: '94', amount: '1', at: 999 },
      { matchNumber: 'm1', price: '96', amount: '1', at: 1_001 },
    ]);
    expect(await v.listFills(0)).toEqual([]);
    // 0.4 at 95, then the same trade polled again, then 5 at 94: 0.4 and 0.6 at 95
    v.observeTrades('BTCUSD', [{ matchNumber: 'm2', price: '95', amount: '0.4', at: 1_002 }]);
    v.observeTrades('BTCUSD', [
      { matchNumber: 'm2', price: '95', amount: '0.4', at: 1_002 },
      { matchNumber: 'm3', price: '94', amount: '5', at: 1_003 },
    ]);
    expect(brief(await v.listFills(0))).toEqual([
      ['paper-1-f1', 'paper-1', '0.4', '95', '0'],
      ['paper-1-f2', 'paper-1', '0.6', '95', '0'],
    ]);
    expect((await v.getOrder('paper-1')).status).toBe('FILLED');
  });

  it('gives overlapping trade polls to the engine once each: older ones skipped, two trades at one time both counted', async () => {
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: t.now });
    v.observe(book(1_000, lv([90, 5]), lv([100, 5])));
    await v.placeOrder({ refId: 'r', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '3', price: '95' });
    const a = { matchNumber: 'a', price: '95', amount: '1', at: 1_005 };
    const b = { matchNumber: 'b', price: '95', amount: '1', at: 1_005 };
    v.observeTrades('BTCUSD', [a]);
    // the next poll returns a again with b (same time) and an older trade the tape had before
    v.observeTrades('BTCUSD', [{ matchNumber: 'old', price: '90', amount: '9', at: 1_001 }, a, b]);
    v.observeTrades('BTCUSD', [a, b]);
    expect((await v.getOrder('paper-1')).amountFilled.toFixed()).toBe('2');
  });

  it('tells a fill on fills$ only once the kept account holds it (the journal never gets ahead of the account)', async () => {
    const store = memoryStore();
    const t = clock();
    const v = await PaperVenue.open({ funding: { USD: '1000' }, feeBps: 0, latencyMs: 0, now: t.now, store });
    const keptWhenTold: boolean[] = [];
    v.fills$.subscribe((fills) => keptWhenTold.push(...fills.map((f) => store.text()!.includes(`"fillId":"${f.fillId}"`))));
    v.observe(book(1_000, lv([90, 5]), lv([100, 5])));
    await v.placeOrder({ refId: 'r-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', baseAmount: '1', price: '100' });
    await v.placeOrder({ refId: 'r-2', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '95' });
    v.observe(book(2_000, lv([90, 5]), lv([94, 5])));
    await v.flush();
    await Promise.resolve();
    expect(keptWhenTold).toEqual([true, true]);
  });

  it('rebuilds its matching engine past compactAfter with only what is live: the same account, orders, fills and ids', async () => {
    const store = memoryStore();
    const t = clock();
    const notes: string[] = [];
    const v = await PaperVenue.open({
      funding: { USD: '10000' },
      feeBps: 0,
      latencyMs: 0,
      now: t.now,
      store,
      compactAfter: 6,
      onNote: (n) => notes.push(n),
    });
    v.observe(book(1_000, lv([90, 100]), lv([100, 100])));
    // one buy rests at 95 (filled 1 of 3 by a later book), then IOC buys fill at 100 until the engine is rebuilt
    await v.placeOrder({ refId: 'rest', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '3', price: '95' });
    t.at(1_500);
    v.observe(book(1_500, lv([90, 100]), lv([94, 1], [100, 100])));
    for (let i = 1; i <= 6; i++)
      await v.placeOrder({
        refId: `ioc-${i}`,
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'IOC',
        baseAmount: '1',
        price: '100',
      });
    await v.flush();
    expect(v.engineRebuilds).toBe(2); // before ioc-3 and before ioc-6
    expect(notes).toEqual([]);
    // 1 at 95 and 6 at 100: 10000 - 95 - 600 = 9305, of which 190 held for the 2 left at 95
    expect(await balances(v)).toEqual({ USD: '9115/190', BTC: '7/0' });
    expect((await v.listOpenOrders()).map((o) => [o.orderId, o.amountFilled.toFixed()])).toEqual([['paper-1', '1']]);
    expect((await v.listFills(0)).map((f) => f.fillId)).toEqual([
      'paper-1-f1',
      'paper-2-f1',
      'paper-3-f1',
      'paper-4-f1',
      'paper-5-f1',
      'paper-6-f1',
      'paper-7-f1',
    ]);
    // the rebuilt engine has the last book (the IOC buys after the rebuild filled on it) and still fills the rest of paper-1
    t.at(3_000);
    v.observe(book(3_000, lv([90, 100]), lv([93, 5])));
    await v.flush();
    const done = await v.getOrder('paper-1');
    expect([done.status, done.amountFilled.toFixed()]).toEqual(['FILLED', '3']);
    expect(await balances(v)).toEqual({ USD: '9115/0', BTC: '9/0' });
  });
});
