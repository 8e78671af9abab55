/**
 * Backtest replay throughput (issue 7): sma-cross through the full path — market store → strategy →
 * risk gate → journal → executors → point replay — on 1,000,000 seeded random-walk points on one
 * core, beside a plain Float64Array crossover loop over the same points measured in the same run
 * (the ratio is the figure that matters), with peak RSS. Then `optimize` on a grid with 1 worker and
 * with N workers (all cores) for the speed-up, and once more with 1 worker confined to one core
 * (`taskset -c 0`, in a child process: `optimize-once.ts`), the baseline without an idle core running
 * V8's helper threads for free.
 *
 * Issue 22 adds: grademark (an npm backtester) on the same series in its own process
 * (`grademark-once.ts`); the cost of an intent against sma-cross itself with no money to order; and
 * optimize over the 1,000,000 points with 1 and 2 workers, the points shared with the threads, each
 * run in its own process for its peak RSS (`optimize-shared-once.ts`).
 *
 *   npm run bench backtest-replay
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runOptimize } from '../backtest/optimize/optimize.js';
import { parseGrid } from '../backtest/optimize/grid.js';
import { runBacktest } from '../backtest/run.js';
import { Rng } from '../src/core/index.js';
import type { PriceSeriesLike } from '../src/sim/prices/price-data.js';
import { resolveParams } from '../src/strategy/index.js';
import { z } from 'zod';
import { Sma } from '../src/indicators/index.js';
import { defineStrategy } from '../src/strategy/index.js';
import smaCross from '../strategies/sma-cross.js';
import { threadScaling } from './thread-scaling.js';

/** The same two SMAs as sma-cross, never trading: the per-point cost of the path without intents. */
export const watchOnly = defineStrategy({
  name: 'watch-only',
  description: 'updates two SMAs per price point and never trades',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    const fast = new Sma(FAST);
    const slow = new Sma(SLOW);
    return {
      onEvent: (e) => {
        if (e.kind === 'price') {
          fast.update(e.price);
          slow.update(e.price);
        }
      },
    };
  },
});

const POINTS = 1_000_000;
const STEP_MS = 60_000;
const START_MS = Date.UTC(2020, 0, 1);
const FAST = 50;
const SLOW = 200;
/** Timed runs per figure after the first (warm, and the no-money baseline). */
const RUNS = 5;

/** A seeded random walk of `n` minute points. */
export function walkSeries(n: number, seed = 42): PriceSeriesLike {
  const rng = new Rng(seed);
  const times = new Float64Array(n);
  const prices = new Float64Array(n);
  let p = 30_000;
  for (let i = 0; i < n; i++) {
    p *= Math.exp(0.002 * (rng.next() - 0.5));
    times[i] = START_MS + i * STEP_MS;
    prices[i] = Math.round(p * 100) / 100;
  }
  return { source: `random walk (${n} points, seed ${seed})`, length: n, times, prices };
}

/**
 * The least a per-point kernel does for sma-cross, and nothing else: a price event object a point,
 * handed through three calls (source, engine, runner) to a strategy that updates the two library
 * SMAs, passes both to a plot check and tests the cross; equity marked a point. No market store, fill
 * model, clock, risk, journal or orders. Returns the crosses (kept, so none of it is optimized away).
 */
function kernelSkeleton(series: PriceSeriesLike, fast: number, slow: number): number {
  interface PriceEvent {
    readonly kind: 'price';
    readonly market: string;
    readonly at: number;
    readonly price: number;
  }
  const state = { crosses: 0, prevDiff: Number.NaN, at: 0 };
  const plot = (_name: string, value: number): void => {
    if (!Number.isFinite(value)) throw new Error('plot');
  };
  const f = new Sma(fast);
  const s = new Sma(slow);
  const strategy = (e: PriceEvent): undefined => {
    const a = f.update(e.price);
    const b = s.update(e.price);
    if (a === undefined || b === undefined) return undefined;
    plot('fast', a);
    plot('slow', b);
    const diff = a - b;
    if ((state.prevDiff <= 0 && diff > 0) || (state.prevDiff >= 0 && diff < 0)) state.crosses++;
    state.prevDiff = diff;
    return undefined;
  };
  const runner = (e: PriceEvent): void => {
    if (strategy(e) !== undefined) throw new Error('intent');
  };
  const engine = (e: PriceEvent): void => {
    state.at = e.at;
    runner(e);
  };
  const equity = new Float64Array(series.length);
  for (let i = 0; i < series.length; i++) {
    engine({ kind: 'price', market: 'BTCUSD', at: series.times[i]!, price: series.prices[i]! });
    equity[i] = 10_000 + state.crosses * series.prices[i]!;
  }
  return state.crosses + equity[series.length - 1]! * 0;
}

