import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/index.js';
import { PointMarket } from './market.js';
import { SimPlatform } from '../../sim/sim.js';
import { PointVenue } from './venue.js';
import { SimVenue } from '../../venue/sim-venue.js';
import { VenueRejectedError, type TransferRequest, type Venue } from '../../venue/venue.js';

const T0 = Date.UTC(2025, 5, 1);

/** The backtest's venue and the paper venue, funded alike, each with a second profile to pay. */
function venues(): { point: PointVenue; sim: SimVenue; simOther: string } {
  const market = new PointMarket({ funding: { USD: '6000000' } });
  market.point('BTCUSD', T0, 60_000);
  const platform = new SimPlatform({ clock: new TestClock(T0), seed: 42, funding: { USD: '6000000' } });
  const simOther = platform.profiles.create('savings', undefined, platform.now()).id;
  return { point: new PointVenue(market), sim: new SimVenue(platform), simOther };
}

/** How a venue answered a transfer: made, or refused with code, words and details. */
async function answer(venue: Venue, req: TransferRequest): Promise<unknown> {
  try {
    await venue.transfer(req);
    return 'made';
  } catch (e) {
    if (!(e instanceof VenueRejectedError)) throw e;
    return { code: e.code, message: e.message, details: e.details };
  }
}

const usdOf = async (venue: Venue): Promise<string | undefined> =>
  (await venue.balances()).find((b) => b.asset === 'USD')?.available.toFixed();

describe('PointVenue transfers answer as the sandbox does', () => {
  it('refuses a transfer over its remaining limit with the same code, words and details as SimVenue, and keeps the same balances and limits', async () => {
    const { point, sim, simOther } = venues();
    const both = async (refId: string, amount: string): Promise<unknown> => {
      const req = { refId, asset: 'USD', amount, fromProfileId: 'default' };
      const [p, s] = [await answer(point, { ...req, toProfileId: 'savings' }), await answer(sim, { ...req, toProfileId: simOther })];
      expect(p).toEqual(s);
      return p;
    };
    expect(await both('once', '1000000.01')).toMatchObject({ code: 'TRANSFER_LIMIT_EXCEEDED', details: { period_seconds: '0' } });
    for (let i = 0; i < 4; i++) expect(await both(`t${i}`, '1000000')).toBe('made');
    expect(await both('left', '999999.99')).toBe('made');
    expect(await both('over', '0.02')).toMatchObject({
      code: 'TRANSFER_LIMIT_EXCEEDED',
      details: { period_seconds: '86400', remaining: '0.01' },
    });
    expect(await usdOf(point)).toBe(await usdOf(sim));
    expect(await point.transferLimits()).toEqual(await sim.transferLimits());
  });

  it('returns the same transfer for a repeated ref_id and finds it by ref_id', async () => {
    const { point } = venues();
    const req = { refId: 'r1', asset: 'USD', amount: '10', fromProfileId: 'default', toProfileId: 'savings' };
    const t = await point.transfer(req);
    expect(t).toMatchObject({ refId: 'r1', status: 'COMPLETED' });
    expect((await point.transfer(req)).transferId).toBe(t.transferId);
    expect(await point.findTransferByRef('r1')).toEqual(t);
    expect(await point.findTransferByRef('r2')).toBeUndefined();
    expect(await usdOf(point)).toBe('5999990');
    expect(point.market.balance('USD', 'savings').available.toFixed()).toBe('10');
  });
});

describe('PointVenue orders as the Venue port speaks of them', () => {
  it("gives the fields (and their order) of the sandbox mapping; a filled order's average price is its fill's price", async () => {
    const market = new PointMarket({ funding: { USD: '1000' }, feeBps: 10 });
    const venue = new PointVenue(market);
    market.point('BTCUSD', T0, 30_000.5);
    const buy = venue.placeOrderSync({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100' });
    const limit = venue.placeOrderSync({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.001', price: '29000' });
    expect(JSON.stringify(buy)).toBe(
      `{"orderId":"${buy.orderId}","refId":"a","market":"BTCUSD","side":"BUY","type":"MARKET","status":"OPEN","quoteAmount":"100","amountFilled":"0","createdAt":${T0}}`,
    );
    market.point('BTCUSD', T0 + 60_000, 30_001.37);
    const filled = venue.getOrderSync(buy.orderId);
    // 100 less the 0.1 fee, over 30001.37, rounded down to 8 decimals
    expect(filled).toMatchObject({ status: 'FILLED', amountFilled: expect.anything(), averagePrice: expect.anything() });
    expect(filled.amountFilled.toFixed()).toBe('0.00332984');
    expect(filled.averagePrice?.toFixed()).toBe('30001.37');
    expect(venue.getOrderSync(limit.orderId).averagePrice).toBeUndefined();
    market.point('BTCUSD', T0 + 120_000, 28_000.37);
    const rested = venue.getOrderSync(limit.orderId);
    expect(JSON.stringify(rested)).toBe(
      `{"orderId":"${limit.orderId}","refId":"b","market":"BTCUSD","side":"BUY","type":"LIMIT","status":"FILLED","baseAmount":"0.001","price":"29000","amountFilled":"0.001","averagePrice":"29000","createdAt":${T0}}`,
    );
  });

  it("gives each order's and fill's money as text that is its Decimals' toFixed, the executors' reading", async () => {
    const market = new PointMarket({ funding: { USD: '5000', BTC: '0.5' }, feeBps: 7, slippageBps: 3 });
    const venue = new PointVenue(market);
    market.point('BTCUSD', T0, 30_000.5);
    const placed = [
      venue.placeOrderSync({ refId: 'q', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.10' }),
      venue.placeOrderSync({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.00123400', price: '30050.10' }),
      venue.placeOrderSync({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.0100' }),
      venue.placeOrderSync({ refId: 'l', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '0.002', price: '30100.50' }),
    ];
    for (const o of placed) expect(o.text).toEqual({ amountFilled: o.amountFilled.toFixed(), averagePrice: undefined });
    market.point('BTCUSD', T0 + 60_000, 29_999.99);
    market.point('BTCUSD', T0 + 120_000, 30_100.75);
    const fills = await venue.listFills(T0);
    expect(fills).toHaveLength(4);
    for (const f of fills)
      expect(f.text).toEqual({ amount: f.amount.toFixed(), price: f.price.toFixed(), commission: f.commission.toFixed() });
    for (const o of placed) {
      const now = venue.getOrderSync(o.orderId);
      expect(now.status).toBe('FILLED');
      expect(now.text).toEqual({ amountFilled: now.amountFilled.toFixed(), averagePrice: now.averagePrice?.toFixed() });
    }
    // the port's fields, written as JSON as a plain fill object was
    expect(Object.keys(JSON.parse(JSON.stringify(fills[0])) as object)).toEqual([
      'fillId',
      'orderId',
      'market',
      'side',
      'amount',
      'price',
      'commission',
      'commissionAsset',
      'at',
    ]);
  });
});
