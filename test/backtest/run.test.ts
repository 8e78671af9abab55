/**
 * The run driver end to end on hand-computed series: sma-cross (fast 2, slow 3) through the Engine,
 * risk gate, executors and point replay; every fill, fee, rounding and metric checked by hand.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../backtest/run.js';
import { defineStrategy, resolveParams } from '../../src/strategy/index.js';
import smaCross from '../../strategies/sma-cross.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

function series(prices: number[]): { source: string; length: number; times: Float64Array; prices: Float64Array } {
  return {
    source: 'hand.csv',
    length: prices.length,
    times: Float64Array.from(prices, (_, i) => T0 + i * H),
    prices: Float64Array.from(prices),
  };
}

describe('runBacktest with sma-cross (hand-computed)', () => {
  const data = series([10, 10, 10, 12, 15, 11, 8, 8, 9]);
  const params = resolveParams(smaCross, { fast: 2, slow: 3 });

  it('buys on the cross up at the next point, sells on the cross down at the next point, marks equity at each point', async () => {
    const run = await runBacktest({ definition: smaCross, params, series: data });
    // cross up at i=3 (fast 11 > slow 10.67): 10000.00 spent at i=4's price 15 → fee 10, 9990 / 15 = 666 BTC
    // cross down at i=6 (fast 9.5 < slow 11.33): 666 BTC sold at i=7's price 8 → gross 5328, fee 5.328, 5322.67 credited
    // cross up again at i=8, the last point: approved, never filled
    expect(run.intents.map((t) => [(t.at - T0) / H, t.kind, t.side, t.outcome])).toEqual([
      [3, 'place-order', 'BUY', 'approve'],
      [6, 'place-order', 'SELL', 'approve'],
      [8, 'place-order', 'BUY', 'approve'],
    ]);
    expect(Array.from(run.equity)).toEqual([10000, 10000, 10000, 10000, 9990, 7326, 5328, 5322.67, 5322.67]);
    expect(run.trades).toEqual([
      {
        market: 'BTCUSD',
        side: 'long',
        entryAt: T0 + 4 * H,
        exitAt: T0 + 7 * H,
        quantity: '666',
        entryPrice: '15',
        exitPrice: '8',
        pnl: '-4677.33',
        fees: '15.328',
      },
    ]);
    expect(run.feesPaid).toBe('15.328');
    expect(run.finalBalances).toEqual({ USD: '5322.67', BTC: '0' });
    // three MARKET orders accepted, two filled; the last one, made at the last point, is still open
    expect(run.orders).toEqual({ accepted: 3, fills: 2, cancelled: 0, rejected: 0, failed: 0, openAtEnd: 1 });
    const m = run.metrics;
    expect(m.trades).toBe(1);
    expect(m.winRatePct).toBe(0);
    expect(m.totalReturnPct).toBeCloseTo(-46.7733, 10);
    expect(m.maxDrawdownPct).toBeCloseTo(46.7733, 10);
    expect(m.buyHoldReturnPct).toBeCloseTo(-10, 10);
    expect(m.exposurePct).toBeCloseTo((3 / 8) * 100, 10);
    expect(m.profitFactor).toBe(0); // no winner: 0 / 4677.33
  });

  it('applies slippage and the fee rate given', async () => {
    const run = await runBacktest({ definition: smaCross, params, series: data, feeBps: 0, slippageBps: 100 });
    // buy at 15 × 1.01 = 15.15: 10000 / 15.15 = 660.06600660 BTC; sell at 8 × 0.99 = 7.92 → 5227.72 (floor)
    expect(run.trades[0]).toMatchObject({ quantity: '660.0660066', entryPrice: '15.15', exitPrice: '7.92', fees: '0' });
    expect(run.finalBalances.USD).toBe('5227.72');
  });

  it('journals risk denials as live: a buy beyond max_order_notional is denied and nothing trades', async () => {
    const limits = (await import('../../src/risk/index.js')).RiskLimitsSchema.parse({ max_order_notional: '5000' });
    const run = await runBacktest({ definition: smaCross, params, series: data, limits });
    expect(run.intents.map((t) => t.outcome)).toEqual(['MAX_NOTIONAL', 'MAX_NOTIONAL']);
    expect(run.trades).toEqual([]);
    expect(run.decisions).toEqual({ MAX_NOTIONAL: 2 });
    // by code and reason, not counts alone: the numbers behind the denial travel with it
    expect(run.orders).toEqual({ accepted: 0, fills: 0, cancelled: 0, rejected: 0, failed: 0, openAtEnd: 0 });
    expect(run.denials.MAX_NOTIONAL).toMatchObject({
      count: 2,
      first: { message: expect.stringMatching(/exceeds the limit 5000/), details: { max_notional: '5000', asset: 'USD' } },
    });
  });
});

describe('no look-ahead', () => {
  it('a strategy that peeks sees only the current point: store, history and clock end at t, never t+1', async () => {
    const prices = [100, 101, 99, 150, 40, 120, 80];
    const seen: Array<[number, number | undefined, number | undefined, number]> = [];
    const peeker = defineStrategy({
      name: 'peeker',
      description: 'tries to read the next point',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => ({
        onEvent: (e, ctx) => {
          const h = ctx.history('BTCUSD');
          let beyond: number | undefined;
          try {
            beyond = h.priceAt(h.length); // one past the newest entry
          } catch {
            beyond = undefined;
          }
          seen.push([ctx.now(), ctx.market('BTCUSD').price?.value, beyond, h.length]);
          // buy only if the next price is higher — impossible to know, so never profitable by peeking
          return e.kind === 'price' && beyond !== undefined && beyond > e.price
            ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.00' }
            : undefined;
        },
      }),
    });
    const run = await runBacktest({ definition: peeker, params: {}, series: series(prices) });
    expect(seen).toEqual(prices.map((p, i) => [T0 + i * H, p, undefined, i + 1]));
    expect(run.intents).toEqual([]);
  });

  it('an order made at point t never fills at t: a strategy buying on a spike pays the next price', async () => {
    const spike = defineStrategy({
      name: 'spike-buyer',
      description: 'buys once when the price is low',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => {
        let done = false;
        return {
          onEvent: (e) => {
            if (done || e.kind !== 'price' || e.price > 50) return undefined;
            done = true;
            return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' };
          },
        };
      },
    });
    const run = await runBacktest({ definition: spike, params: {}, series: series([100, 40, 200, 200]), feeBps: 0 });
    expect(run.fills).toEqual([{ at: T0 + 2 * H, side: 'buy', price: 200 }]);
    expect(run.finalBalances.BTC).toBe('5');
  });
});

describe('records window', () => {
  it('more fills at one point than the window keeps are all counted: 70 resting bids filling together', async () => {
    const BIDS = 70; // beyond twice the window of 32 records a backtest keeps
    const heard: string[] = [];
    const ladder = defineStrategy({
      name: 'ladder',
      description: 'rests many limit bids at once',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => {
        let placed = false;
        return {
          onEvent: (e) => {
            if (placed || e.kind !== 'price') return undefined;
            placed = true;
            return Array.from({ length: BIDS }, () => ({
              kind: 'place-order' as const,
              market: 'BTCUSD',
              side: 'BUY' as const,
              type: 'LIMIT' as const,
              baseAmount: '1',
              price: '95',
              timeInForce: 'GTC' as const,
            }));
          },
          onReport: (r) => {
            heard.push(r.kind);
          },
        };
      },
    });
    const limits = (await import('../../src/risk/index.js')).RiskLimitsSchema.parse({ max_open_orders: 100 });
    const run = await runBacktest({ definition: ladder, params: {}, series: series([100, 100, 90, 90]), feeBps: 0, limits });
    expect(run.decisions).toEqual({ approve: BIDS });
    // every bid fills at point 2, at its limit: 70 BTC for 70 × 95 = 6650 USD
    expect(run.fills).toHaveLength(BIDS);
    expect(run.fills.every((f) => f.at === T0 + 2 * H && f.price === 95)).toBe(true);
    expect(run.finalBalances).toEqual({ USD: '3350', BTC: '70' });
    expect(Array.from(run.equity)).toEqual([10000, 10000, 9650, 9650]);
    // the strategy hears of every fill, as live: none is lost to the window
    expect(heard.filter((k) => k === 'filled')).toHaveLength(BIDS);
  });
});

describe('figures only, and a reused equity buffer (the optimizer jobs)', () => {
  // a zigzag long enough for several round trips of sma-cross 2/3, with a denial on the way
  const prices = Array.from({ length: 60 }, (_, i) => 100 + 10 * Math.sin(i / 3) + (i % 7));
  const data = series(prices);
  const params = resolveParams(smaCross, { fast: 2, slow: 3 });

  it('gives the same figures, trades, decisions and orders as a full run, with no intent trace and no fill markers', async () => {
    const full = await runBacktest({ definition: smaCross, params, series: data });
    const lean = await runBacktest({ definition: smaCross, params, series: data, figuresOnly: true });
    expect(full.trades.length).toBeGreaterThan(3);
    expect(full.intents.length).toBeGreaterThan(6);
    expect(full.fills.length).toBeGreaterThan(6);
    expect(lean.intents).toEqual([]);
    expect(lean.fills).toEqual([]);
    for (const k of ['metrics', 'trades', 'feesPaid', 'decisions', 'denials', 'orders', 'finalBalances', 'warnings'] as const)
      expect(lean[k]).toEqual(full[k]);
    expect(Array.from(lean.equity)).toEqual(Array.from(full.equity));
  });

  it('still warns when no decision was possible, counting decisions without keeping them', async () => {
    const short = series([10, 11, 12]); // shorter than sma-cross's warm-up of slow + 1 points
    const full = await runBacktest({ definition: smaCross, params: resolveParams(smaCross, { fast: 2, slow: 5 }), series: short });
    const lean = await runBacktest({
      definition: smaCross,
      params: resolveParams(smaCross, { fast: 2, slow: 5 }),
      series: short,
      figuresOnly: true,
    });
    expect(full.warnings).toEqual([expect.stringMatching(/no decision was possible/)]);
    expect(lean.warnings).toEqual(full.warnings);
  });

  it('marks equity in the buffer given, run after run, each run with its own figures', async () => {
    const buffer = new Float64Array(data.length + 5).fill(-1);
    const a = await runBacktest({ definition: smaCross, params, series: data, equityBuffer: buffer });
    const aEquity = Array.from(a.equity);
    const other = resolveParams(smaCross, { fast: 3, slow: 5 });
    const b = await runBacktest({ definition: smaCross, params: other, series: data, equityBuffer: buffer, figuresOnly: true });
    expect(b.equity.buffer).toBe(buffer.buffer);
    expect(b.equity.length).toBe(data.length);
    const fresh = await runBacktest({ definition: smaCross, params: other, series: data });
    expect(Array.from(b.equity)).toEqual(Array.from(fresh.equity));
    expect(b.metrics).toEqual(fresh.metrics);
    // the first run's own figures were computed before the buffer was reused
    expect(a.metrics).toEqual((await runBacktest({ definition: smaCross, params, series: data })).metrics);
    expect(aEquity).not.toEqual(Array.from(b.equity));
    // a range replays into the start of the buffer
    const part = await runBacktest({ definition: smaCross, params, series: data, range: { start: 10, end: 40 }, equityBuffer: buffer });
    expect(part.equity.length).toBe(30);
    expect(part.metrics).toEqual(
      (await runBacktest({ definition: smaCross, params, series: data, range: { start: 10, end: 40 } })).metrics,
    );
  });

  it('refuses a buffer shorter than the points replayed, before the engine is built', async () => {
    await expect(runBacktest({ definition: smaCross, params, series: data, equityBuffer: new Float64Array(10) })).rejects.toThrow(
      /equityBuffer: holds 10 points; this run replays 60: give a buffer of at least 60/,
    );
  });
});
