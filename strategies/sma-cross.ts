/**
 * sma-cross: buy when the fast simple moving average of the price crosses above the slow one and no
 * position is held; sell the whole position when it crosses below.
 *
 * Params: `fast` and `slow` (periods, in price points), `size_pct` (percent of the available quote
 * currency spent on a buy), `market`, and the optional exits `stop_loss_pct`, `take_profit_pct` and
 * `trailing_stop_pct` (percent below the entry, above the entry, below the highest price since the
 * entry; 0, the default, leaves a rule off). Buys are MARKET orders by quote amount (what is spent is
 * exact); sells are MARKET orders of the whole base holding. The position and its exits are the
 * public `Position` helper.
 */
import { Position, Sma, defineStrategy, z } from 'tradeloop';

/** A percent exit rule: 0 leaves it off. */
const exitPct = (what: string) => z.number().min(0).lt(100).default(0).describe(`${what}; 0 = off`);

export default defineStrategy({
  name: 'sma-cross',
  description:
    'buy on a fast/slow SMA golden cross with no position held; sell the whole position on the death cross, or at an optional stop-loss, take-profit or trailing stop',
  params: z
    .object({
      fast: z.number().int().min(1).default(10),
      slow: z.number().int().min(2).default(30),
      size_pct: z.number().gt(0).max(100).default(100),
      market: z.string().default('BTCUSD'),
      stop_loss_pct: exitPct('exit this many percent below the entry price'),
      take_profit_pct: z.number().min(0).default(0).describe('exit this many percent above the entry price; 0 = off'),
      trailing_stop_pct: exitPct('exit this many percent below the highest price since the entry'),
    })
    .refine((p) => p.fast < p.slow, { message: 'fast must be smaller than slow', path: ['fast'] }),
  markets: (p) => [p.market],
  // the slow average is ready after `slow` points, and a cross needs one more
  warmUp: (p) => p.slow + 1,
  // both averages are drawn over the price (ctx.plot below)
  plots: { fast: { color: '#e67e22' }, slow: { color: '#8e44ad' } },
  create(p) {
    const fast = new Sma(p.fast);
    const slow = new Sma(p.slow);
    const position = new Position(p.market, {
      sizePct: p.size_pct,
      ...(p.stop_loss_pct > 0 && { stopLossPct: p.stop_loss_pct }),
      ...(p.take_profit_pct > 0 && { takeProfitPct: p.take_profit_pct }),
      ...(p.trailing_stop_pct > 0 && { trailingStopPct: p.trailing_stop_pct }),
    });
    // the previous fast − slow difference, in an object's field rather than a closure variable: a
    // number written to a closure variable is boxed anew at each write, a field is updated in place
    const cross = { prevDiff: Number.NaN };
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== p.market) return undefined;
        // a stop or target reached at this price: the position's exit goes first
        const exit = position.onEvent(e, ctx);
        const f = fast.update(e.price);
        const s = slow.update(e.price);
        if (f === undefined || s === undefined) return exit;
        ctx.plot(p.market, 'fast', f);
        ctx.plot(p.market, 'slow', s);
        const diff = f - s;
        const prevDiff = cross.prevDiff;
        const crossedUp = prevDiff <= 0 && diff > 0;
        const crossedDown = prevDiff >= 0 && diff < 0;
        cross.prevDiff = diff;
        if (exit) return exit;
        if (crossedUp) return position.enter(ctx);
        if (crossedDown) return position.exitAll(ctx);
        return undefined;
      },
      onReport(r, ctx) {
        position.onReport(r, ctx);
      },
    };
  },
});
