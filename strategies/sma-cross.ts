/**
 * sma-cross: buy when the fast simple moving average of the price crosses above the slow one and no
 * position is held; sell the whole position when it crosses below.
 *
 * Params: `fast` and `slow` (periods, in price points), `size_pct` (percent of the available quote
 * currency spent on a buy), `market`. Buys are MARKET orders by quote amount (what is spent is exact);
 * sells are MARKET orders of the whole base holding.
 */
import { z } from 'zod';
import { Sma } from '../src/indicators/index.js';
import { defineStrategy } from '../src/strategy/index.js';
import { SinglePosition } from './_position.js';

export default defineStrategy({
  name: 'sma-cross',
  description: 'buy on a fast/slow SMA golden cross with no position held; sell the whole position on the death cross',
  params: z
    .object({
      fast: z.number().int().min(1).default(10),
      slow: z.number().int().min(2).default(30),
      size_pct: z.number().gt(0).max(100).default(100),
      market: z.string().default('BTCUSD'),
    })
    .refine((p) => p.fast < p.slow, { message: 'fast must be smaller than slow', path: ['fast'] }),
  markets: (p) => [p.market],
  create(p) {
    const fast = new Sma(p.fast);
    const slow = new Sma(p.slow);
    const position = new SinglePosition(p.market, p.size_pct);
    let prevDiff = Number.NaN;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== p.market) return undefined;
        const f = fast.update(e.price);
        const s = slow.update(e.price);
        if (f === undefined || s === undefined) return undefined;
        const diff = f - s;
        const crossedUp = prevDiff <= 0 && diff > 0;
        const crossedDown = prevDiff >= 0 && diff < 0;
        prevDiff = diff;
        if (crossedUp) return position.buy(ctx);
        if (crossedDown && position.held(ctx)) return position.sell(ctx);
        return undefined;
      },
      onReport: (r) => position.onReport(r),
    };
  },
});
