import { describe, expect, it } from 'vitest';
import { D, TRADING_MARKETS, type Instrument } from '../../src/core/index.js';
import { tradingInstruments } from '../../src/platform/instruments.js';
import {
  TERMINAL_ORDER_STATUSES,
  VenueNotFoundError,
  VenueRejectedError,
  type Venue,
  type VenueOrder,
  type VenueQuoteExecution,
} from '../../src/venue/index.js';

/** What the contract needs from each venue under test. */
export interface VenueHarness {
  readonly venue: Venue;
  /** Moves simulated time forward (and lets the venue catch up). */
  advance(ms: number): Promise<void>;
  /** Current mid of a market (for pricing test orders). */
  mid(market: string): number;
  /** Creates another profile of the same customer and returns its id (transfer cases need one). */
  newProfile?(nickname: string): Promise<string>;
  close(): Promise<void>;
}

/** An instrument in plain strings, so venues' answers compare field by field. */
function plain(i: Instrument): Record<string, unknown> {
  return {
    market: i.market,
    base: i.base,
    quote: i.quote,
    tick: i.tick.toFixed(),
    priceDecimals: i.priceDecimals,
    baseDecimals: i.baseDecimals,
    quoteDecimals: i.quoteDecimals,
    minBaseAmount: i.minBaseAmount?.toFixed(),
    maxBaseAmount: i.maxBaseAmount?.toFixed(),
    maxNotionalUsd: { market: i.maxNotionalUsd.market.toFixed(), limit: i.maxNotionalUsd.limit.toFixed() },
  };
}

/**
 * The venue contract: every Venue implementation (SimVenue, RestVenue → local sandbox) must pass
 * it. Place, fill, cancel, balances, lookup by ref_id, idempotent writes and errors.
 */
