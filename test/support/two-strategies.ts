/**
 * Two scripted strategies on BTCUSD for the tests of per-strategy positions: `trend-a` buys about
 * 0.02 BTC at its first price and exits at its fourth; `grid-b` buys about 0.03 at its second, asks
 * to sell 0.04 (more than its own) at its third and exits at its fifth. Exits go through a Position.
 */
import { z } from 'zod';
import { defineStrategy, type IntentDraft, type StrategyContext } from '../../src/strategy/index.js';
import { Position } from '../../src/strategy/position.js';

export type Step = (ctx: StrategyContext, position: Position) => IntentDraft | undefined;
export const buy =
  (usd: string, market = 'BTCUSD'): Step =>
  () => ({ kind: 'place-order', market, side: 'BUY', type: 'MARKET', quoteAmount: usd });
export const exit: Step = (ctx, position) => position.exitAll(ctx);

/** A strategy that does `plan[n]` at its n-th price of `market` (one a minute), with a Position for its exits. */
export function scripted(name: string, plan: Readonly<Record<number, Step>>, seen: { n: number }, market = 'BTCUSD') {
  return defineStrategy({
    name,
    description: `scripted ${name}`,
    params: z.object({}),
    markets: [market],
    create: () => {
      const position = new Position(market, { sizePct: 10 });
      return {
        onEvent: (e, ctx) => {
          if (e.kind !== 'price' || e.market !== market || ctx.warmingUp) return undefined;
          position.onEvent(e, ctx);
          const step = plan[seen.n++];
          return step?.(ctx, position);
        },
        onReport: (r, ctx) => void position.onReport(r, ctx),
      };
    },
  });
}

/** The script: A buys 0.02 BTC, B buys 0.03, B asks to sell 0.04 (more than its own), A exits, B exits. */
export function strategies() {
  const a = { n: 0 };
  const b = { n: 0 };
  return {
    a: scripted('trend-a', { 0: buy('1200.00'), 3: exit }, a),
    b: scripted(
      'grid-b',
      {
        1: buy('1800.00'),
        2: () => ({ kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.04' }),
        4: exit,
      },
      b,
    ),
    seen: () => Math.min(a.n, b.n),
  };
}
