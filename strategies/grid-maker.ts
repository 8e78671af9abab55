/**
 * grid-maker: a ladder of post-only limit orders around mid — `levels` buys below and `levels`
 * sells above, `spacing_bps` apart — re-centred (all cancelled, then re-laid) when mid moves more
 * than `recenter_bps` from the grid's centre. Buys stop once the base holding reaches `max_base`
 * (the inventory cap); sells are laid only from base actually held. Prices sit on the market's tick
 * as the venue lists it (`ctx.instrument`); the grid is laid only on live data, never on warm-up
 * history.
 */
import { D, defineStrategy, midOf, roundPrice, splitMarket, z, type Dec, type Instrument, type IntentDraft } from 'tradeloop';

const decimal = z.string().regex(/^\d*\.?\d+$/, 'a decimal string such as "0.001"');

export default defineStrategy({
  name: 'grid-maker',
  description: 'post-only limit ladder around mid, re-centred as the price moves, with an inventory cap',
  params: z.object({
    market: z.string().default('BTCUSD'),
    levels: z.number().int().min(1).max(20).default(3),
    spacing_bps: z.number().positive().default(20),
    recenter_bps: z.number().positive().default(60),
    base_amount: decimal.default('0.001'),
    max_base: decimal.default('0.01'),
  }),
  markets: (p) => [p.market],
  needs: ['book', 'price'],
  create(p) {
    const { base } = splitMarket(p.market);
    let centre: number | undefined;
    let cancelling = false;
    return {
      onEvent(e, ctx) {
        if (e.market !== p.market || ctx.warmingUp) return undefined;
        const mid = midOf(ctx.market(p.market));
        if (mid === undefined) return undefined;
        const open = ctx.account.openOrders(p.market);
        if (centre !== undefined && Math.abs(mid - centre) / centre > p.recenter_bps / 10_000) {
          centre = undefined;
          cancelling = open.length > 0;
          return open.map((o): IntentDraft => ({ kind: 'cancel-order', orderRefId: o.refId }));
        }
        if (centre !== undefined) return undefined;
        if (cancelling && open.length > 0) return undefined; // wait until the old grid is gone
        cancelling = false;
        centre = mid;
        return layGrid(ctx.instrument(p.market), mid, ctx.account.total(base), ctx.account.available(base));
      },
    };

    function layGrid(instrument: Instrument, mid: number, held: Dec, free: Dec): IntentDraft[] {
      const out: IntentDraft[] = [];
      const size = new D(p.base_amount);
      let room = new D(p.max_base).minus(held);
      let sellable = free;
      for (let i = 1; i <= p.levels; i++) {
        const step = (i * p.spacing_bps) / 10_000;
        if (room.gte(size)) {
          room = room.minus(size);
          out.push(order('BUY', roundPrice(instrument, mid * (1 - step), 'down')));
        }
        if (sellable.gte(size)) {
          sellable = sellable.minus(size);
          out.push(order('SELL', roundPrice(instrument, mid * (1 + step), 'up')));
        }
      }
      return out;
    }

    function order(side: 'BUY' | 'SELL', price: string): IntentDraft {
      return { kind: 'place-order', market: p.market, side, type: 'POST_ONLY_LIMIT', baseAmount: p.base_amount, price, timeInForce: 'GTC' };
    }
  },
});
