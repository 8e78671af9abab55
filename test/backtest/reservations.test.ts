/**
 * What an approved order reserves is released in a backtest as in a live run: once the venue has the
 * order, balances read after it say what is left. A fill reported later must not keep the amount
 * reserved: point replay streams balances only when they change, so nothing newer would ever free it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../backtest/run.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

/** A market buy of half the cash on the first price, then one small resting buy on each later one. */
const buyThenRest = defineStrategy({
  name: 'buy-then-rest',
  description: 'spends 5000 USD at once, then places a 30 USD resting buy per price',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    let n = 0;
    return {
      onEvent: (e): IntentDraft | undefined => {
        if (e.kind !== 'price') return undefined;
        if (++n === 1) return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '5000.00' };
        return {
          kind: 'place-order',
          market: 'BTCUSD',
          side: 'BUY',
          type: 'LIMIT',
          baseAmount: '0.001',
          price: '30000.00',
          timeInForce: 'GTC',
        };
      },
    };
  },
});

describe('backtest reservations', () => {
  it('frees what a filled market buy reserved, so the cash left still buys (not INSUFFICIENT_BALANCE)', async () => {
    const prices = [60_000, 60_000, 60_000, 60_000];
    const series = {
      source: 'flat.csv',
      length: prices.length,
      times: Float64Array.from(prices, (_, i) => T0 + i * H),
      prices: Float64Array.from(prices),
    };
    const limits = RiskLimitsSchema.parse({ price_band_bps: 6_000 });
    const run = await runBacktest({ definition: buyThenRest, params: {}, series, limits, initial: { USD: '10000' } });
    // the market buy fills at the second point; 4994.97 USD stays available for three 30.03 USD bids
    expect(run.intents.map((t) => t.outcome)).toEqual(['approve', 'approve', 'approve', 'approve']);
    expect(run.denials).toEqual({});
  });
});
