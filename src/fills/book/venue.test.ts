/**
 * The recorded-book fill model with fills computed by hand: a market order walks three levels, a
 * thin book fills part of an order and cancels the rest, our fills take liquidity until the next
 * recorded book, a resting limit fills at its own price when the opposite side crosses it, and an
 * order placed with a latency meets the book in force when it arrives; a recorded trade at or through a
 * resting limit fills it up to the trade amount; stops wait for the book mid to reach them; GTT orders
 * expire; a post-only order that would take is rejected; transfers move funds between profiles.
 */
import { describe, expect, it } from 'vitest';
import { D, type PriceLevel } from '../../core/index.js';
import { RecordedBookVenue } from './venue.js';
import { VenueRejectedError, type VenueFill } from '../../venue/venue.js';

const lv = (...pairs: [number, number][]): PriceLevel[] => pairs.map(([price, amount]) => ({ price, amount }));

function venue(o: { feeBps?: number; latencyMs?: number; funding?: Record<string, string> } = {}) {
  let now = 1_000;
  const v = new RecordedBookVenue({
    funding: o.funding ?? { USD: '10000', BTC: '10' },
    feeBps: o.feeBps ?? 0,
    latencyMs: o.latencyMs ?? 0,
    now: () => now,
  });
  return { v, at: (t: number) => (now = t) };
}

const brief = (fs: readonly VenueFill[]) => fs.map((f) => [f.amount.toFixed(), f.price.toFixed(), f.commission.toFixed()]);

async function balance(v: RecordedBookVenue, asset: string): Promise<{ available: string; trading: string }> {
  const b = (await v.balances()).find((x) => x.asset === asset)!;
  return { available: b.available.toFixed(), trading: b.trading.toFixed() };
}

const trade = (at: number, price: string, amount: string, matchNumber?: string) => ({
  at,
  price,
  amount,
  ...(matchNumber && { matchNumber }),
});

