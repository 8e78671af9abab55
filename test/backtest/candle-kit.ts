/**
 * What the candle report tests share: hourly OHLCV data (a seeded walk, each row's high and low away
 * from its open and close), a backtest of a strategy on it, and its report written by the report writer.
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_FILL_RULE, writeBacktestReport } from '../../backtest/report/report.js';
import { runBacktest, type BacktestRun } from '../../backtest/run.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { PriceSeries } from '../../src/sim/prices/price-data.js';
import { resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { randomWalk } from '../support/walk.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

/** An hourly OHLCV series around a seeded walk. */
export function hourly(n: number, seed: number, scale = 1): PriceSeries {
  const walk = randomWalk(n + 1, seed, { start: 100 * scale, vol: 0.03, from: T0, stepMs: HOUR });
  const opens = walk.prices.subarray(0, n).slice();
  const prices = walk.prices.subarray(1, n + 1).slice();
  const highs = opens.map((o, i) => Math.max(o, prices[i]!) + 0.5 + (i % 3) * 0.2);
  const lows = opens.map((o, i) => Math.min(o, prices[i]!) - 0.5 - (i % 2) * 0.2);
  return {
    source: `hourly ${seed}`,
    length: n,
    times: walk.times.subarray(0, n).slice(),
    prices,
    opens,
    highs,
    lows,
    volumes: opens.map(() => 1),
  };
}

/** The same as an OHLCV file (timestamp,open,high,low,close,volume). */
export function writeHourly(file: string, n: number, seed: number, scale = 1): void {
  const s = hourly(n, seed, scale);
  const rows = Array.from({ length: n }, (_, i) => [s.times[i], s.opens![i], s.highs![i], s.lows![i], s.prices[i], 1].join(','));
  writeFileSync(file, `timestamp,open,high,low,close,volume\n${rows.join('\n')}\n`);
}

const risk = RiskLimitsSchema.parse({ stale_after_ms: 10 * 24 * HOUR, max_order_notional: '10000000', price_band_bps: 5_000 });

/** A backtest of `definition` (default params) on `series`, with limits wide enough to trade. */
export async function runOn(definition: StrategyDefinition, series: PriceSeries): Promise<BacktestRun> {
  return runBacktest({ definition, params: resolveParams(definition, {}), series, limits: risk, charts: true });
}

/** Writes the run's report into `out` as the CLI does (candles, plots and fills included); the page's path. */
export function writeRunReport(out: string, r: BacktestRun, strategy: string, maxChartPoints?: number): string {
  return writeBacktestReport(out, {
    strategy,
    market: r.market,
    times: r.times,
    prices: r.prices,
    equity: r.equity,
    trades: r.trades,
    fills: r.fills,
    metrics: r.metrics,
    ...(r.candles && { candles: r.candles }),
    ...(r.plots && { plots: r.plots }),
    ...(maxChartPoints !== undefined && { maxChartPoints }),
    assumptions: { initial: 'USD=10000', feeBps: 10, slippageBps: 0, fillRule: DEFAULT_FILL_RULE },
  }).html;
}
