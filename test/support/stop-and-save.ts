/**
 * A test strategy shared by the point and book model tests: buys with 1000 USD at the first price; at
 * the price after the fill, protects the position with a stop at 9 and moves 100 USD to a savings profile.
 */
import { z } from 'zod';
import { defineStrategy } from '../../src/strategy/index.js';

export const stopAndSave = defineStrategy({
  name: 'stop-and-save',
  description: 'buys once, then places a stop loss and sweeps some cash to another profile',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    let step: 'buy' | 'wait' | 'protect' | 'done' = 'buy';
    let held = '0';
    return {
      onEvent(e) {
        if (e.kind !== 'price') return undefined;
        if (step === 'buy') {
          step = 'wait';
          return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000.00' };
        }
        if (step !== 'protect') return undefined;
        step = 'done';
        return [
          { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'STOP_MARKET', baseAmount: held, stopPrice: '9.00' },
          { kind: 'transfer', asset: 'USD', amount: '100.00', fromProfileId: 'default', toProfileId: 'savings' },
        ];
      },
      onReport(r) {
        if (r.kind !== 'filled' || r.side !== 'BUY') return;
        held = r.amount;
        step = 'protect';
      },
    };
  },
});
