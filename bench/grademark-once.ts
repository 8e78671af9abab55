/**
 * grademark (an npm backtester) on the dense workload of `backtest-replay.ts`, for comparison: the
 * same seeded 1,000,000-point random walk, the same SMA 50/200 crossover (long on the golden cross,
 * flat on the death cross). Runs in its own process (`node --import tsx bench/grademark-once.ts`)
 * so its peak RSS is its own, and prints one line of JSON: replay time, trades, peak RSS.
 *
 * grademark takes a data-forge DataFrame of bars; the two averages are computed before it starts (a
 * plain running sum, as data-forge-indicators would add them as columns), and the time counted is
 * building the DataFrame plus `backtest`, what a grademark user waits for once the data is read.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { walkSeries } from './backtest-replay.js';

interface Bar {
  time: Date;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  fast: number;
  slow: number;
}
interface GrademarkArgs {
  readonly bar: Bar;
}
type Backtest = (strategy: unknown, frame: unknown) => unknown[];

const require = createRequire(import.meta.url);
const { backtest } = require('grademark') as { backtest: Backtest };
const { DataFrame } = require('data-forge') as { DataFrame: new (rows: Bar[]) => unknown };

const FAST = Number(process.argv[2] ?? 50);
const SLOW = Number(process.argv[3] ?? 200);
const series = walkSeries(Number(process.argv[4] ?? 1_000_000));
const rows: Bar[] = [];
let fastSum = 0;
let slowSum = 0;
const p = series.prices;
for (let i = 0; i < series.length; i++) {
  fastSum += p[i]! - (i >= FAST ? p[i - FAST]! : 0);
  slowSum += p[i]! - (i >= SLOW ? p[i - SLOW]! : 0);
  if (i + 1 < SLOW) continue; // grademark has no warm-up: bars start once both averages exist
  const x = p[i]!;
  rows.push({
    time: new Date(series.times[i]!),
    open: x,
    high: x,
    low: x,
    close: x,
    volume: 0,
    fast: fastSum / FAST,
    slow: slowSum / SLOW,
  });
}
let peak = process.memoryUsage().rss;
const t0 = performance.now();
const frame = new DataFrame(rows);
const strategy = {
  entryRule: (enter: () => void, a: GrademarkArgs) => {
    if (a.bar.fast > a.bar.slow) enter();
  },
  exitRule: (exit: () => void, a: GrademarkArgs) => {
    if (a.bar.fast < a.bar.slow) exit();
  },
};
const trades = backtest(strategy, frame);
const ms = performance.now() - t0;
peak = Math.max(peak, process.memoryUsage().rss);
process.stdout.write(
  `${JSON.stringify({ ms, trades: trades.length, points: rows.length, peakRssMb: Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1e6 })}\n`,
);
