/**
 * rsi-reversion: mean reversion on the relative strength index (Wilder's RSI, as technicalindicators
 * computes it). Buy with no position held when RSI falls below `lower`; sell the whole position when
 * RSI rises above `upper`. The position is the public `Position` helper.
 */
import { Position, Rsi, defineStrategy, z } from 'tradeloop';

export default defineStrategy({
  name: 'rsi-reversion',
  description: 'buy when RSI is below the lower band, sell the position when it is above the upper band',
  params: z
    .object({
      period: z.number().int().min(2).default(14),
      lower: z.number().min(0).max(100).default(30),
      upper: z.number().min(0).max(100).default(70),
      size_pct: z.number().gt(0).max(100).default(100),
      market: z.string().default('BTCUSD'),
    })
    .refine((p) => p.lower < p.upper, { message: 'lower must be below upper', path: ['lower'] }),
  markets: (p) => [p.market],
  // Wilder's smoothing never forgets: its decisions settle after about six periods of history (tradeloop verify)
  warmUp: (p) => 6 * p.period,
  // the RSI (0–100) is drawn in a pane of its own below the price
  plots: { rsi: { pane: 'own', color: '#2980b9' } },
  create(p) {
    const rsi = new Rsi(p.period);
    const position = new Position(p.market, { sizePct: p.size_pct });
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || e.market !== p.market) return undefined;
        position.onEvent(e, ctx);
        const value = rsi.update(e.price);
        if (value === undefined) return undefined;
        ctx.plot(p.market, 'rsi', value);
        if (value < p.lower) return position.enter(ctx);
        if (value > p.upper) return position.exitAll(ctx);
        return undefined;
      },
      onReport(r, ctx) {
        position.onReport(r, ctx);
      },
    };
  },
});
