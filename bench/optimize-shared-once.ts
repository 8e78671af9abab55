/**
 * One optimize run of issue 22's workload, in its own process so that its peak RSS is its own:
 * sma-cross over the 1,000,000-point walk of `backtest-replay.ts`, COMBOS combinations (40 fast
 * periods × as many slow periods as it takes), WORKERS threads; WORKERS 0 runs the same jobs one
 * after another in the main thread (no worker at all: the baseline a thread's cost is read against).
 * Prints one line of JSON: wall time, results, peak RSS, and how the threads loaded their code.
 *
 *   node --import tsx bench/optimize-shared-once.ts WORKERS COMBOS
 */
import { performance } from 'node:perf_hooks';
import { parseGrid } from '../backtest/optimize/grid.js';
import { runOptimize } from '../backtest/optimize/optimize.js';
import { runJob, type Job, type JobResult } from '../backtest/optimize/job.js';
import { loadStrategy } from '../src/strategy/loader.js';
import { walkSeries } from './backtest-replay.js';

const workers = Number(process.argv[2]);
const combos = Number(process.argv[3]);
if (!Number.isInteger(workers) || workers < 0 || !Number.isInteger(combos) || combos < 40 || combos % 40 !== 0) {
  throw new Error(
    `usage: optimize-shared-once.ts WORKERS COMBOS (WORKERS 0 for the main thread only, COMBOS a multiple of 40), got ${process.argv.slice(2).join(' ')}`,
  );
}
const slows = combos / 40;
const grid = parseGrid(`fast=10..49,slow=${slows === 1 ? '200' : `200..${199 + slows}`}`);
const series = walkSeries(1_000_000);
const t0 = performance.now();
let failed: number;
let workerCode: unknown;
if (workers === 0) {
  const definition = await loadStrategy('sma-cross');
  const ctx = {
    strategy: 'sma-cross',
    source: series.source,
    times: series.times,
    prices: series.prices,
    baseParams: {},
    feeBps: 10,
    slippageBps: 0,
    initial: { USD: '10000' },
  };
  const results: JobResult[] = [];
  for (const [id, params] of grid.combinations.entries()) {
    const job: Job = { id, params, start: 0, end: series.length };
    results.push(await runJob(definition, ctx, job));
  }
  failed = results.filter((r) => !r.ok).length;
} else {
  const result = await runOptimize({ strategy: 'sma-cross', series, grid, metric: 'sharpe', workers });
  failed = result.failed;
  workerCode = result.workerCode;
}
const wall = performance.now() - t0;
process.stdout.write(
  `${JSON.stringify({ workers, combinations: grid.combinations.length, failed, wall, peakRssMb: process.resourceUsage().maxRSS / 1024, workerCode })}\n`,
);
