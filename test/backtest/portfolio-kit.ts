/**
 * A tiny strategy for portfolio tests: on the `buy_at`-th price of its market a market buy of `usd`,
 * on the `sell_at`-th a market sell of its own position. Shared by the portfolio and parity tests.
 */
import { z } from 'zod';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';

export const spendOnce = defineStrategy({
  name: 'spend-once',
  description: 'buys `usd` of its market at its buy_at-th price, sells its own position at its sell_at-th',
  params: z.object({
    market: z.string().default('BTCUSD'),
    usd: z.string().default('1000'),
    buy_at: z.number().int().default(1),
    sell_at: z.number().int().default(0),
  }),
  markets: (p) => [p.market],
  create: (p) => {
    let n = 0;
    return {
      onEvent: (e, ctx): IntentDraft | undefined => {
        if (e.kind !== 'price' || e.market !== p.market || ctx.warmingUp) return undefined;
        n++;
        if (n === p.buy_at) return { kind: 'place-order', market: p.market, side: 'BUY', type: 'MARKET', quoteAmount: p.usd };
        const own = ctx.position(p.market).amount;
        if (n === p.sell_at && own.gt(0))
          return { kind: 'place-order', market: p.market, side: 'SELL', type: 'MARKET', baseAmount: own.toFixed() };
        return undefined;
      },
    };
  },
});

/** spend-once with its params fixed, under its own name (a harness that runs definitions with default params). */
export function spender(name: string, params: { market: string; usd: string; buy_at: number; sell_at?: number }) {
  return {
    ...spendOnce,
    name,
    params: spendOnce.params.extend({
      market: z.string().default(params.market),
      usd: z.string().default(params.usd),
      buy_at: z.number().int().default(params.buy_at),
      sell_at: z
        .number()
        .int()
        .default(params.sell_at ?? 0),
    }),
  };
}
