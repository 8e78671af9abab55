import { z } from 'zod';
import { D } from '../../src/core/index.js';
import { midOf } from '../../src/state/index.js';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';

/**
 * Test plugin of the paper-on-real-data tests (loaded by path by `tradeloop run`): at its first book
 * a buy resting 3 % under the mid (it stays open across a restart); then on every book a small
 * crossing IOC order, buying and selling in turn (selling only what it holds); at its first BUY
 * quote, one quote execution of 20 USD.
 */
export default defineStrategy({
  name: 'paper-real-churn',
  description: 'test strategy: one resting buy, crossing IOC buys and sells, one quote execution',
  params: z.object({}),
  markets: ['BTCUSD'],
  needs: ['price', 'book', 'quote'],
  create: () => {
    let books = 0;
    let rested = false;
    let quoted = false;
    return {
      onEvent(e, ctx) {
        if (ctx.warmingUp) return undefined;
        const mid = midOf(ctx.market('BTCUSD'));
        if (mid === undefined) return undefined;
        const m = new D(mid);
        if (e.kind === 'quote' && e.side === 'BUY' && !quoted) {
          quoted = true;
          return {
            kind: 'execute-quote',
            market: 'BTCUSD',
            side: 'BUY',
            quoteAmount: '20.00',
            limitPrice: m.times('1.05').toDecimalPlaces(2, D.ROUND_UP).toFixed(),
          };
        }
        if (e.kind !== 'book') return undefined;
        const out: IntentDraft[] = [];
        if (!rested) {
          rested = true;
          out.push({
            kind: 'place-order',
            market: 'BTCUSD',
            side: 'BUY',
            type: 'LIMIT',
            baseAmount: '0.0002',
            price: m.times('0.97').toDecimalPlaces(2, D.ROUND_DOWN).toFixed(),
          });
        }
        books++;
        if (books % 2 === 1)
          out.push({
            kind: 'place-order',
            market: 'BTCUSD',
            side: 'BUY',
            type: 'LIMIT',
            timeInForce: 'IOC',
            baseAmount: '0.0001',
            price: m.times('1.02').toDecimalPlaces(2, D.ROUND_UP).toFixed(),
          });
        else if (ctx.account.available('BTC').gte('0.0001'))
          out.push({
            kind: 'place-order',
            market: 'BTCUSD',
            side: 'SELL',
            type: 'LIMIT',
            timeInForce: 'IOC',
            baseAmount: '0.0001',
            price: m.times('0.98').toDecimalPlaces(2, D.ROUND_DOWN).toFixed(),
          });
        return out;
      },
    };
  },
});
