/**
 * Whoever can write to the Redis queue cannot make `tradeloop worker` import a file of its choosing:
 * a real redis-server on loopback, a real worker process, and BullMQ jobs put straight on the trials
 * queue as a hostile client would, each naming its own payload (an absolute path, a `../` path, a
 * symlink inside the strategies folder that leads outside it) with the payload's own hashes. The
 * payload's top-level code writes a marker file: it must never appear, and every such job must fail
 * with the same refusal whether the file exists or not, naming no path and no hash of the worker's
 * files. A plugin of the strategies folder (with a local `./lib/helper.js` import of a `.ts` file)
 * still runs through the queue.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobContext } from '../../backtest/optimize/job.js';
import { bullConnection } from '../../src/queue/connect.js';
import { fingerprintFile, sha256, tradeloopVersion } from '../../src/strategy/plugin-hash.js';
import { keys, PREFIX, TRIAL_QUEUE, type TrialData } from '../../src/queue/protocol.js';
import { parseRedisUrl, type RedisTarget } from '../../src/config/redis-url.js';
import { runJobsOnQueue } from '../../src/queue/study.js';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tradeloop.js');

/** Polls `check` until it answers a value, failing after a generous deadline. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(redisSkipReason !== undefined)('a queued trial naming a file outside the strategies folder', () => {
  let server: RedisServer;
  let target: RedisTarget;
  let client: Redis;
  let queue: Queue<TrialData>;
  let root: string;
  let dir: string;
  let worker: ChildProcess;
  let workerLog = '';
  const markers: string[] = [];

  /** A payload module whose top-level code writes `marker`. */
  const payload = (file: string, marker: string): string => {
    mkdirSync(resolve(file, '..'), { recursive: true });
    writeFileSync(file, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default {};\n`);
    markers.push(marker);
    return file;
  };

  beforeAll(async () => {
    server = await startRedis();
    target = parseRedisUrl(server.url, '--queue');
    client = new Redis(server.port, '127.0.0.1');
    queue = new Queue<TrialData>(TRIAL_QUEUE, { connection: bullConnection(target, {}), prefix: PREFIX });
    root = mkdtempSync(join(tmpdir(), 'tradeloop-confine-'));
    dir = join(root, 'home', 'strategies');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    const sma = readFileSync(join(ROOT, 'strategies/sma-cross.ts'), 'utf8');
    const good = sma.replace(
      "import { Position, Sma, defineStrategy, z } from 'tradeloop';",
      "import { Position, Sma, defineStrategy, z } from 'tradeloop';\nimport { tag } from './lib/helper.js';\nvoid tag;",
    );
    if (good === sma) throw new Error('sma-cross changed: the test plugin could not be made from it');
    writeFileSync(join(dir, 'good.ts'), good);
    writeFileSync(join(dir, 'lib', 'helper.ts'), "// a local module of the plugin\nexport const tag = 'helper';\n");
    worker = spawn(process.execPath, [BIN, 'worker', '--queue', server.url, '--strategies', dir, '--lock-ms', '5000'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRADELOOP_REDIS_PASSWORD: '' },
    });
    worker.stderr!.on('data', (c: Buffer) => (workerLog += c.toString()));
    await until('the worker to start', () => (/takes trials from/.test(workerLog) ? true : undefined));
  });

  afterAll(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    await queue?.close();
    client?.disconnect();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Puts a trial on the queue as a hostile client would: `spec` and the payload's own hashes. */
  const enqueue = async (name: string, spec: string, hashOf: string | undefined): Promise<string> => {
    const plugin =
      hashOf !== undefined && existsSync(hashOf)
        ? { ...fingerprintFile(hashOf, spec, false), spec }
        : { spec, builtin: false, files: { [spec]: sha256('x') }, hash: sha256('x') };
    const data: TrialData = {
      study: `attack-${name}`,
      trial: `trial-${name}`,
      params: {},
      start: 0,
      end: 10,
      spec: {
        version: tradeloopVersion(),
        plugin,
        seriesHash: sha256('none'),
        source: 'x',
        points: 10,
        baseParams: {},
        feeBps: 0,
        slippageBps: 0,
        initial: { USD: '1000' },
      },
    };
    const job = await queue.add('trial', data, { jobId: `attack-${name}`, attempts: 1 });
    return job.id!;
  };

  /** The job's failure as Redis holds it: its reason and the stack BullMQ keeps beside it. */
  const failure = (id: string): Promise<string> =>
    until(`job ${id} to fail`, async () => {
      const job = await queue.getJob(id);
      if (job === undefined || (await job.getState()) !== 'failed') return undefined;
      const stack = (job.stacktrace ?? []).join('\n');
      expect(stack).not.toContain(dir);
      expect(stack).not.toMatch(/trial-worker|node_modules/);
      return job.failedReason;
    });

  it('refuses an absolute path, a ../ path and a symlink leading outside, running none of them, with one answer', async () => {
    const absolute = payload(join(root, 'elsewhere', 'payload.mjs'), join(root, 'marker-absolute'));
    const climbing = payload(join(root, 'outside', 'payload.mjs'), join(root, 'marker-climbing'));
    const linked = payload(join(root, 'outside', 'linked.mjs'), join(root, 'marker-linked'));
    symlinkSync(linked, join(dir, 'linked.mjs'));
    const missing = join(root, 'elsewhere', 'missing.mjs');

    const ids = {
      absolute: await enqueue('absolute', absolute, absolute),
      climbing: await enqueue('climbing', '../../outside/payload.mjs', climbing),
      linked: await enqueue('linked', 'linked.mjs', linked),
      missing: await enqueue('missing', missing, undefined),
      missingPlain: await enqueue('missing-plain', 'nothing-here.mjs', undefined),
    };
    const reasons = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await failure(id)] as const)));

    // no payload ran (they would have written their markers before the job failed)
    for (const m of markers) expect(existsSync(m), m).toBe(false);
    // one generic refusal: the same words for an existing and a missing file, a file outside and a symlink
    const generic = (reason: string, spec: string): string => reason.split(JSON.stringify(spec)).join('SPEC');
    const expected = generic(reasons.missing!, missing);
    expect(expected).toMatch(
      /refused the trial: no plugin SPEC with the study's files here: a worker loads only a plain file name from its strategies folder/,
    );
    expect(generic(reasons.absolute!, absolute)).toBe(expected);
    expect(generic(reasons.climbing!, '../../outside/payload.mjs')).toBe(expected);
    expect(generic(reasons.linked!, 'linked.mjs')).toBe(expected);
    expect(generic(reasons.missingPlain!, 'nothing-here.mjs')).toBe(expected);
    // Redis holds no path of the worker's machine and no hash of its files
    const stored = JSON.stringify([
      reasons,
      await client.hgetall(keys.failed('attack-linked')),
      await client.hgetall(keys.refusals('attack-linked')),
    ]);
    expect(stored).not.toContain(dir);
    expect(stored).not.toContain(join(root, 'outside'));
    const linkedHash = sha256(readFileSync(linked));
    expect(stored).not.toContain(linkedHash.slice(0, 8));
    // the worker's own log says why, without any hash
    expect(workerLog).toMatch(/refused trial \S+: plugin "linked\.mjs": .*linked\.mjs leads outside/);
    expect(workerLog).toMatch(/refused trial \S+: plugin ".*payload\.mjs": the job names it by a path, not a plain file name/);
    expect(workerLog).not.toContain(linkedHash.slice(0, 8));
  });

  it('still runs a plugin of the strategies folder, its local imports hashed as the loader resolves them', async () => {
    const n = 200;
    const times = new Float64Array(n).map((_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000);
    const prices = new Float64Array(n).map((_, i) => 100 + 10 * Math.sin(i / 9));
    const ctx: JobContext = {
      strategy: join(dir, 'good.ts'),
      source: 'sine',
      times,
      prices,
      baseParams: {},
      feeBps: 10,
      slippageBps: 0,
      initial: { USD: '10000' },
    };
    // two trials: the second is checked after the first has loaded the plugin's modules
    const jobs: Job[] = [
      { id: 0, params: { fast: 3, slow: 12 }, start: 0, end: n },
      { id: 1, params: { fast: 4, slow: 12 }, start: 0, end: n },
    ];
    const r = await runJobsOnQueue(ctx, jobs, { target, env: {}, pollMs: 50, attempts: 1 });
    expect(r.results, workerLog).toMatchObject([{ ok: true }, { ok: true }]);
    expect(Object.keys(fingerprintFile(join(dir, 'good.ts'), 'good.ts', false).files).sort()).toEqual(['good.ts', 'lib/helper.ts']);
  });
});
