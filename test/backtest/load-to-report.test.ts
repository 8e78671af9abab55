/**
 * The pieces a backtest run joins, end to end on a file: a price CSV loads, a buy-and-hold equity curve
 * over it gives metrics equal to buy-and-hold, and the report's equity.csv carries the same points.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { computeMetrics } from '../../backtest/metrics.js';
import { DEFAULT_FILL_RULE, formatMetricRows, writeBacktestReport } from '../../backtest/report/report.js';
import { loadPriceSeries } from '../../src/sim/prices/price-file.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-load-to-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('loads an OHLCV file, scores holding it as buy-and-hold, and writes the same points to equity.csv', () => {
  const rows = ['timestamp,open,high,low,close,volume'];
  const closes = [100, 104, 98, 103, 110, 99, 120];
  closes.forEach((c, i) => rows.push(`2024-03-0${i + 1}T00:00:00Z,${c},${c + 2},${c - 2},${c},1`));
  const file = join(dir, 'daily.csv');
  writeFileSync(file, `${rows.join('\n')}\n`);

  const series = loadPriceSeries(file);
  const equity = Float64Array.from(series.prices, (p) => p * 100);
  const metrics = computeMetrics({ times: series.times, equity, prices: series.prices, trades: [], openSince: series.times[0]! });
  expect(metrics.totalReturnPct).toBeCloseTo(20, 10);
  expect(metrics.buyHoldReturnPct).toBeCloseTo(20, 10);
  expect(metrics.exposurePct).toBe(100);
  expect(metrics.maxDrawdownPct).toBeCloseTo((11 / 110) * 100, 10);
  expect(metrics.periodsPerYear).toBe(365);
  expect(formatMetricRows(metrics)).toContainEqual(['Max drawdown duration', '2d']);

  const files = writeBacktestReport(join(dir, 'out'), {
    strategy: 'hold',
    market: 'BTCUSD',
    source: file,
    times: series.times,
    prices: series.prices,
    equity,
    trades: [],
    metrics,
    assumptions: { initial: 'USD=10000', feeBps: 0, slippageBps: 0, fillRule: DEFAULT_FILL_RULE },
  });
  const csv = readFileSync(files.equity, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((r) => r.split(','));
  expect(csv.map((r) => r[0])).toEqual(closes.map((_, i) => `2024-03-0${i + 1}T00:00:00Z`));
  expect(csv.map((r) => Number(r[1]))).toEqual(closes);
  expect(csv.map((r) => r[2])).toEqual(csv.map((r) => r[3]));
  expect(csv[5]![4]).toBe('10.0000');
});
