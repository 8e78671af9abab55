import { describe, expect, it } from 'vitest';
import { StrategyTestKit } from 'tradeloop/testkit';
import donchian from './donchian-breakout.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);
/** A quiet 1h row around 100 (high 101, low 99) closing at `close`. */
const quiet = (close: number) => ({ open: 100, high: 101, low: 99, close, volume: 1 });
// rows 0..9: a slow rise (the 4h closes go up); row 10 closes above the 3-bar channel
const RISE = [...Array.from({ length: 10 }, (_, i) => quiet(100 + i * 0.1)), { open: 100.9, high: 106, low: 100.8, close: 105, volume: 3 }];
const PARAMS = { entry: 3, exit: 2, trend: 2, size_pct: 50 };
const BUY = { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' };

describe('donchian-breakout (the bar strategy template)', () => {
  it("buys when a 1h bar closes above the channel with the 4h trend up, at that bar's close and not before", () => {
    const kit = new StrategyTestKit(donchian, PARAMS, { USD: '1000' }, T0);
    expect(kit.candles('BTCUSD', '1h', RISE.slice(0, 10), T0)).toEqual([]);
    const out = kit.candles('BTCUSD', '1h', RISE.slice(10), T0 + 10 * HOUR);
    expect(out).toEqual([BUY]);
    // decided as the breakout bar closed: at 11:00, the bar of 10:00 the newest the strategy saw
    expect(kit.clock.now()).toBe(T0 + 11 * HOUR);
    expect(kit.ctx.bars('BTCUSD', '1h').last()).toMatchObject({ time: T0 + 10 * HOUR, high: 106, close: 105 });
  });

  it('does not buy a breakout against the 4h trend', () => {
    const kit = new StrategyTestKit(donchian, PARAMS, { USD: '1000' }, T0);
    const falling = RISE.map((r, i) => (i < 10 ? quiet(101 - i * 0.1) : r));
    expect(kit.candles('BTCUSD', '1h', falling, T0)).toEqual([]);
  });

  it('sells the whole position when a 1h bar closes below the exit channel', () => {
    const kit = new StrategyTestKit(donchian, PARAMS, { USD: '1000' }, T0);
    const [buy] = kit.candles('BTCUSD', '1h', RISE, T0);
    kit.fill(buy, { price: '105' });
    expect(kit.candles('BTCUSD', '1h', [{ open: 105, high: 107, low: 104, close: 106, volume: 1 }])).toEqual([]);
    const sell = kit.candles('BTCUSD', '1h', [{ open: 106, high: 106, low: 99, close: 100, volume: 1 }]);
    expect(sell).toEqual([expect.objectContaining({ kind: 'place-order', side: 'SELL', type: 'MARKET', exitReason: 'signal' })]);
  });

  it('hears the 1h bar before the 4h bar at a shared boundary, both already in ctx.bars', () => {
    const kit = new StrategyTestKit(donchian, PARAMS, { USD: '1000' }, T0);
    kit.candles('BTCUSD', '1h', RISE.slice(0, 4), T0);
    expect(kit.barsSeen.map((b) => `${b.timeframe}@${(b.closeTime - T0) / HOUR}`)).toEqual(['1h@1', '1h@2', '1h@3', '1h@4', '4h@4']);
  });

  it('builds bars from price points as the engine does (a point at a boundary opens the next bar)', () => {
    const points = new StrategyTestKit(donchian, { ...PARAMS, entry: 20 }, { USD: '1000' }, T0);
    // one price each 15 minutes from 00:00 to 08:45, then the clock reaches 09:00
    const prices = Array.from({ length: 36 }, (_, i) => 100 + Math.sin(i) * 2);
    points.prices('BTCUSD', prices, 15 * 60_000);
    points.closeBars(T0 + 9 * HOUR);
    const hours = points.ctx.bars('BTCUSD', '1h').toArray();
    // prices() steps the clock before each point: the first is at 00:15
    expect(hours[0]).toMatchObject({ time: T0, open: prices[0], close: prices[2], high: Math.max(...prices.slice(0, 3)) });
    expect(hours).toHaveLength(9);
    expect(
      points.ctx
        .bars('BTCUSD', '4h')
        .toArray()
        .map((b) => b.close),
    ).toEqual([prices[14], prices[30]]);
  });

  it('plots the channels of the bars before each 1h close (a gap until enough bars), at that close', () => {
    const kit = new StrategyTestKit(donchian, PARAMS, { USD: '1000' }, T0);
    kit.candles('BTCUSD', '1h', RISE.slice(0, 5), T0);
    const upper = kit.plots('BTCUSD', 'upper');
    const lower = kit.plots('BTCUSD', 'lower');
    // after bar 3 (closing at 4h) the 3 bars before it (highs 101) make the upper channel; the exit channel is ready a bar earlier
    expect(upper.map(([t, v]) => [(t - T0) / HOUR, v])).toEqual([
      [1, null],
      [2, null],
      [3, null],
      [4, 101],
      [5, 101],
    ]);
    expect(lower.map(([, v]) => v)).toEqual([null, null, 99, 99, 99]);
    expect(donchian.plots).toMatchObject({ upper: {}, lower: {} });
  });
});
