/**
 * The recorded-book fill model with fills computed by hand: a market order walks three levels, a
 * thin book fills part of an order and cancels the rest, our fills take liquidity until the next
 * recorded book, a resting limit fills at its own price when the opposite side crosses it, and an
 * order placed with a latency meets the book in force when it arrives.
 */
import { describe, expect, it } from 'vitest';
import { D, type PriceLevel } from '../core/index.js';
import { RecordedBookVenue } from './recorded-book-venue.js';
import { VenueRejectedError, type VenueFill } from './venue.js';

const lv = (...pairs: [number, number][]): PriceLevel[] => pairs.map(([price, amount]) => ({ price, amount }));

function venue(o: { feeBps?: number; latencyMs?: number; funding?: Record<string, string> } = {}) {
  let now = 1_000;
  const v = new RecordedBookVenue({ funding: o.funding ?? { USD: '10000', BTC: '10' }, feeBps: o.feeBps ?? 0, latencyMs: o.latencyMs ?? 0, now: () => now });
  return { v, at: (t: number) => (now = t) };
}

const brief = (fs: readonly VenueFill[]) => fs.map((f) => [f.amount.toFixed(), f.price.toFixed(), f.commission.toFixed()]);

async function balance(v: RecordedBookVenue, asset: string): Promise<{ available: string; trading: string }> {
  const b = (await v.balances()).find((x) => x.asset === asset)!;
  return { available: b.available.toFixed(), trading: b.trading.toFixed() };
}

describe('RecordedBookVenue', () => {
  it('a MARKET buy walks three ask levels, one fill per level at its price', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1]), lv([100, 1], [101, 2], [102, 3]));
    // 353 USD: 1 × 100 + 2 × 101 = 302, then 51 / 102 = 0.5 on the third level
    const o = await v.placeOrder({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '353' });
    expect(o.status).toBe('FILLED');
    expect(brief(v.allFills())).toEqual([['1', '100', '0'], ['2', '101', '0'], ['0.5', '102', '0']]);
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
    expect(brief(v.allFills())).toEqual([['1', '99', '0.099'], ['1', '98', '0.098'], ['1', '97', '0.097']]);
    expect(await balance(v, 'USD')).toEqual({ available: '10293.706', trading: '0' });
    expect(await balance(v, 'BTC')).toEqual({ available: '7', trading: '0' });
  });

  it('a thin book fills part of a MARKET order; the rest is cancelled and its funds released', async () => {
    const { v } = venue();
    v.book('BTCUSD', 1_000, lv([99, 1], [98, 1], [97, 2]), lv([100, 1]));
    const o = await v.placeOrder({ refId: 'p', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '5' });
    expect(o.status).toBe('CANCELLED');
    expect(o.amountFilled.toFixed()).toBe('4');
    expect(brief(v.allFills())).toEqual([['1', '99', '0'], ['1', '98', '0'], ['2', '97', '0']]);
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
    expect(brief(first)).toEqual([['0.4', '95', '0.038'], ['0.3', '95', '0.0285']]);
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
    expect(brief(v.allFills())).toEqual([['1', '100', '0'], ['1', '101', '0']]);
    expect(gtc.status).toBe('OPEN');
    const ioc = await v.placeOrder({ refId: 'i', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '2', price: '98', timeInForce: 'IOC' });
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
    await expect(v.executeQuote({ refId: 'e2', quoteId: 'q1', quoteAmount: '1001' })).rejects.toThrow(/quote q1 expired at 1970-01-01T00:00:05\.000Z/);
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
    await expect(v.placeOrder({ refId: 'r1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '99.001' })).rejects.toThrow(/price: 99.001 has more precision than allowed/);
    await expect(v.placeOrder({ refId: 'r2', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '99' })).rejects.toThrow(VenueRejectedError);
    await expect(v.placeOrder({ refId: 'r3', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '90' })).rejects.toThrow(/--fill-model points/);
    expect(await v.listOpenOrders()).toEqual([]);
    // a repeated ref_id returns the order made with it
    const a = await v.placeOrder({ refId: 'ok', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' });
    const b = await v.placeOrder({ refId: 'ok', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' });
    expect(b.orderId).toBe(a.orderId);
    expect(new D(a.amountFilled).toFixed()).toBe('0.1');
  });
});
