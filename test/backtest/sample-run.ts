/**
 * A deterministic stand-in for a backtest run (seeded random-walk prices and a fixed in/out trading
 * pattern), so the report can be tested before the engine exists. Not a fill model: only a source of
 * realistic-looking equity, trades and fills.
 */
import { computeMetrics, type RoundTrip } from '../../backtest/metrics.js';
import { DEFAULT_FILL_RULE, type FillMarker, type ReportInput } from '../../backtest/report/report.js';
import { Rng } from '../../src/core/index.js';

export function sampleRun(points: number, seed = 1, stepMs = 3_600_000): ReportInput {
  const rng = new Rng(seed);
  const times = new Float64Array(points);
  const prices = new Float64Array(points);
  const equity = new Float64Array(points);
  const trades: RoundTrip[] = [];
  const fills: FillMarker[] = [];
  const fee = 0.001;
  let price = 30_000;
  let cash = 10_000;
  let units = 0;
  let entry = { at: 0, price: 0, cost: 0, fee: 0 };
  for (let i = 0; i < points; i++) {
    price *= Math.exp(0.01 * (rng.next() - 0.5));
    times[i] = Date.UTC(2024, 0, 1) + i * stepMs;
    prices[i] = price;
    if (i % 100 === 10 && i + 50 < points) {
      units = (cash * (1 - fee)) / price;
      entry = { at: times[i]!, price, cost: cash, fee: cash * fee };
      cash = 0;
      fills.push({ at: times[i]!, side: 'buy', price });
    } else if (i % 100 === 60 && units > 0) {
      const gross = units * price;
      cash = gross * (1 - fee);
      trades.push({
        market: 'BTCUSD',
        side: 'long',
        entryAt: entry.at,
        exitAt: times[i]!,
        quantity: units.toFixed(8),
        entryPrice: entry.price.toFixed(2),
        exitPrice: price.toFixed(2),
        pnl: (cash - entry.cost).toFixed(2),
        fees: (entry.fee + gross * fee).toFixed(2),
      });
      fills.push({ at: times[i]!, side: 'sell', price });
      units = 0;
    }
    equity[i] = cash + units * price;
  }
  const metrics = computeMetrics({ times, equity, prices, trades });
  return {
    strategy: 'sma-cross',
    market: 'BTCUSD',
    params: { fast: 10, slow: 30 },
    source: 'sample.csv',
    times,
    prices,
    equity,
    trades,
    fills,
    metrics,
    assumptions: { initial: 'USD=10000', feeBps: 10, slippageBps: 0, fillRule: DEFAULT_FILL_RULE },
  };
}
