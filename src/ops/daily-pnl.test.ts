import { describe, expect, it } from 'vitest';
import type { StrategyFill } from '../exec/index.js';
import { dailyPnl } from './daily-pnl.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1, 22, 0, 0);
let n = 0;
function fill(
  strategy: string,
  market: string,
  side: 'BUY' | 'SELL',
  amount: string,
  price: string,
  at: number,
  commission = '0',
): StrategyFill {
  return { strategy, refId: `r-${++n}`, market, side, amount, price, commission, commissionAsset: market.slice(-3), at };
}

describe('dailyPnl', () => {
  it('counts what each sell realized against the average cost, with its fees, on its UTC day, per strategy', () => {
    const days = dailyPnl([
      fill('a', 'BTCUSD', 'BUY', '0.1', '100', T0, '0.05'),
      fill('a', 'BTCUSD', 'BUY', '0.1', '110', T0 + 60_000, '0.05'),
      // after midnight UTC: sells half at 120 (average cost 105.5 per unit, fees in it)
      fill('a', 'BTCUSD', 'SELL', '0.1', '120', T0 + 2 * 3_600_000, '0.06'),
      fill('b', 'ETHUSD', 'BUY', '1', '10', T0 + 2 * 3_600_000),
      fill('b', 'ETHUSD', 'SELL', '1', '9', T0 + 2 * 3_600_000 + 1),
      fill('a', 'BTCUSD', 'SELL', '0.1', '100', T0 + DAY + 3 * 3_600_000, '0.05'),
    ]);
    expect(days).toEqual([
      { date: '2026-03-01', strategy: 'a', quote: 'USD', realized: '0', fees: '0.1', trades: 2 },
      // 0.1 × 120 − 0.06 − 0.1 × 105.5
      { date: '2026-03-02', strategy: 'a', quote: 'USD', realized: '1.39', fees: '0.06', trades: 1 },
      { date: '2026-03-02', strategy: 'b', quote: 'USD', realized: '-1', fees: '0', trades: 2 },
      // 0.1 × 100 − 0.05 − 10.55
      { date: '2026-03-03', strategy: 'a', quote: 'USD', realized: '-0.6', fees: '0.05', trades: 1 },
    ]);
  });

  it('keeps decimals exact where floats would not (0.1 + 0.2), and a sell with no position of its own realizes nothing', () => {
    const days = dailyPnl([
      fill('a', 'BTCUSD', 'SELL', '1', '50', T0),
      fill('a', 'BTCUSD', 'BUY', '0.1', '1', T0 + 1, '0.1'),
      fill('a', 'BTCUSD', 'BUY', '0.2', '1', T0 + 2, '0.2'),
    ]);
    expect(days).toEqual([{ date: '2026-03-01', strategy: 'a', quote: 'USD', realized: '0', fees: '0.3', trades: 3 }]);
    expect(dailyPnl([])).toEqual([]);
  });
});
