/**
 * A worker never runs code other than the files the job names: a plugin edited on disk after the
 * worker loaded it is refused (node would keep running the old module), with the way out.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobContext } from '../../backtest/optimize/job.js';
import { parseRedisUrl, type RedisTarget } from '../../src/config/redis-url.js';
import { runJobsOnQueue } from '../../src/queue/study.js';
import { startQueueWorker, type QueueWorker } from '../../src/queue/trial-worker.js';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';

describe.skipIf(redisSkipReason !== undefined)('a worker whose plugin changes on disk', () => {
  let server: RedisServer;
  let worker: QueueWorker;
  let dir: string;
  let target: RedisTarget;
  beforeAll(async () => {
    server = await startRedis();
    target = parseRedisUrl(server.url, '--queue');
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-reload-'));
    worker = await startQueueWorker({ target, env: {}, strategiesDir: dir, lockMs: 5_000 });
  });
  afterAll(async () => {
    await worker?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the first version, then refuses the edited one naming the fix', async () => {
    const file = join(dir, 'cross.ts');
    const source = readFileSync(resolve(import.meta.dirname, '../../strategies/sma-cross.ts'), 'utf8');
    writeFileSync(file, source);
    const n = 200;
    const times = new Float64Array(n).map((_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000);
    const prices = new Float64Array(n).map((_, i) => 100 + 10 * Math.sin(i / 9));
    const ctx: JobContext = {
      strategy: file,
      source: 'sine',
      times,
      prices,
      baseParams: {},
      feeBps: 10,
      slippageBps: 0,
      initial: { USD: '10000' },
    };
    const jobs: Job[] = [{ id: 0, params: { fast: 3, slow: 12 }, start: 0, end: n }];
    const first = await runJobsOnQueue(ctx, jobs, { target, env: {}, pollMs: 50, attempts: 1 });
    expect(first.results[0]!.ok).toBe(true);
    writeFileSync(file, `${source}\n// edited\n`);
    const second = await runJobsOnQueue(ctx, jobs, { target, env: {}, pollMs: 50, attempts: 1 });
    const r = second.results[0]!;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/refused the trial: plugin cross\.ts changed on disk since this worker loaded it: restart the worker/);
  });
});