/** The baseline: the same crossover as sma-cross in a plain loop with running sums. */
function plainLoop(prices: Float64Array, fast: number, slow: number): number {
  let fastSum = 0;
  let slowSum = 0;
  let prev = Number.NaN;
  let crosses = 0;
  for (let i = 0; i < prices.length; i++) {
    const p = prices[i]!;
    fastSum += p - (i >= fast ? prices[i - fast]! : 0);
    slowSum += p - (i >= slow ? prices[i - slow]! : 0);
    if (i + 1 < slow) continue;
    const diff = fastSum / fast - slowSum / slow;
    if ((prev <= 0 && diff > 0) || (prev >= 0 && diff < 0)) crosses++;
    prev = diff;
  }
  return crosses;
}

function rate(points: number, ms: number): string {
  return `${Math.round(points / (ms / 1000)).toLocaleString('en-US')} points/s`;
}

/** Median of a few numbers. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * The first 1M-point run in a fresh process is measured apart ("cold": the intent path is still
 * being compiled), then five more; the figure is their median ("warm", the JIT's steady state), with
 * the fastest of them beside it: on a shared machine the fastest runs are the ones least disturbed.
 */
export async function replayFigure(series: PriceSeriesLike): Promise<void> {
  const params = resolveParams(smaCross, { fast: FAST, slow: SLOW });
  let peakRss = process.memoryUsage().rss;
  const sample = (): void => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  };
  // one run's results are kept (for its counts), the others only timed: peak RSS is one run's
  const run = await runBacktest({ definition: smaCross, params, series, onProgress: sample, progressEvery: 50_000 });
  const coldMs = run.elapsedMs;
  const warmRuns: number[] = [];
  for (let r = 0; r < RUNS; r++)
    warmRuns.push((await runBacktest({ definition: smaCross, params, series, onProgress: sample, progressEvery: 50_000 })).elapsedMs);
  sample();
  const warmMs = median(warmRuns);
  const warmMin = Math.min(...warmRuns);
  let baseMs = Infinity;
  let crosses = 0;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    crosses = plainLoop(series.prices, FAST, SLOW);
    baseMs = Math.min(baseMs, performance.now() - t0);
  }
  const warm = series.length / (warmMs / 1000);
  const plain = series.length / (baseMs / 1000);
  process.stdout.write(`sma-cross ${FAST}/${SLOW}, full path (store → strategy → risk → journal → executors → point replay)\n`);
  process.stdout.write(
    `  ${series.length.toLocaleString('en-US')} points, ${run.metrics.trades} round trips, ${run.intents.length} intents\n`,
  );
  process.stdout.write(`  cold (first run in this process): ${coldMs.toFixed(0)} ms: ${rate(series.length, coldMs)}\n`);
  process.stdout.write(
    `  warm (median of the next ${RUNS} runs): ${warmMs.toFixed(0)} ms: ${rate(series.length, warmMs)}; fastest ${warmMin.toFixed(0)} ms: ${rate(series.length, warmMin)}\n`,
  );
  process.stdout.write(
    `  plain Float64Array crossover loop: ${baseMs.toFixed(1)} ms: ${rate(series.length, baseMs)} (${crosses} crosses)\n`,
  );
  process.stdout.write(`  ratio plain / warm full path: ${(plain / warm).toFixed(0)}×; peak RSS ${(peakRss / 1e6).toFixed(0)} MB\n`);
  // the baselines each in a process of their own: code V8 compiled for the runs before would
  // otherwise shape theirs (the same runs read 20-25 % slower after the full path's than alone)
  const idle = replayOnce('watch', 3);
  const idleMs = median(idle);
  process.stdout.write(
    `  same path, same SMAs, no strategy logic, no intents (own process, median of 3 after a first run): ${idleMs.toFixed(0)} ms: ${rate(series.length, idleMs)}\n`,
  );
  // sma-cross itself with too little money to size an order: all of its per-point work (the cross,
  // the Position helper), no intent: a fairer baseline for the cost of an intent than watch-only. A
  // helper that never ordered checks the account's holding at every point (one that has ordered does
  // not); the check keeps its answer while the account's total is the same object, so it costs a few
  // ns a point (before, it was a Decimal comparison a point, about 60 ms a run).
  const broke = replayOnce('broke', RUNS);
  const brokeMs = median(broke);
  const intents = Math.max(1, run.intents.length);
  const perIntentUs = ((warmMs - brokeMs) * 1000) / intents;
  const perIntentFastestUs = ((warmMin - Math.min(...broke)) * 1000) / intents;
  process.stdout.write(
    `  sma-cross with USD 0.001 (every per-point step, never an order; own process, median of ${RUNS} after a first run): ${brokeMs.toFixed(0)} ms: ${rate(series.length, brokeMs)}; ` +
      `each intent (risk, journal, executors, fill, report, the strategy's own handling) adds ≈ ${perIntentUs.toFixed(1)} µs ` +
      `(${perIntentFastestUs.toFixed(1)} µs between the fastest runs of each)\n`,
  );
  let skeletonMs = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    kernelSkeleton(series, FAST, SLOW);
    skeletonMs = Math.min(skeletonMs, performance.now() - t0);
  }
  process.stdout.write(
    `  the least a per-point kernel does (an event object a point through three calls, the two SMAs, plot checks, an equity mark; nothing else; fastest of 5): ${skeletonMs.toFixed(0)} ms: ${rate(series.length, skeletonMs)}\n`,
  );
  const gm = grademarkFigure();
  if (typeof gm === 'string') process.stdout.write(`  grademark: skipped (${gm})\n`);
  else {
    process.stdout.write(
      `  grademark ${gm.version} on the same series (own process; DataFrame + backtest, averages precomputed): ${gm.ms.toFixed(0)} ms: ` +
        `${rate(gm.points, gm.ms)}, ${gm.trades} trades, peak RSS ${gm.peakRssMb.toFixed(0)} MB; warm full path ${(gm.ms / warmMs).toFixed(1)}× faster ` +
        `(the per-point skeleton alone ${(gm.ms / skeletonMs).toFixed(1)}×)\n`,
    );
  }
  process.stdout.write(`  target: warm ≥ 6,000,000 points/s; each intent ≤ 10 µs (aim 5)\n`);
}