export function venueContract(name: string, make: () => Promise<VenueHarness>): void {
  describe(`venue contract: ${name}`, () => {
    let seq = 0;
    const ref = (): string => `contract-${name}-${Date.UTC(2025, 0, 1)}-${++seq}`;

    async function withHarness(fn: (h: VenueHarness) => Promise<void>): Promise<void> {
      const h = await make();
      try {
        await fn(h);
      } finally {
        await h.close();
      }
    }

    async function until(h: VenueHarness, orderId: string, done: (o: VenueOrder) => boolean): Promise<VenueOrder> {
      for (let i = 0; i < 50; i++) {
        const o = await h.venue.getOrder(orderId);
        if (done(o)) return o;
        await h.advance(1_000);
      }
      throw new Error(`order ${orderId} did not reach the expected state`);
    }

    it('fills a market buy by quote amount and moves balances', async () => {
      await withHarness(async (h) => {
        const before = await h.venue.balances();
        const usd0 = before.find((b) => b.asset === 'USD')?.available ?? new D(0);
        const refId = ref();
        const placed = await h.venue.placeOrder({ refId, market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' });
        expect(placed.refId).toBe(refId);
        const order = await until(h, placed.orderId, (o) => TERMINAL_ORDER_STATUSES.has(o.status));
        expect(order.status).toBe('FILLED');
        expect(order.amountFilled.gt(0)).toBe(true);
        const after = await h.venue.balances();
        const usd1 = after.find((b) => b.asset === 'USD')?.available ?? new D(0);
        expect(usd0.minus(usd1).toFixed(2)).toBe('1000.00');
        expect(after.find((b) => b.asset === 'BTC')?.available.gt(0)).toBe(true);
        const fills = await h.venue.listFills(0);
        expect(fills.filter((f) => f.orderId === placed.orderId).length).toBeGreaterThan(0);
      });
    });

    it('rests a limit order away from the market, finds it by ref_id, and cancels it', async () => {
      await withHarness(async (h) => {
        const refId = ref();
        const price = new D(h.mid('BTCUSD')).times('0.9').toDecimalPlaces(0, D.ROUND_DOWN).toFixed();
        const placed = await h.venue.placeOrder({ refId, market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price });
        await until(h, placed.orderId, (o) => o.status === 'OPEN');
        expect((await h.venue.findOrderByRef(refId))?.orderId).toBe(placed.orderId);
        expect((await h.venue.listOpenOrders()).map((o) => o.orderId)).toContain(placed.orderId);
        const usd = (await h.venue.balances()).find((b) => b.asset === 'USD');
        expect(usd?.trading.gt(0)).toBe(true);
        await h.venue.cancelOrder(placed.orderId);
        const cancelled = await until(h, placed.orderId, (o) => o.status === 'CANCELLED');
        expect(cancelled.amountFilled.isZero()).toBe(true);
        expect(await h.venue.findOrderByRef(`${refId}-missing`)).toBeUndefined();
      });
    });

    it('returns the existing order when a ref_id is reused, creating no second one', async () => {
      await withHarness(async (h) => {
        const refId = ref();
        const price = new D(h.mid('BTCUSD')).times('0.9').toDecimalPlaces(0, D.ROUND_DOWN).toFixed();
        const a = await h.venue.placeOrder({ refId, market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price });
        const b = await h.venue.placeOrder({ refId, market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price });
        expect(b.orderId).toBe(a.orderId);
        expect((await h.venue.listOpenOrders()).filter((o) => o.refId === refId)).toHaveLength(1);
      });
    });

    it('rejects an order beyond the balance with a typed, non-retryable error', async () => {
      await withHarness(async (h) => {
        const attempt = h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1' });
        await expect(attempt).rejects.toBeInstanceOf(VenueRejectedError);
        await expect(
          h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1' }),
        ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      });
    });

    async function untilSettled(h: VenueHarness, id: string): Promise<VenueQuoteExecution> {
      for (let i = 0; i < 20; i++) {
        const x = await h.venue.getQuoteExecution(id);
        if (x.status === 'SETTLED') return x;
        await h.advance(500);
      }
      throw new Error(`quote execution ${id} did not settle`);
    }

    it('executes a held-rate quote idempotently by ref_id, finds it by ref_id, and sees it reach SETTLED', async () => {
      await withHarness(async (h) => {
        const quotes = await h.venue.listQuotes('BTCUSD');
        expect(quotes.map((q) => q.side).sort()).toEqual(['BUY', 'SELL']);
        const buy = quotes.find((q) => q.side === 'BUY')!;
        expect(buy.price.toNumber()).toBeGreaterThan(quotes.find((q) => q.side === 'SELL')!.price.toNumber());
        const refId = ref();
        const x = await h.venue.executeQuote({ refId, quoteId: buy.quoteId, quoteAmount: '100.00' });
        expect(x).toMatchObject({ refId, quoteId: buy.quoteId });
        expect(['CREATED', 'SETTLED']).toContain(x.status);
        expect(x.quoteAmount.toFixed(2)).toBe('100.00');
        expect(x.baseAmount.gt(0)).toBe(true);
        const again = await h.venue.executeQuote({ refId, quoteId: buy.quoteId, quoteAmount: '100.00' });
        expect(again.executionId).toBe(x.executionId);
        expect((await h.venue.findQuoteExecutionByRef(refId))?.executionId).toBe(x.executionId);
        expect(await h.venue.findQuoteExecutionByRef(`${refId}-missing`)).toBeUndefined();
        const settled = await untilSettled(h, x.executionId);
        expect(settled.baseAmount.toFixed()).toBe(x.baseAmount.toFixed());
        const btc = (await h.venue.balances()).find((b) => b.asset === 'BTC');
        expect(btc?.available.toFixed()).toBe(x.baseAmount.toFixed());
      });
    });

    it('lists the orders and quote executions made since a time, whatever their status (a venue with history)', async () => {
      await withHarness(async (h) => {
        const { ordersSince, quoteExecutionsSince } = h.venue;
        if (!ordersSince || !quoteExecutionsSince) return; // a venue without history (a backtest's) offers neither
        const early = await h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.00' });
        await h.advance(2_000);
        const price = new D(h.mid('BTCUSD')).times('0.9').toDecimalPlaces(0, D.ROUND_DOWN).toFixed();
        const filled = await h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.00' });
        const resting = await h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price });
        const cancelled = await h.venue.placeOrder({
          refId: ref(),
          market: 'BTCUSD',
          side: 'BUY',
          type: 'LIMIT',
          baseAmount: '0.01',
          price,
        });
        await until(h, cancelled.orderId, (o) => o.status === 'OPEN');
        await h.venue.cancelOrder(cancelled.orderId);
        await until(h, cancelled.orderId, (o) => o.status === 'CANCELLED');
        await until(h, filled.orderId, (o) => o.status === 'FILLED');
        const buy = (await h.venue.listQuotes('BTCUSD')).find((q) => q.side === 'BUY')!;
        const x = await h.venue.executeQuote({ refId: ref(), quoteId: buy.quoteId, quoteAmount: '50.00' });
        const since = (await h.venue.getOrder(filled.orderId)).createdAt ?? 0;
        expect(since).toBeGreaterThan((await h.venue.getOrder(early.orderId)).createdAt ?? Infinity);
        const orders: VenueOrder[] = [];
        for await (const o of ordersSince.call(h.venue, since)) orders.push(o);
        // in the venue's own order (newest first over HTTP): the caller needs each record once, not a sequence
        expect(orders.map((o) => [o.refId, o.status]).sort()).toEqual(
          [
            [filled.refId, 'FILLED'],
            [resting.refId, 'OPEN'],
            [cancelled.refId, 'CANCELLED'],
          ].sort(),
        );
        const executions: VenueQuoteExecution[] = [];
        for await (const e of quoteExecutionsSince.call(h.venue, since)) executions.push(e);
        expect(executions.map((e) => [e.refId, e.executionId])).toEqual([[x.refId, x.executionId]]);
      });
    });

    it('refuses an expired quote and a quote execution beyond the balance with typed rejections', async () => {
      await withHarness(async (h) => {
        const sell = (await h.venue.listQuotes('BTCUSD')).find((q) => q.side === 'SELL')!;
        await expect(h.venue.executeQuote({ refId: ref(), quoteId: sell.quoteId, baseAmount: '1' })).rejects.toMatchObject({
          code: 'INSUFFICIENT_FUNDS',
        });
        await h.advance(31_000);
        // The platform answers 403 `expired`; a venue that forgets old quotes may answer not-found. Never a fill.
        const late = await h.venue.executeQuote({ refId: ref(), quoteId: sell.quoteId, baseAmount: '0.01' }).then(
          () => 'executed',
          (e: unknown) => (e instanceof VenueNotFoundError ? 'NOT_FOUND' : (e as { code?: string }).code),
        );
        expect(['EXPIRED', 'NOT_FOUND']).toContain(late);
      });
    });

    it('transfers between profiles idempotently by ref_id, finds the transfer by ref_id, and completes it', async () => {
      await withHarness(async (h) => {
        if (h.newProfile === undefined) return;
        const other = await h.newProfile(`contract-${++seq}`);
        const refId = ref();
        const req = { refId, asset: 'USD', amount: '250.00', fromProfileId: 'default', toProfileId: other };
        const t = await h.venue.transfer(req);
        expect(t.refId).toBe(refId);
        expect((await h.venue.transfer(req)).transferId).toBe(t.transferId);
        expect((await h.venue.findTransferByRef(refId))?.transferId).toBe(t.transferId);
        expect(await h.venue.findTransferByRef(`${refId}-missing`)).toBeUndefined();
        await h.advance(1_000);
        expect((await h.venue.findTransferByRef(refId))?.status).toBe('COMPLETED');
        const usd = (await h.venue.balances()).find((b) => b.asset === 'USD');
        expect(usd?.available.toFixed()).toBe('99750');
        const limits = (await h.venue.transferLimits()).map((l) => [l.limitAsset, l.periodSeconds, l.remaining]);
        expect(limits.sort()).toEqual([
          ['USD', '0', '1000000'],
          ['USD', '86400', '4999750'],
        ]);
        await expect(h.venue.transfer({ ...req, refId: ref(), amount: '200000' })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
        await expect(h.venue.transfer({ ...req, refId: ref(), amount: '2000000' })).rejects.toMatchObject({
          code: 'TRANSFER_LIMIT_EXCEEDED',
        });
      });
    });

    it('lists every trading market once with the same tick, decimals and caps as the sandbox catalog', async () => {
      await withHarness(async (h) => {
        const listed = await h.venue.instruments();
        expect(listed.map((i) => i.market).sort()).toEqual([...TRADING_MARKETS].sort());
        const byMarket = new Map(listed.map((i) => [i.market, plain(i)]));
        expect(byMarket.get('BTCUSD')).toMatchObject({
          base: 'BTC',
          quote: 'USD',
          tick: '0.01',
          priceDecimals: 2,
          baseDecimals: 8,
          quoteDecimals: 2,
          maxNotionalUsd: { market: '500000', limit: '1500000' },
        });
        expect(byMarket.get('MATICUSD')).toMatchObject({ tick: '0.0001', priceDecimals: 4, maxNotionalUsd: { limit: '1000000' } });
        expect(byMarket.get('ETHSGD')).toMatchObject({ base: 'ETH', quote: 'SGD', tick: '0.01' });
        for (const expected of tradingInstruments()) expect(byMarket.get(expected.market)).toEqual(plain(expected));
      });
    });

    /** Buys BTC with 1000 USD and returns half of what it got, for the stop cases. */
    async function boughtHalf(h: VenueHarness): Promise<string> {
      const buy = await h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' });
      const bought = await until(h, buy.orderId, (o) => TERMINAL_ORDER_STATUSES.has(o.status));
      return bought.amountFilled.div(2).toDecimalPlaces(8, D.ROUND_DOWN).toFixed();
    }

    const btcOf = async (h: VenueHarness) => (await h.venue.balances()).find((b) => b.asset === 'BTC');

    it('rests a sell stop below the market untriggered with its base reserved, cancels it, and refuses a stop buy', async () => {
      await withHarness(async (h) => {
        const base = await boughtHalf(h);
        const stop = new D(h.mid('BTCUSD')).times('0.5').toDecimalPlaces(0, D.ROUND_DOWN).toFixed();
        const placed = await h.venue.placeOrder({
          refId: ref(),
          market: 'BTCUSD',
          side: 'SELL',
          type: 'STOP_LIMIT',
          baseAmount: base,
          stopPrice: stop,
          price: stop,
        });
        await until(h, placed.orderId, (o) => o.status === 'OPEN');
        await h.advance(3_000);
        expect(await h.venue.getOrder(placed.orderId)).toMatchObject({ status: 'OPEN', type: 'STOP_LIMIT' });
        expect((await btcOf(h))?.trading.toFixed()).toBe(base);
        await h.venue.cancelOrder(placed.orderId);
        await until(h, placed.orderId, (o) => o.status === 'CANCELLED');
        expect((await btcOf(h))?.trading.isZero()).toBe(true);
        await expect(
          h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'BUY', type: 'STOP_MARKET', baseAmount: base, stopPrice: stop }),
        ).rejects.toBeInstanceOf(VenueRejectedError);
      });
    });

    it('fires a sell stop above the market at the next price and sells its whole base', async () => {
      await withHarness(async (h) => {
        const base = await boughtHalf(h);
        const held = (await btcOf(h))!.available;
        const stop = new D(h.mid('BTCUSD')).times('1.1').toDecimalPlaces(0, D.ROUND_DOWN).toFixed();
        const placed = await h.venue.placeOrder({
          refId: ref(),
          market: 'BTCUSD',
          side: 'SELL',
          type: 'STOP_MARKET',
          baseAmount: base,
          stopPrice: stop,
        });
        const done = await until(h, placed.orderId, (o) => TERMINAL_ORDER_STATUSES.has(o.status));
        expect(done.status).toBe('FILLED');
        expect(done.amountFilled.toFixed()).toBe(base);
        expect((await btcOf(h))?.available.toFixed()).toBe(held.minus(base).toFixed());
      });
    });

    it('rejects bad input as a rejection, not an unknown outcome', async () => {
      await withHarness(async (h) => {
        await expect(
          h.venue.placeOrder({ refId: ref(), market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01' }),
        ).rejects.toBeInstanceOf(VenueRejectedError);
      });
    });
  });
}
