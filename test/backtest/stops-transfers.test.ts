/**
 * Stop orders and transfers in a backtest, end to end: a strategy's STOP_MARKET and transfer intents go
 * through the risk gate and executors to point replay, which a live run would send to the platform.
 */
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run.js';
import { resolveParams } from '../../src/strategy/index.js';
import { stopAndSave } from '../support/stop-and-save.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

function series(prices: number[]): { source: string; length: number; times: Float64Array; prices: Float64Array } {
  return {
    source: 'hand.csv',
    length: prices.length,
    times: Float64Array.from(prices, (_, i) => T0 + i * H),
    prices: Float64Array.from(prices),
  };
}

describe('a backtest takes stop orders and transfers as a live run does', () => {
  it('fires the stop at the first later point at or below 9 and settles the transfer', async () => {
    const run = await runBacktest({
      definition: stopAndSave,
      params: resolveParams(stopAndSave, {}),
      series: series([10, 10, 11, 9.5, 9, 8]),
    });
    // buy at i=1's 10: fee 1, 999 / 10 = 99.9 BTC; the stop waits through 11 and 9.5 and fires at i=4's 9:
    // gross 899.1, fee 0.8991, credited floor2(898.2009) = 898.20; the transfer took 100 USD
    expect(run.intents.map((t) => [t.kind, t.outcome])).toEqual([
      ['place-order', 'approve'],
      ['place-order', 'approve'],
      ['transfer', 'approve'],
    ]);
    expect(run.trades).toMatchObject([{ entryAt: T0 + H, exitAt: T0 + 4 * H, quantity: '99.9', entryPrice: '10', exitPrice: '9' }]);
    expect(run.finalBalances).toEqual({ USD: '9798.2', BTC: '0' }); // 10000 − 1000 − 100 + 898.20
  });
});
