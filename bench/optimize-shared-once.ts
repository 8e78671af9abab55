/**
 * One optimize run of issue 22's workload, in its own process so that its peak RSS is its own:
 * sma-cross over the 1,000,000-point walk of `backtest-replay.ts`, COMBOS combinations (40 fast
 * periods × as many slow periods as it takes), WORKERS threads. Prints one line of JSON: wall time,
 * results, peak RSS.
 *
 *   node --import tsx bench/optimize-shared-once.ts WORKERS COMBOS
 */
import { performance } from 'node:perf_hooks';
import { parseGrid } from '../backtest/grid.js';
import { runOptimize } from '../backtest/optimize.js';
import { walkSeries } from './backtest-replay.js';

const workers = Number(process.argv[2]);
const combos = Number(process.argv[3]);
if (!Number.isInteger(workers) || workers < 1 || !Number.isInteger(combos) || combos < 40 || combos % 40 !== 0) {
  throw new Error(`usage: optimize-shared-once.ts WORKERS COMBOS (COMBOS a multiple of 40), got ${process.argv.slice(2).join(' ')}`);
}
const slows = combos / 40;
const grid = parseGrid(`fast=10..49,slow=${slows === 1 ? '200' : `200..${199 + slows}`}`);
const series = walkSeries(1_000_000);
const t0 = performance.now();
const result = await runOptimize({ strategy: 'sma-cross', series, grid, metric: 'sharpe', workers });
const wall = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ workers, combinations: result.combinations, failed: result.failed, wall, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
