/**
 * bollinger: trades Bollinger bands (SMA ± k standard deviations) in one of two modes.
 * - `reversion`: buy when the price closes below the lower band; sell when it returns to the middle.
 * - `breakout`: buy when the price closes above the upper band; sell when it falls back to the middle.
 * One position at a time, sized as a share of the available quote currency (the public `Position`
 * helper).
 */
import { BollingerBands, Position, defineStrategy, z } from 'tradeloop';

export default defineStrategy({
  name: 'bollinger',
  description: 'Bollinger band mean reversion (buy below the lower band) or breakout (buy above the upper band)',
  params: z.object({
    period: z.number().int().min(2).default(20),
    k: z.number().positive().default(2),
    mode: z.enum(['reversion', 'breakout']).default('reversion'),
    size_pct: z.number().gt(0).max(100).default(100),
    market: z.string().default('BTCUSD'),
  }),
  markets: (p) => [p.market],
  warmUp: (p) => p.period,
  create(p) {
    const bands = new BollingerBands({ period: p.period, stdDev: p.k });
    const position = new Position(p.market, { sizePct: p.size_pct });
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== p.market) return undefined;
        position.onEvent(e, ctx);
        if (bands.update(e.price) === undefined) return undefined;
        const { upper, lower, middle } = bands;
        if (p.mode === 'reversion') {
          if (e.price < lower) return position.enter(ctx);
          if (e.price >= middle) return position.exitAll(ctx);
          return undefined;
        }
        if (e.price > upper) return position.enter(ctx);
        if (e.price <= middle) return position.exitAll(ctx);
        return undefined;
      },
      onReport(r, ctx) {
        position.onReport(r, ctx);
      },
    };
  },
});
