/**
 * quote-dca: dollar-cost averaging through held-rate quotes. Every `interval_ms` it buys a fixed
 * `quote_amount` by executing the platform's BUY quote, but only when that quote is within
 * `max_bps` of mid and has at least `min_time_left_ms` to live; otherwise it waits for the next
 * quote (quotes refresh about once per second), so a quote about to expire is never used.
 */
import { D, defineStrategy, midOf, quoteTimeLeftMs, roundPrice, splitMarket, z } from 'tradeloop';

export default defineStrategy({
  name: 'quote-dca',
  description: 'buy a fixed quote amount every interval through held-rate quotes close to mid',
  params: z.object({
    market: z.string().default('BTCUSD'),
    quote_amount: z
      .string()
      .regex(/^\d+(\.\d{1,2})?$/, 'a quote-currency amount with at most 2 decimals, e.g. "25.00"')
      .default('25.00'),
    interval_ms: z.number().int().positive().default(60_000),
    max_bps: z.number().positive().default(50),
    min_time_left_ms: z.number().int().min(0).default(3_000),
  }),
  markets: (p) => [p.market],
  needs: ['quote', 'price', 'book'],
  create(p) {
    const { quote: quoteAsset } = splitMarket(p.market);
    let lastBuyAt = Number.NEGATIVE_INFINITY;
    let pending = false;
    return {
      onEvent(e, ctx) {
        if (e.market !== p.market || pending || ctx.warmingUp) return undefined;
        const now = ctx.now();
        if (now - lastBuyAt < p.interval_ms) return undefined;
        const s = ctx.market(p.market);
        const quote = s.quotes.BUY;
        const mid = midOf(s);
        if (!quote || mid === undefined) return undefined;
        if (quoteTimeLeftMs(quote, now) < p.min_time_left_ms) return undefined; // wait for a fresh quote
        const price = Number(quote.value.price);
        if (Math.abs(price - mid) / mid > p.max_bps / 10_000) return undefined;
        if (ctx.account.available(quoteAsset).lt(p.quote_amount)) return undefined;
        pending = true;
        lastBuyAt = now;
        const worst = roundPrice(ctx.instrument(p.market), new D(mid).times(1 + p.max_bps / 10_000), 'up');
        return { kind: 'execute-quote', market: p.market, side: 'BUY', quoteAmount: p.quote_amount, limitPrice: worst };
      },
      onReport(r) {
        if (r.kind === 'quote-executed' || r.kind === 'denied' || r.kind === 'rejected' || r.kind === 'failed') pending = false;
        // refused by the risk gate or the venue: nothing was bought, so the next quote may be taken
        if (r.kind === 'denied' || r.kind === 'rejected' || r.kind === 'failed') lastBuyAt = Number.NEGATIVE_INFINITY;
        return undefined;
      },
    };
  },
});
