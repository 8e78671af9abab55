/**
 * Fills inside a bar (bar-range.ts through PointMarket): hand-made bars where a market order meets the
 * next open, a stop fires inside a bar (at the stop) or the bar gaps through it (at the open), a stop and
 * a take-profit are both reached in one bar (the stop first), and limits fill at the open or their limit.
 */
import { describe, expect, it } from 'vitest';
import { PointMarket } from './market.js';
import { exitFillPrice, limitTouch, lowFirstOf, stopTrigger } from './bar-range.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;
const bar = (open: number, high: number, low: number) => ({ open, high, low });

/** A market holding 2 BTC and 10,000 USD, no fee, at a first bar closing at 100. */
function market(): PointMarket {
  const m = new PointMarket({ funding: { USD: '10000', BTC: '2' }, feeBps: 0 });
  m.point('BTCUSD', T0, 100, bar(100, 101, 99));
  return m;
}

const fillsOf = (fills: ReturnType<PointMarket['point']>) => fills.map((f) => [f.refId, f.side, f.price.toFixed(), f.amount.toFixed()]);

describe('fills inside a bar', () => {
  it("fills a market order decided at a bar's close at the next bar's open, not its close", () => {
    const m = market();
    m.place({ refId: 'm', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1030' });
    expect(fillsOf(m.point('BTCUSD', T0 + H, 110, bar(103, 112, 102)))).toEqual([['m', 'BUY', '103', '10']]);
  });

  it('fires a stop inside the bar at the stop price, and at the open when the bar gapped through it', () => {
    const m = market();
    m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' });
    // the low stays above the stop: nothing, though a close-only replay would see the same
    expect(m.point('BTCUSD', T0 + H, 97, bar(99, 100, 95.5))).toHaveLength(0);
    // the low goes through 95 and the bar closes back above it: a close-only replay never fires it
    expect(fillsOf(m.point('BTCUSD', T0 + 2 * H, 98, bar(97, 99, 93)))).toEqual([['s', 'SELL', '95', '1']]);

    const g = market();
    g.place({ refId: 'g', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' });
    // opened at 90, below the stop: the first price there was to take
    expect(fillsOf(g.point('BTCUSD', T0 + H, 96, bar(90, 97, 89)))).toEqual([['g', 'SELL', '90', '1']]);
  });

  it('fills the stop-loss before the take-profit when one bar reaches both (the adverse outcome first)', () => {
    const m = market();
    // the take-profit placed first: placement order alone would fill it first
    m.place({ refId: 'tp', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '106' });
    m.place({ refId: 'sl', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' });
    expect(fillsOf(m.point('BTCUSD', T0 + H, 100, bar(100, 107, 94)))).toEqual([
      ['sl', 'SELL', '95', '1'],
      ['tp', 'SELL', '106', '1'],
    ]);
  });

  it('fills a resting limit at its limit when the low reached it, at the open when the bar opened through it', () => {
    const m = market();
    m.place({ refId: 'a', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '98' });
    m.place({ refId: 'b', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '90' });
    // the next bar: 'a' is not marketable at the open (100 > 98) but the low reaches it; 'b' waits
    expect(fillsOf(m.point('BTCUSD', T0 + H, 99, bar(100, 101, 97)))).toEqual([['a', 'BUY', '98', '1']]);
    // 'b' rests; a bar opening at 88 fills it there, better than its limit
    expect(fillsOf(m.point('BTCUSD', T0 + 2 * H, 91, bar(88, 92, 87)))).toEqual([['b', 'BUY', '88', '1']]);
  });

  it('keeps the close-only rule for points without a bar', () => {
    const m = new PointMarket({ funding: { USD: '10000', BTC: '1' }, feeBps: 0 });
    m.point('BTCUSD', T0, 100);
    m.place({ refId: 's', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' });
    expect(m.point('BTCUSD', T0 + H, 98)).toHaveLength(0);
    expect(fillsOf(m.point('BTCUSD', T0 + 2 * H, 94))).toEqual([['s', 'SELL', '94', '1']]);
  });

  it('reads the triggers as the platform does', () => {
    expect(stopTrigger(95, bar(100, 101, 96))).toBeUndefined();
    expect(stopTrigger(95, bar(100, 101, 95))).toBe(95);
    expect(stopTrigger(95, bar(95, 101, 90))).toBe(95);
    expect(limitTouch('SELL', 105, bar(100, 104.9, 99))).toBeUndefined();
    expect(limitTouch('SELL', 105, bar(100, 105, 99))).toBe('limit');
    expect(limitTouch('SELL', 105, bar(106, 107, 99))).toBe('open');
  });

  it("fills the take-profit first when the run takes the bar's high as reached first", () => {
    const m = market();
    m.place({ refId: 'sl', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: '1', stopPrice: '95' });
    m.place({ refId: 'tp', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1', price: '106' });
    expect(fillsOf(m.point('BTCUSD', T0 + H, 100, { ...bar(100, 107, 94), lowFirst: false }))).toEqual([
      ['tp', 'SELL', '106', '1'],
      ['sl', 'SELL', '95', '1'],
    ]);
  });

  it("orders a bar's extremes by the intrabar rule", () => {
    expect([lowFirstOf('adverse', 100, 101, 90), lowFirstOf('favorable', 100, 110, 99)]).toEqual([true, false]);
    // open-nearest: the extreme nearer the open first, the low on a tie
    expect([
      lowFirstOf('open-nearest', 100, 110, 99),
      lowFirstOf('open-nearest', 100, 101, 90),
      lowFirstOf('open-nearest', 100, 105, 95),
    ]).toEqual([true, false, true]);
  });

  describe("a position helper's exit decided on the bar", () => {
    it('fills inside the bar it was decided on: at the stop, or at the open when the bar opened below it', () => {
      const m = market();
      const inBar = m.point('BTCUSD', T0 + H, 98, bar(97, 99, 93));
      expect(inBar).toHaveLength(0);
      const o = m.place({
        refId: 'x',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '1',
        barExit: { level: '95', by: 'low' },
      });
      expect(o.status).toBe('FILLED');
      // reported once: taken by the source, or else with the next point
      const taken = m.takePlaced()!;
      expect([taken.fills.map((f) => [f.refId, f.price.toFixed(), f.at]), taken.closed.map((c) => c.refId)]).toEqual([
        [['x', '95', T0 + H]],
        ['x'],
      ]);
      expect(m.takePlaced()).toBeUndefined();
      expect(m.balance('USD').available.toFixed()).toBe('10095');

      const g = market();
      g.point('BTCUSD', T0 + H, 91, bar(90, 92, 89));
      g.place({ refId: 'g', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1', barExit: { level: '95', by: 'low' } });
      expect(fillsOf(g.point('BTCUSD', T0 + 2 * H, 91, bar(91, 92, 90)))).toEqual([['g', 'SELL', '90', '1']]);
    });

    it('fills a take-profit at its level, or at the open when the bar opened above it', () => {
      const m = market();
      m.point('BTCUSD', T0 + H, 104, bar(101, 107, 100));
      m.place({ refId: 'tp', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1', barExit: { level: '106', by: 'high' } });
      expect(m.takePlaced()!.fills.map((f) => f.price.toFixed())).toEqual(['106']);
      m.point('BTCUSD', T0 + 2 * H, 110, bar(108, 111, 107));
      m.place({ refId: 'tp2', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1', barExit: { level: '106', by: 'high' } });
      expect(m.takePlaced()!.fills.map((f) => f.price.toFixed())).toEqual(['108']);
    });

    it('is an ordinary market order when the bar never came to the level, or the point has no bar', () => {
      const m = market();
      m.point('BTCUSD', T0 + H, 98, bar(97, 99, 96));
      const o = m.place({
        refId: 'x',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '1',
        barExit: { level: '95', by: 'low' },
      });
      expect([o.status, m.takePlaced()]).toEqual(['OPEN', undefined]);
      expect(fillsOf(m.point('BTCUSD', T0 + 2 * H, 97, bar(96.5, 98, 96)))).toEqual([['x', 'SELL', '96.5', '1']]);

      const c = new PointMarket({ funding: { BTC: '1' }, feeBps: 0 });
      c.point('BTCUSD', T0, 94);
      expect(
        c.place({ refId: 'y', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1', barExit: { level: '95', by: 'low' } })
          .status,
      ).toBe('OPEN');
    });

    it('moves the level against the trader by the slippage', () => {
      const m = new PointMarket({ funding: { BTC: '1' }, feeBps: 0, slippageBps: 100 });
      m.point('BTCUSD', T0, 98, bar(97, 99, 93));
      m.place({ refId: 'x', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '1', barExit: { level: '95', by: 'low' } });
      expect(m.takePlaced()!.fills.map((f) => f.price.toFixed())).toEqual(['94.05']);
    });
  });

  it('reads where an exit fills inside a bar', () => {
    expect(exitFillPrice(95, 'low', bar(97, 99, 93))).toBe(95);
    expect(exitFillPrice(95, 'low', bar(94, 99, 93))).toBe(94);
    expect(exitFillPrice(95, 'low', bar(97, 99, 96))).toBeUndefined();
    expect(exitFillPrice(106, 'high', bar(101, 107, 100))).toBe(106);
    expect(exitFillPrice(106, 'high', bar(108, 111, 107))).toBe(108);
    expect(exitFillPrice(106, 'high', bar(101, 105, 100))).toBeUndefined();
  });
});