describe('RecordedBookVenue', () => {
  it('a MARKET buy walks three ask levels, one fill per level at its price', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([100, 1], [101, 2], [102, 3]));
    // 353 USD: 1 × 100 + 2 × 101 = 302, then 51 / 102 = 0.5 on the third level
    const o = await v.placeOrder({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '353' });
    expect(o.status).toBe('FILLED');
    expect(brief(v.allFills())).toEqual([
      ['1', '100', '0'],
      ['2', '101', '0'],
      ['0.5', '102', '0'],
    ]);
    expect(o.amountFilled.toFixed()).toBe('3.5');
    expect(o.averagePrice!.toFixed(6)).toBe('100.857143');
    expect(await balance(v, 'USD')).toEqual({ available: '9647', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '13.5', trading: '0' });
  });

  it('a MARKET sell walks three bid levels and pays the fee of each fill', async () => {
    const { v } = venue({ feeBps: 10 });
    v.book('BTCUSD', 1_000, lv([99, 1], [98, 1], [97, 2]), lv([100, 1]));
    const o = await v.placeOrder({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '3' });
    expect(o.status).toBe('FILLED');
    // fees 10 bps: 0.099 + 0.098 + 0.097 = 0.294; proceeds 294 - 0.294
    expect(brief(v.allFills())).toEqual([
      ['1', '99', '0.099'],
      ['1', '98', '0.098'],
      ['1', '97', '0.097'],
    ]);
    expect(await balance(v, 'USD')).toEqual({ available: '10293.706', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '7', trading: '0' });
  });

  it('a thin book fills part of a MARKET order; the rest is cancelled and its funds released', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1], [98, 1], [97, 2]), lv([100, 1]));
    const o = await v.placeOrder({ refId: 'p', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '5' });
    expect(o.status).toBe('CANCELLED');
    expect(o.amountFilled.toFixed()).toBe('4');
    expect(brief(v.allFills())).toEqual([
      ['1', '99', '0'],
      ['1', '98', '0'],
      ['2', '97', '0'],
    ]);
    // 99 + 98 + 194 = 391 received; 1 BTC of the 5 was not sold and is free again
    expect(await balance(v, 'USD')).toEqual({ available: '10391', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '6', trading: '0' });
    // the book is empty until the next recorded one: a second sell finds nothing
    const again = await v.placeOrder({ refId: 'p2', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1' });
    expect(again.status).toBe('CANCELLED');
    expect(again.amountFilled.toFixed()).toBe('0');
    expect(v.takeClosed().map((x) => x.refId)).toEqual(['p', 'p2']);
  });

  it('a MARKET buy larger than the book spends what the levels hold and keeps the rest', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([100, 1], [101, 1]));
    const o = await v.placeOrder({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500' });
    expect(o.status).toBe('CANCELLED');
    expect(o.amountFilled.toFixed()).toBe('2');
    expect(await balance(v, 'USD')).toEqual({ available: '9799', trading: '0' });
  });

  it('a resting LIMIT buy fills at its own price when later asks cross it, up to what they hold', async () => {
    const { v, at } = venue({ feeBps: 10 });
    v.book('BTCUSD', 1_000, lv([94, 1]), lv([100, 1]));
    const o = await v.placeOrder({ refId: 'l', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '95' });
    expect(o.status).toBe('OPEN');
    // held: 1 × 95 plus the 10 bps fee
    expect(await balance(v, 'USD')).toEqual({ available: '9904.905', trading: '95.095' });
    at(2_000);
    const first = v.book('BTCUSD', 2_000, lv([93, 1]), lv([94.5, 0.4], [95, 0.3], [96, 5]));
    expect(brief(first)).toEqual([
      ['0.4', '95', '0.038'],
      ['0.3', '95', '0.0285'],
    ]);
    expect((await v.getOrder(o.orderId)).status).toBe('OPEN');
    at(3_000);
    expect(v.book('BTCUSD', 3_000, lv([93, 1]), lv([96, 1])).length).toBe(0);
    at(4_000);
    const last = v.book('BTCUSD', 4_000, lv([93, 1]), lv([94, 1]));
    expect(brief(last)).toEqual([['0.3', '95', '0.0285']]);
    const done = await v.getOrder(o.orderId);
    expect(done.status).toBe('FILLED');
    expect(done.amountFilled.toFixed()).toBe('1');
    // 95 + 0.095 fee, nothing left held
    expect(await balance(v, 'USD')).toEqual({ available: '9904.905', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '11', trading: '0' });
  });

  it('a marketable LIMIT takes the levels that cross it and rests the remainder; IOC cancels it', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([100, 1], [101, 1], [103, 1]));
    const gtc = await v.placeOrder({ refId: 'g', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '3', price: '101' });
    expect(brief(v.allFills())).toEqual([
      ['1', '100', '0'],
      ['1', '101', '0'],
    ]);
    expect(gtc.status).toBe('OPEN');
    const ioc = await v.placeOrder({
      refId: 'i',
      market: 'BTCUSD',
      side: 'SELL',
      type: 'LIMIT',
      baseAmount: '2',
      price: '98',
      timeInForce: 'IOC',
    });
    expect(ioc.status).toBe('CANCELLED');
    expect(ioc.amountFilled.toFixed()).toBe('1');
  });

  it('with a latency an order meets the book in force when it arrives, not the one it was decided on', async () => {
    const { v, at } = venue({ latencyMs: 50 });
    v.book('BTCUSD', 1_000, lv([100, 1]), lv([101, 1]));
    const o = await v.placeOrder({ refId: 'x', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1' });
    expect(o.status).toBe('SUBMITTED');
    at(1_040);
    expect(v.book('BTCUSD', 1_040, lv([90, 1]), lv([91, 1]))).toEqual([]);
    at(1_060);
    // arrived at 1,050: the book of 1,040 was in force, not the one recorded at 1,060
    v.book('BTCUSD', 1_060, lv([80, 1]), lv([81, 1]));
    expect(brief(v.allFills())).toEqual([['1', '90', '0']]);
    expect(v.allFills()[0]!.at).toBe(1_050);
    expect((await v.getOrder(o.orderId)).status).toBe('FILLED');
  });

  it('executes a recorded quote at its price 1 ms before its expiry, and refuses it 1 ms after', async () => {
    const { v, at } = venue();
    const quote = { quoteId: 'q1', market: 'BTCUSD', side: 'BUY' as const, price: '100.10', expiresAt: 5_000 };
    v.quote(quote);
    at(4_999);
    expect((await v.listQuotes('BTCUSD')).map((q) => q.quoteId)).toEqual(['q1']);
    const x = await v.executeQuote({ refId: 'e1', quoteId: 'q1', quoteAmount: '1001' });
    // 1001 / 100.10 = 10 BTC exactly, at the quote's price, no fee
    expect([x.status, x.price.toFixed(), x.baseAmount.toFixed(), x.quoteAmount.toFixed()]).toEqual(['SETTLED', '100.1', '10', '1001']);
    expect(await balance(v, 'USD')).toEqual({ available: '8999', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '20', trading: '0' });
    // a repeated ref_id returns the execution made with it
    expect((await v.executeQuote({ refId: 'e1', quoteId: 'q1', quoteAmount: '1001' })).executionId).toBe(x.executionId);
    at(5_001);
    expect(await v.listQuotes('BTCUSD')).toEqual([]);
    await expect(v.executeQuote({ refId: 'e2', quoteId: 'q1', quoteAmount: '1001' })).rejects.toThrow(
      /quote q1 expired at 1970-01-01T00:00:05\.000Z/,
    );
    expect(await balance(v, 'USD')).toEqual({ available: '8999', trading: '0' });
    await expect(v.executeQuote({ refId: 'e3', quoteId: 'nope', quoteAmount: '1' })).rejects.toThrow(/not in the recording/);
  });

  it('a quote execution with a latency is judged by when it reaches the venue', async () => {
    const { v, at } = venue({ latencyMs: 2 });
    v.quote({ quoteId: 'q', market: 'BTCUSD', side: 'SELL', price: '99.99', expiresAt: 5_000 });
    at(4_999);
    // arrives at 5,001: 1 ms after the expiry
    await expect(v.executeQuote({ refId: 'late', quoteId: 'q', baseAmount: '1' })).rejects.toThrow(/expired/);
    at(4_997);
    const x = await v.executeQuote({ refId: 'ok', quoteId: 'q', baseAmount: '1' });
    expect([x.quoteAmount.toFixed(), v.allQuoteExecutions()[0]!.at]).toEqual(['99.99', 4_999]);
  });

  it('refuses by the platform order rules, for funds, and unsupported order types, naming the fix', async () => {
    const { v } = venue({ funding: { USD: '50' } });
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([100, 1]));
    await expect(
      v.placeOrder({ refId: 'r1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '99.001' }),
    ).rejects.toThrow(/price: 99.001 has more precision than allowed/);
    await expect(v.placeOrder({ refId: 'r2', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '99' })).rejects.toThrow(
      VenueRejectedError,
    );
    await expect(
      v.placeOrder({ refId: 'r3', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '90' }),
    ).rejects.toThrow(/SELL BTCUSD needs 1 BTC, 0 available/);
    await expect(
      v.placeOrder({ refId: 'r4', market: 'BTCUSD', side: 'BUY', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '90' }),
    ).rejects.toThrow(/sell-only/);
    expect(await v.listOpenOrders()).toEqual([]);
    // a repeated ref_id returns the order made with it
    const a = await v.placeOrder({ refId: 'ok', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' });
    const b = await v.placeOrder({ refId: 'ok', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' });
    expect(b.orderId).toBe(a.orderId);
    expect(new D(a.amountFilled).toFixed()).toBe('0.1');
  });

  it('a resting LIMIT fills at its own price when a recorded trade goes at or through it, up to the trade amount', async () => {
    const { v, at } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([101, 1]));
    await v.placeOrder({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '2', price: '100' });
    await v.placeOrder({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '102' });
    // before the orders reached the venue, or above the buy's price and below the sell's: nothing
    expect(v.trade('BTCUSD', trade(999, '95', '5', 'm0'))).toEqual([]);
    expect(v.trade('BTCUSD', trade(1_500, '100.01', '5', 'm1'))).toEqual([]);
    // at the buy's price: 0.5 of the trade's 0.5; through it (99.5): 1 more; the same trade again fills nothing
    at(2_000);
    expect(brief(v.trade('BTCUSD', trade(1_600, '100', '0.5', 'm2')))).toEqual([['0.5', '100', '0']]);
    expect(brief(v.trade('BTCUSD', trade(1_700, '99.5', '1', 'm3')))).toEqual([['1', '100', '0']]);
    expect(v.trade('BTCUSD', trade(1_700, '99.5', '1', 'm3'))).toEqual([]);
    // a trade at 103 crosses the sell at 102 (1 of 4) and the buy's last 0.5 is left resting
    expect(brief(v.trade('BTCUSD', trade(1_800, '103', '4', 'm4')))).toEqual([['1', '102', '0']]);
    expect(v.allFills().map((f) => f.at)).toEqual([1_600, 1_700, 1_800]);
    expect((await v.listOpenOrders()).map((o) => [o.refId, o.amountFilled.toFixed()])).toEqual([['b', '1.5']]);
    // USD: 10000 - 150 spent - 50 still held for the last 0.5 + 102 received
    expect(await balance(v, 'USD')).toEqual({ available: '9902', trading: '50' });
    expect(await balance(v, 'BTC')).toEqual({ available: '10.5', trading: '0' });
  });

  it('a trade fills the best-priced resting order first, then the oldest, until its amount is used', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([90, 1]), lv([110, 1]));
    await v.placeOrder({ refId: 'low', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '99' });
    await v.placeOrder({ refId: 'old', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });
    await v.placeOrder({ refId: 'new', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' });
    // 1.5 at 98: the two at 100 first (1 to the older, 0.5 to the newer), nothing left for 99
    const fills = v.trade('BTCUSD', trade(1_500, '98', '1.5'));
    const ref = new Map((await Promise.all(['low', 'old', 'new'].map((r) => v.findOrderByRef(r)))).map((o) => [o!.orderId, o!.refId]));
    expect(fills.map((f) => [ref.get(f.orderId), f.amount.toFixed(), f.price.toFixed()])).toEqual([
      ['old', '1', '100'],
      ['new', '0.5', '100'],
    ]);
    expect((await v.findOrderByRef('old'))!.status).toBe('FILLED');
  });

  it("a STOP_MARKET waits (base held) until a recorded book's mid is at or below its stop, then walks the bids", async () => {
    const { v, at } = venue({ funding: { USD: '0', BTC: '3' } });
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([101, 1]));
    const o = await v.placeOrder({
      refId: 'stop',
      market: 'BTCUSD',
      side: 'SELL',
      type: 'STOP_MARKET',
      baseAmount: '2',
      stopPrice: '95.00',
    });
    expect(o.status).toBe('OPEN');
    expect(await balance(v, 'BTC')).toEqual({ available: '1', trading: '2' });
    // mid 96 > 95: waits, even though the bids cross nothing; trades do not fire it
    at(2_000);
    expect(v.book('BTCUSD', 2_000, lv([95, 5]), lv([97, 1]))).toEqual([]);
    expect(v.trade('BTCUSD', trade(2_500, '90', '9'))).toEqual([]);
    // mid 95: fires and sells 2 walking 94 × 1.5 and 93 × 1
    at(3_000);
    expect(brief(v.book('BTCUSD', 3_000, lv([94, 1.5], [93, 1]), lv([96, 1])))).toEqual([
      ['1.5', '94', '0'],
      ['0.5', '93', '0'],
    ]);
    expect((await v.findOrderByRef('stop'))!.status).toBe('FILLED');
    expect(await balance(v, 'USD')).toEqual({ available: '187.5', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '1', trading: '0' });
  });

  it('a fired STOP_LIMIT is a limit sell: takes the bids at or above its price and rests the rest', async () => {
    const { v, at } = venue({ funding: { USD: '0', BTC: '3' } });
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([101, 1]));
    await v.placeOrder({
      refId: 'sl',
      market: 'BTCUSD',
      side: 'SELL',
      type: 'STOP_LIMIT',
      baseAmount: '2',
      stopPrice: '95.00',
      price: '93.50',
    });
    at(2_000);
    // mid 94.5 ≤ 95 fires it: 94 × 0.5 fills, 93 is under the limit; 1.5 rests at 93.50
    expect(brief(v.book('BTCUSD', 2_000, lv([94, 0.5], [93, 5]), lv([95, 1])))).toEqual([['0.5', '94', '0']]);
    expect((await v.listOpenOrders()).map((o) => [o.refId, o.status, o.amountFilled.toFixed()])).toEqual([['sl', 'OPEN', '0.5']]);
    expect(brief(v.trade('BTCUSD', trade(2_500, '93.5', '4')))).toEqual([['1.5', '93.5', '0']]);
  });

  it('a GTT order is cancelled at its expiry with its funds released; one expiring within 10 s is refused', async () => {
    const { v, at } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([101, 1]));
    await expect(
      v.placeOrder({
        refId: 'soon',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        baseAmount: '1',
        price: '100',
        timeInForce: 'GTT',
        expiresAt: 11000,
      }),
    ).rejects.toThrow(/more than 10 s after it is placed/);
    await v.placeOrder({
      refId: 'gtt',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'LIMIT',
      baseAmount: '1',
      price: '100',
      timeInForce: 'GTT',
      expiresAt: 20000,
    });
    expect(await balance(v, 'USD')).toEqual({ available: '9900', trading: '100' });
    at(20_000);
    v.arrive(19_999);
    expect((await v.findOrderByRef('gtt'))!.status).toBe('OPEN');
    // a book at the expiry crossing it comes too late: cancelled first, nothing fills
    expect(v.book('BTCUSD', 20_000, lv([99, 1]), lv([99.5, 1]))).toEqual([]);
    expect((await v.findOrderByRef('gtt'))!.status).toBe('CANCELLED');
    expect(await balance(v, 'USD')).toEqual({ available: '10000', trading: '0' });
  });

  it('a POST_ONLY_LIMIT that would take is rejected; one that would not rests and fills as a limit', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([101, 1]));
    const taker = await v.placeOrder({
      refId: 'po1',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'POST_ONLY_LIMIT',
      baseAmount: '1',
      price: '101',
    });
    expect(taker.status).toBe('REJECTED');
    expect(v.allFills()).toEqual([]);
    const maker = await v.placeOrder({
      refId: 'po2',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'POST_ONLY_LIMIT',
      baseAmount: '1',
      price: '100',
    });
    expect(maker.status).toBe('OPEN');
    expect(brief(v.book('BTCUSD', 2_000, lv([98, 1]), lv([100, 3])))).toEqual([['1', '100', '0']]);
    expect(await balance(v, 'USD')).toEqual({ available: '9900', trading: '0' });
  });

  it('moves funds to another profile under the transfer limits, once per ref_id, and refuses what the sandbox refuses', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([101, 1]));
    const t = await v.transfer({ refId: 't1', asset: 'USD', amount: '100.00', fromProfileId: 'default', toProfileId: 'savings' });
    expect(t.status).toBe('COMPLETED');
    expect(await v.transfer({ refId: 't1', asset: 'USD', amount: '100.00', fromProfileId: 'default', toProfileId: 'savings' })).toEqual(t);
    expect(await v.findTransferByRef('t1')).toEqual(t);
    expect(await balance(v, 'USD')).toEqual({ available: '9900', trading: '0' });
    // back again from the profile it paid
    await v.transfer({ refId: 't2', asset: 'USD', amount: '40', fromProfileId: 'savings', toProfileId: 'default' });
    expect(await balance(v, 'USD')).toEqual({ available: '9940', trading: '0' });
    // the sandbox's limits, with what the two transfers used of the daily one
    expect((await v.transferLimits()).map((l) => [l.periodSeconds, l.limit, l.remaining])).toEqual([
      ['0', '1000000', '1000000'],
      ['86400', '5000000', '4999860'],
    ]);
    const err = await v
      .transfer({ refId: 't3', asset: 'USD', amount: '20000', fromProfileId: 'default', toProfileId: 'savings' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueRejectedError);
    expect(err).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: expect.stringMatching(/insufficient USD funds .*20000 needed, 9940 available/),
    });
  });
});
