/**
 * donchian-breakout: the template of a bar strategy. It declares the bars it needs (1h bars to trade
 * on, 4h bars as a trend filter), decides in `onBar` as each 1h bar closes, and reads the closed bars
 * with `ctx.bars`. Buy when a 1h bar closes above the highest high of the `entry` 1h bars before it,
 * while the latest 4h close is above the average close of the last `trend` 4h bars, and no position
 * is held; sell the whole position when a 1h bar closes below the lowest low of the `exit` 1h bars
 * before it.
 *
 * At a boundary both series share (every 4 hours), the 4h bar is already in `ctx.bars` when the 1h
 * bar's `onBar` runs, and its own `onBar` follows (the shorter timeframe first). A bar is in
 * `ctx.bars` from its close on, never before: nothing here can see a price after the bar it decides on.
 *
 * Params: `entry`, `exit` and `trend` (bars), `size_pct` (percent of the available quote currency a
 * buy spends), `market`. Buys are MARKET orders by quote amount, sells MARKET orders of the whole
 * position (the public `Position` helper).
 */
import { Position, defineStrategy, z, type Bar } from 'tradeloop';

/** Highest high and lowest low of `bars` (a channel). */
function channel(bars: readonly Bar[]): { upper: number; lower: number } {
  let upper = -Infinity;
  let lower = Infinity;
  for (const b of bars) {
    if (b.high > upper) upper = b.high;
    if (b.low < lower) lower = b.low;
  }
  return { upper, lower };
}

export default defineStrategy({
  name: 'donchian-breakout',
  description:
    'buy when a 1h bar closes above the highest high of the previous `entry` 1h bars and the 4h trend is up (last 4h close above its `trend`-bar average); sell the whole position when a 1h bar closes below the lowest low of the previous `exit` 1h bars',
  params: z.object({
    entry: z.number().int().min(1).default(20).describe('1h bars whose highest high a close must break to buy'),
    exit: z.number().int().min(1).default(10).describe('1h bars whose lowest low a close must break to sell'),
    trend: z.number().int().min(1).default(6).describe('4h bars of the trend average'),
    size_pct: z.number().gt(0).max(100).default(100),
    market: z.string().default('BTCUSD'),
  }),
  markets: (p) => [p.market],
  bars: (p) => [
    { market: p.market, timeframe: '1h', history: Math.max(p.entry, p.exit) + 1 },
    { market: p.market, timeframe: '4h', history: p.trend },
  ],
  // in 1h bars (the rows of an hourly file): the trend average needs `trend` 4h bars, the channel `entry` + 1 bars
  warmUp: (p) => Math.max(p.entry + 1, p.trend * 4),
  // the entry channel's top and the exit channel's bottom, drawn over the candles at each 1h close
  plots: { upper: { color: '#27ae60' }, lower: { color: '#c0392b' } },
  create(p) {
    const position = new Position(p.market, { sizePct: p.size_pct });
    return {
      onBar(bar, ctx) {
        if (bar.timeframe !== '1h') return undefined;
        const hours = ctx.bars(p.market, '1h');
        // the channels of the bars before this one (this one is the newest in the series); drawn, a gap until ready
        const upper = hours.length < p.entry + 1 ? undefined : channel(hours.latest(p.entry + 1).slice(0, -1)).upper;
        const lower = hours.length < p.exit + 1 ? undefined : channel(hours.latest(p.exit + 1).slice(0, -1)).lower;
        ctx.plot(p.market, 'upper', upper);
        ctx.plot(p.market, 'lower', lower);
        if (position.held(ctx)) return lower !== undefined && bar.close < lower ? position.exitAll(ctx) : undefined;
        if (upper === undefined || bar.close <= upper) return undefined;
        const fours = ctx.bars(p.market, '4h');
        if (fours.length < p.trend) return undefined;
        const average = fours.latest(p.trend).reduce((sum, b) => sum + b.close, 0) / p.trend;
        return fours.last()!.close > average ? position.enter(ctx) : undefined;
      },
      onReport(r, ctx) {
        position.onReport(r, ctx);
      },
    };
  },
});