/**
 * A baseline of the dense workload in a child process (`replay-once.ts`): the elapsed ms of `runs`
 * runs after a first one (dropped: the intent path still compiling).
 */
function replayOnce(mode: 'watch' | 'broke', runs: number): number[] {
  const once = fileURLToPath(new URL('./replay-once.ts', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', once, mode, String(runs), String(POINTS)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the ${mode} baseline exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return (JSON.parse(r.stdout) as { ms: number[] }).ms;
}

/** grademark on the same workload, in a child process (`grademark-once.ts`); a string says why it was skipped. */
function grademarkFigure(): { ms: number; trades: number; points: number; peakRssMb: number; version: string } | string {
  const once = fileURLToPath(new URL('./grademark-once.ts', import.meta.url));
  let version: string;
  try {
    version = (createRequire(import.meta.url)('grademark/package.json') as { version: string }).version;
  } catch {
    return 'grademark is not installed (a devDependency: npm install)';
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', once, String(FAST), String(SLOW), String(POINTS)], { encoding: 'utf8' });
  if (r.error) return `the grademark run could not start (${r.error.message})`;
  if (r.status !== 0) return `the grademark run exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-1)[0] ?? ''}`;
  return { ...(JSON.parse(r.stdout) as { ms: number; trades: number; points: number; peakRssMb: number }), version };
}

/** The optimizer bench's workload: the grid of the optimize command's own example on 200,000 points. */
export const OPTIMIZE_GRID = 'fast=5..30:5,slow=20..100:10';
export const OPTIMIZE_POINTS = 200_000;

export interface OptimizeTiming {
  readonly wall: number;
  /** CPU time of the whole process (every thread). */
  readonly cpu: number;
  readonly first: number;
  /** Time after the first `warm` results. */
  readonly steady: number;
}

/**
 * Times one optimize run. CPU time is the whole process's (every thread): one worker already keeps
 * more than one core busy, since V8 collects garbage and compiles on helper threads, which the idle
 * cores run for free. `warm` is the number of results after which every thread has started and
 * compiled the job path.
 */
export async function timeOptimize(workers: number, warm: number): Promise<OptimizeTiming> {
  const series = walkSeries(OPTIMIZE_POINTS, 11);
  const grid = parseGrid(OPTIMIZE_GRID);
  const marks: number[] = [];
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await runOptimize({
    strategy: 'sma-cross',
    series,
    grid,
    metric: 'sharpe',
    workers,
    onProgress: () => marks.push(performance.now() - t0),
  });
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  return { wall, cpu: (c.user + c.system) / 1000, first: marks[0]!, steady: wall - marks[warm - 1]! };
}

/**
 * One worker confined to one core (`taskset -c 0`, in a child process): the baseline without the idle
 * core that runs V8's helper threads for free. A string says why it was skipped.
 */
function timeOnOneCore(warm: number): OptimizeTiming | string {
  if (availableParallelism() < 2) return 'this machine has one core';
  const once = fileURLToPath(new URL('./optimize-once.ts', import.meta.url));
  const r = spawnSync('taskset', ['-c', '0', process.execPath, '--import', 'tsx', once, String(warm)], { encoding: 'utf8' });
  if (r.error) return `taskset could not start (${r.error.message})`;
  if (r.status !== 0) return `the confined run exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-1)[0] ?? ''}`;
  return JSON.parse(r.stdout) as OptimizeTiming;
}

async function optimizeFigure(): Promise<void> {
  const cores = availableParallelism();
  // the grid of the optimize command's own example: enough jobs that thread start-up and each
  // thread's JIT warm-up are a small part of the run, as in real use
  const jobs = parseGrid(OPTIMIZE_GRID).combinations.length;
  const warm = Math.min(2 * cores, jobs - 1);
  const busy = (t: { wall: number; cpu: number }): string =>
    `${t.wall.toFixed(0)} ms (CPU ${t.cpu.toFixed(0)} ms, ${(t.cpu / t.wall).toFixed(2)} cores busy)`;
  const one = await timeOptimize(1, warm);
  const all = await timeOptimize(cores, warm);
  const pinned = timeOnOneCore(warm);
  process.stdout.write(`optimize sma-cross, ${jobs} combinations × ${OPTIMIZE_POINTS.toLocaleString('en-US')} points\n`);
  process.stdout.write(`  1 worker: ${busy(one)}; ${cores} workers: ${busy(all)}\n`);
  process.stdout.write(
    `  speed-up ${(one.wall / all.wall).toFixed(2)}× (ideal ${cores}×); CPU per job with ${cores} workers ${(all.cpu / one.cpu).toFixed(2)}× that with one\n`,
  );
  process.stdout.write(
    `  first result (thread start-up + a cold job): ${one.first.toFixed(0)} ms with 1 worker, ${all.first.toFixed(0)} ms with ${cores}\n`,
  );
  process.stdout.write(
    `  the first ${warm} results (start-up, cold jobs): ${(one.wall - one.steady).toFixed(0)} ms with 1 worker, ${(all.wall - all.steady).toFixed(0)} ms with ${cores}: ${((one.wall - one.steady) / (all.wall - all.steady)).toFixed(2)}×\n`,
  );
  process.stdout.write(
    `  after the first ${warm} results (the last ${jobs - warm} jobs): ${one.steady.toFixed(0)} ms with 1 worker, ${all.steady.toFixed(0)} ms with ${cores}: ${(one.steady / all.steady).toFixed(2)}×\n`,
  );
  process.stdout.write(
    `  ceiling on this machine: ${cores} cores / ${(one.cpu / one.wall).toFixed(2)} cores busy with one worker = ${(cores / (one.cpu / one.wall)).toFixed(2)}×\n`,
  );
  if (typeof pinned !== 'string') {
    process.stdout.write(
      `  1 worker confined to one core (taskset -c 0): ${busy(pinned)}; speed-up of ${cores} workers on ${cores} cores ` +
        `${(pinned.wall / all.wall).toFixed(2)}× end to end, ${(pinned.steady / all.steady).toFixed(2)}× after the first ${warm} results\n`,
    );
  } else {
    process.stdout.write(`  1 worker confined to one core: skipped (${pinned})\n`);
  }
}

/**
 * Issue 22's optimize figure: sma-cross combinations over the 1,000,000-point walk with 1 worker and
 * with 2, each run in its own process (`optimize-shared-once.ts`) so each peak RSS is its own. The
 * points go to the threads once, in shared memory. The issue's size, 1,000 combinations, takes about
 * 3.5 minutes with one worker and 2.5 with two on two cores; OPTIMIZE_SHARED_COMBOS sets another
 * multiple of 40 (a small grid is mostly each thread's start-up and JIT warm-up, which a real grid
 * spreads over hundreds of jobs). The main-thread-only run (40 combinations) is printed beside them:
 * its heap is not capped, so it peaks higher than one lean worker. Last, what two threads of plain
 * JavaScript gain over one here (thread-scaling.ts), the ceiling the speed-up is read against.
 */
async function sharedOptimizeFigure(): Promise<void> {
  const combos = Number(process.env.OPTIMIZE_SHARED_COMBOS ?? 1000);
  const once = fileURLToPath(new URL('./optimize-shared-once.ts', import.meta.url));
  type Run = { wall: number; peakRssMb: number; workerCode?: { code: string; leanHeap: boolean; reason?: string } };
  const runs: Run[] = [];
  // 0: jobs in the main thread, no worker
  for (const workers of [0, 1, 2]) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', once, String(workers), String(workers === 0 ? 40 : combos)], {
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      process.stdout.write(
        `optimize ${combos} × 1,000,000 points: the ${workers}-worker run exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-1)[0] ?? ''}\n`,
      );
      return;
    }
    runs.push(JSON.parse(r.stdout) as Run);
  }
  const [main, one, two] = runs as [Run, Run, Run];
  const code = one.workerCode;
  process.stdout.write(
    `optimize sma-cross, ${combos} combinations × 1,000,000 points (points shared with the threads; each run its own process)\n`,
  );
  process.stdout.write(
    `  threads run ${code?.code === 'compiled' ? 'the compiled kernel (dist/)' : `the sources through tsx (${code?.reason ?? 'unknown'})`}${code?.leanHeap ? ', lean heaps' : ', unlimited heaps'}\n`,
  );
  process.stdout.write(
    `  main thread only (40 combinations) ${(main.wall / 1000).toFixed(1)} s, peak RSS ${main.peakRssMb.toFixed(0)} MB; 1 worker ${(one.wall / 1000).toFixed(1)} s, ${one.peakRssMb.toFixed(0)} MB; 2 workers ${(two.wall / 1000).toFixed(1)} s, ${two.peakRssMb.toFixed(0)} MB\n`,
  );
  process.stdout.write(
    `  speed-up ${(one.wall / two.wall).toFixed(2)}× (target ≥ 1.6×); peak RSS ${(two.peakRssMb / one.peakRssMb).toFixed(3)}× (target ≤ 1.3×)\n`,
  );
  const scaling = await threadScaling();
  process.stdout.write(
    `  two threads of plain allocating JavaScript on this machine (best of 3): ${scaling.speedUp.toFixed(2)}× one (${scaling.one.toFixed(0)} ms one thread, ${scaling.two.toFixed(0)} ms two with twice the work): the ceiling the speed-up is read against\n`,
  );
}

export async function run(): Promise<void> {
  await replayFigure(walkSeries(POINTS));
  await optimizeFigure();
  await sharedOptimizeFigure();
}
