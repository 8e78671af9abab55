/**
 * Issue 24 figures: the optimizer through the Redis queue (BullMQ) against a real redis-server on
 * loopback. (1) Overhead per trial, enqueue to result, with a trivial trial (40 points), against the
 * same trials run in this thread; (2) a heavier grid on 1 and then 2 `tradeloop worker` processes,
 * beside the local optimizer on 1 and 2 threads; (3) the projection for more machines from the
 * measured per-trial cost (README "Beyond one machine").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { parseGrid } from '../backtest/optimize/grid.js';
import { runJob, type Job, type JobContext } from '../backtest/optimize/job.js';
import { runOptimize } from '../backtest/optimize/optimize.js';
import { loadStrategy } from '../src/strategy/loader.js';
import { parseRedisUrl } from '../src/config/redis-url.js';
import { runJobsOnQueue } from '../src/queue/study.js';
import { startQueueWorker } from '../src/queue/trial-worker.js';
import { redisSkipReason, startRedis } from '../test/support/redis-server.js';

const BIN = resolve(import.meta.dirname, '../bin/tradeloop.js');

function walk(n: number, seed: number): { source: string; length: number; times: Float64Array; prices: Float64Array } {
  let s = seed;
  let p = 100;
  const times = new Float64Array(n);
  const prices = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    p *= Math.exp(0.02 * (s / 2147483648 - 0.5));
    times[i] = Date.UTC(2024, 0, 1) + i * 3_600_000;
    prices[i] = Math.round(p * 100) / 100;
  }
  return { source: `walk-${n}-${seed}`, length: n, times, prices };
}

function workerProc(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', url], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((res, rej) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('takes trials from')) res(child);
    });
    child.once('exit', (code) => rej(new Error(`worker exited ${String(code)}: ${err}`)));
  });
}

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise((r) => {
          c.once('exit', r);
          c.kill('SIGTERM');
        }),
    ),
  );
}

export async function run(): Promise<void> {
  if (redisSkipReason !== undefined) {
    process.stdout.write(`${redisSkipReason}\n`);
    return;
  }
  const server = await startRedis();
  const target = parseRedisUrl(server.url, '--queue');
  const flush = new Redis(server.port, '127.0.0.1');
  try {
    // (1) overhead per trial: 200 trivial trials, one worker in this process
    const tiny = walk(40, 1);
    const ctx: JobContext = {
      strategy: 'sma-cross',
      source: tiny.source,
      times: tiny.times,
      prices: tiny.prices,
      baseParams: {},
      feeBps: 10,
      slippageBps: 0,
      initial: { USD: '10000' },
    };
    const grid = parseGrid('fast=2..21:1,slow=22..31:1');
    const jobs: Job[] = grid.combinations.map((params, id) => ({ id, params, start: 0, end: tiny.length }));
    const def = await loadStrategy('sma-cross');
    for (const j of jobs.slice(0, 20)) await runJob(def, ctx, j); // warm up
    let t = performance.now();
    for (const j of jobs) await runJob(def, ctx, j);
    const inThread = (performance.now() - t) / jobs.length;
    const worker = await startQueueWorker({ target, env: {} });
    await runJobsOnQueue(ctx, jobs.slice(0, 20), { target, env: {}, pollMs: 50 }); // warm up
    t = performance.now();
    await runJobsOnQueue(ctx, jobs, { target, env: {}, pollMs: 50 });
    const queued = (performance.now() - t) / jobs.length;
    t = performance.now();
    await runJobsOnQueue({ ...ctx, feeBps: 11 }, jobs.slice(0, 1), { target, env: {}, pollMs: 50 });
    const single = performance.now() - t;
    await worker.close();
    process.stdout.write(
      `trivial trial (${tiny.length} points), ${jobs.length} trials, 1 worker: ${queued.toFixed(2)} ms per trial through the queue, ${inThread.toFixed(2)} ms in this thread: overhead ${(queued - inThread).toFixed(2)} ms per trial (target ≤ 5 ms)\n`,
    );
    process.stdout.write(`one trial alone, enqueue to result (flow add, worker pick-up, result, notice): ${single.toFixed(1)} ms\n`);

    // (2) a heavier grid: 1 then 2 worker processes, beside the local optimizer
    const big = walk(20_000, 2);
    const heavy = parseGrid('fast=5..40:5,slow=50..120:10');
    const local: Record<number, number> = { 1: Infinity, 2: Infinity };
    for (const n of [1, 2, 1, 2]) {
      t = performance.now();
      await runOptimize({ strategy: 'sma-cross', series: big, grid: heavy, metric: 'sharpe', workers: n });
      local[n] = Math.min(local[n]!, performance.now() - t);
    }
    // best of two runs each, alternating, so a busy moment of a shared machine does not decide
    const fleet: Record<number, number> = { 1: Infinity, 2: Infinity };
    for (const n of [1, 2, 1, 2]) {
      await flush.flushall();
      const procs = await Promise.all(Array.from({ length: n }, () => workerProc(server.url)));
      // every process loads the strategy, fetches the series and warms its compiler on the same grid
      // (at another fee, so no result is reused) before the clock starts: a cold process spends more
      // on compiling than a 20,000-point trial costs, which would hide what a second worker adds
      await runOptimize({
        strategy: 'sma-cross',
        series: big,
        grid: heavy,
        metric: 'sharpe',
        feeBps: 11,
        runJobs: (c, j, p) => runJobsOnQueue(c, j, { target, env: {}, pollMs: 50 }, p),
      });
      t = performance.now();
      await runOptimize({
        strategy: 'sma-cross',
        series: big,
        grid: heavy,
        metric: 'sharpe',
        runJobs: (c, j, p) => runJobsOnQueue(c, j, { target, env: {}, pollMs: 50 }, p),
      });
      fleet[n] = Math.min(fleet[n]!, performance.now() - t);
      await stop(procs);
    }
    const trials = heavy.combinations.length;
    const load = loadavg()[0]!.toFixed(2);
    process.stdout.write(
      `grid of ${trials} trials × ${big.length.toLocaleString('en-US')} points: best of 2: queue 1 worker process ${fleet[1]!.toFixed(0)} ms, 2 worker processes ${fleet[2]!.toFixed(0)} ms (${(fleet[1]! / fleet[2]!).toFixed(2)}× faster, target ≥ 1.5×); local optimizer 1 thread ${local[1]!.toFixed(0)} ms, 2 threads ${local[2]!.toFixed(0)} ms (${(local[1]! / local[2]!).toFixed(2)}×); ${availableParallelism()} cores, load average ${load} when it ran\n`,
    );

    // (3) projection: W workers finish T trials in about T × (trial + overhead) / W until Redis's
    // per-trial work (about 10 round trips) becomes the bound
    const perTrial = fleet[1]! / trials;
    const overhead = Math.max(0.05, queued - inThread);
    const limit = Math.floor(perTrial / overhead);
    process.stdout.write(
      `projection: a trial here costs ${perTrial.toFixed(0)} ms of which about ${overhead.toFixed(2)} ms is the queue; one Redis serves about ${limit} such workers before its round trips bound the grid (more for longer trials, fewer for trivial ones)\n`,
    );
  } finally {
    flush.disconnect();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
