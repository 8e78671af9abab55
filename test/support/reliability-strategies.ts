import { z } from 'zod';
import { D } from '../../src/core/index.js';
import { midOf } from '../../src/state/index.js';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';

/** A price `bps` basis points from `mid`, to cents, rounded away from crossing. */
function priceFrom(mid: number, bps: number): string {
  const p = new D(mid).times(new D(1).plus(new D(bps).div(10_000)));
  return p.toDecimalPlaces(2, bps < 0 ? D.ROUND_DOWN : D.ROUND_UP).toFixed();
}

/**
 * Test strategy with many intents of every order kind: on each price it places a resting buy
 * below the mid, cancels the oldest beyond `keep`, and every `takeEvery`-th price crosses the spread
 * with an IOC buy or sell (so fills happen).
 */
export const churnStrategy = defineStrategy({
  name: 'chaos-churn',
  description: 'test strategy: resting buys, cancels and crossing IOC orders on every price',
  params: z.object({ keep: z.number().int().default(4), takeEvery: z.number().int().default(3) }),
  markets: ['BTCUSD'],
  create: (p) => {
    let n = 0;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price') return undefined;
        const mid = midOf(ctx.market('BTCUSD'));
        if (mid === undefined) return undefined;
        n++;
        const out: IntentDraft[] = [
          {
            kind: 'place-order',
            market: 'BTCUSD',
            side: 'BUY',
            type: 'LIMIT',
            baseAmount: '0.0002',
            price: priceFrom(mid, -150 - (n % 7) * 10),
          },
        ];
        if (n % p.takeEvery === 0) {
          const side = n % (2 * p.takeEvery) === 0 ? 'SELL' : 'BUY';
          out.push({
            kind: 'place-order',
            market: 'BTCUSD',
            side,
            type: 'LIMIT',
            timeInForce: 'IOC',
            baseAmount: '0.0003',
            price: priceFrom(mid, side === 'BUY' ? 200 : -200),
          });
        }
        const open = ctx.account.openOrders('BTCUSD');
        if (open.length > p.keep && open[0]) out.push({ kind: 'cancel-order', orderRefId: open[0].refId });
        return out;
      },
    };
  },
});

/** Test strategy: buys or sells a small quote-amount through held-rate quotes every few prices. */
export const quoteStrategy = defineStrategy({
  name: 'chaos-quotes',
  description: 'test strategy: small quote executions, alternating sides',
  params: z.object({ every: z.number().int().default(4) }),
  markets: ['BTCUSD'],
  needs: ['price', 'quote'],
  create: (p) => {
    let n = 0;
    return {
      onEvent(e) {
        if (e.kind !== 'price' || ++n % p.every !== 0) return undefined;
        return { kind: 'execute-quote', market: 'BTCUSD', side: n % (2 * p.every) === 0 ? 'SELL' : 'BUY', quoteAmount: '25.00' };
      },
    };
  },
});

/** Test strategy: moves a few dollars from one profile to another every few prices. */
export const transferStrategy = defineStrategy({
  name: 'chaos-transfers',
  description: 'test strategy: small internal transfers between two profiles',
  params: z.object({ every: z.number().int().default(5), from: z.string(), to: z.string() }),
  markets: ['BTCUSD'],
  create: (p) => {
    let n = 0;
    return {
      onEvent(e) {
        if (e.kind !== 'price' || ++n % p.every !== 0) return undefined;
        return { kind: 'transfer', asset: 'USD', amount: '3.50', fromProfileId: p.from, toProfileId: p.to };
      },
    };
  },
});
