/**
 * Issue 24, distributed optimize: a real redis-server on loopback, real `tradeloop worker` processes
 * and the optimizer driving them over the wire. The queue's ranked rows and metrics equal the local
 * optimizer's; a worker SIGKILLed mid-trial has its trial finished by the other, each trial counted
 * once; a restarted optimizer does not run finished trials again; a worker whose plugin files differ
 * refuses, naming the file; a password inside the URL is refused; a TPE search through the queue
 * continues with more trials from the ones Redis holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGrid } from '../../backtest/optimize/grid.js';
import { runJob, type Job, type JobContext } from '../../backtest/optimize/job.js';
import { segmentBounds } from '../../backtest/optimize/optimize.js';
import { keys } from '../../src/queue/protocol.js';
import { parseRedisUrl } from '../../src/config/redis-url.js';
import { runJobsOnQueue } from '../../src/queue/study.js';
import { loadStrategy } from '../../src/strategy/loader.js';
import { runCli } from '../cli/cli-helpers.js';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tradeloop.js');

/** The built-in sma-cross with a local import and a `hold_ms` param that keeps a trial busy. */
function plugin(): string {
  const src = readFileSync(join(ROOT, 'strategies/sma-cross.ts'), 'utf8')
    .replace(
      "import { Position, Sma, defineStrategy, z } from 'tradeloop';",
      "import { Position, Sma, defineStrategy, z } from 'tradeloop';\nimport { hold } from './helper.js';",
    )
    .replace("name: 'sma-cross',", "name: 'trend',")
    .replace(
      "      market: z.string().default('BTCUSD'),",
      "      market: z.string().default('BTCUSD'),\n      hold_ms: z.number().min(0).default(0),",
    )
    .replace('  create(p) {', '  create(p) {\n    hold(p.hold_ms);');
  if (!src.includes('hold(p.hold_ms)')) throw new Error('sma-cross changed: the test plugin could not be made from it');
  return src;
}
const HELPER = (tag: string): string =>
  `// ${tag}\nexport function hold(ms: number): void {\n  const end = Date.now() + ms;\n  while (Date.now() < end) { /* busy: a trial in progress */ }\n}\n`;

function walkCsv(n: number): string {
  let p = 100;
  let s = 7;
  const lines = ['timestamp,price'];
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    p *= Math.exp(0.02 * (s / 2147483648 - 0.5));
    lines.push(`${new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString()},${p.toFixed(2)}`);
  }
  return `${lines.join('\n')}\n`;
}

interface WorkerProc {
  readonly child: ChildProcess;
  stderr: string;
  stop(): Promise<void>;
}

function startWorker(url: string, strategies: string, extra: string[] = []): WorkerProc {
  const child = spawn(
    process.execPath,
    [BIN, 'worker', '--queue', url, '--strategies', strategies, '--lock-ms', '3000', '--verbose', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TRADELOOP_REDIS_PASSWORD: '' } },
  );
  const w: WorkerProc = {
    child,
    stderr: '',
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  child.stderr!.on('data', (c: Buffer) => (w.stderr += c.toString()));
  return w;
}

function until(w: WorkerProc, re: RegExp, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`worker never printed ${String(re)}: ${w.stderr}`)), timeoutMs);
    const check = (): void => {
      if (re.test(w.stderr)) {
        clearTimeout(t);
        resolve();
      }
    };
    w.child.stderr!.on('data', check);
    check();
  });
}

function runOptimizeProc(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return { child, done: new Promise((r) => child.once('exit', (code) => r({ code, stdout, stderr }))) };
}

describe.skipIf(redisSkipReason !== undefined)('tradeloop optimize --queue with tradeloop worker processes', () => {
  let redis: RedisServer;
  let client: Redis;
  let dir: string;
  let good: string;
  let data: string;
  const workers: WorkerProc[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.port, '127.0.0.1');
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-queue-'));
    good = join(dir, 'good');
    mkdirSync(good);
    writeFileSync(join(good, 'trend.ts'), plugin());
    writeFileSync(join(good, 'helper.ts'), HELPER('a'));
    data = join(dir, 'walk.csv');
    writeFileSync(data, walkCsv(1500));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    client?.disconnect();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const base = (): string[] => ['optimize', '-s', join(good, 'trend.ts'), '--data', data, '--metric', 'return', '--json'];

  it('two worker processes rank a walk-forward study exactly as the local optimizer does; a re-run reuses every trial', async () => {
    workers.push(startWorker(redis.url, good), startWorker(redis.url, good));
    await Promise.all(workers.map((w) => until(w, /takes trials from/)));
    const args = [...base(), '--grid', 'fast=4..12:4,slow=20|40', '--walk-forward', '2'];
    const local = await runCli([...args, '--workers', '2']);
    const queued = await runCli([...args, '--queue', redis.url]);
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    const l = JSON.parse(local.stdout) as { rows: unknown[]; walkForward: unknown[] };
    const q = JSON.parse(queued.stdout) as { rows: unknown[]; walkForward: unknown[]; workers: number };
    expect(q.rows).toEqual(l.rows);
    expect(q.walkForward).toEqual(l.walkForward);
    expect(q.workers).toBe(2);
    expect(queued.stderr).toMatch(/18 trials, 0 already done, 2 workers seen/);
    expect(queued.stderr).toMatch(/fleet: 18\/18 done, \d+ running, 0 failed, 2 workers seen/);
    // the series went once, under its content hash
    expect(await client.keys('tradeloop:series:*')).toHaveLength(1);
    // both workers took trials
    for (const w of workers) expect(w.stderr).toMatch(/trial \w+ ran in/);
    const again = await runCli([...args, '--queue', redis.url]);
    expect(JSON.parse(again.stdout).rows).toEqual(l.rows);
    expect(again.stderr).toMatch(/18 trials, 18 already done/);
  });

  it('each trial through the queue gives the metrics and the trades (by hash) of the same trial run here', async () => {
    const csv = readFileSync(data, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const times = new Float64Array(csv.map(([t]) => Date.parse(t!)));
    const prices = new Float64Array(csv.map(([, p]) => Number(p)));
    const file = join(good, 'trend.ts');
    const ctx: JobContext = {
      strategy: file,
      source: 'walk',
      times,
      prices,
      baseParams: {},
      feeBps: 10,
      slippageBps: 0,
      initial: { USD: '10000' },
    };
    const jobs: Job[] = [];
    parseGrid('fast=4..12:4,slow=20|40').combinations.forEach((params) =>
      segmentBounds(times.length, 2).forEach(([start, end]) => jobs.push({ id: jobs.length, params, start, end })),
    );
    const definition = await loadStrategy(file);
    const here = await Promise.all(jobs.map((j) => runJob(definition, ctx, j)));
    const queued = await runJobsOnQueue(ctx, jobs, { target: parseRedisUrl(redis.url, '--queue'), env: {}, pollMs: 50 });
    expect(queued.results).toEqual(here);
    expect(here.filter((r) => r.ok && r.tradesHash !== undefined && (r.metrics.trades as number) > 0).length).toBeGreaterThan(0);
  });

  it("an OHLCV study through the queue fills inside the bars as the local optimizer does, under the run's intrabar rule", async () => {
    // the walk as bars: each opens at the previous close and reaches 1.5 % either side
    const rows = readFileSync(data, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const lines = ['timestamp,open,high,low,close,volume'];
    let open = Number(rows[0]![1]);
    for (const [t, p] of rows) {
      const close = Number(p);
      lines.push([t, open, Math.max(open, close) * 1.015, Math.min(open, close) * 0.985, close, 1].join(','));
      open = close;
    }
    const ohlcv = join(dir, 'walk-ohlcv.csv');
    writeFileSync(ohlcv, `${lines.join('\n')}\n`);
    const args = ['optimize', '-s', join(good, 'trend.ts'), '--data', ohlcv, '--metric', 'return', '--json'];
    const grid = ['--grid', 'fast=4|8,slow=20,stop_loss_pct=1|3,take_profit_pct=1|2', '--intrabar', 'favorable'];
    const local = await runCli([...args, ...grid, '--workers', '2']);
    const queued = await runCli([...args, ...grid, '--queue', redis.url]);
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    const l = JSON.parse(local.stdout) as { rows: Array<{ params: Record<string, number>; metrics: { final_equity: number } }> };
    expect((JSON.parse(queued.stdout) as { rows: unknown[] }).rows).toEqual(l.rows);
    // the other rule is another study, with other figures
    const adverse = await runCli([...args, '--grid', 'fast=4|8,slow=20,stop_loss_pct=1|3,take_profit_pct=1|2', '--queue', redis.url]);
    expect(adverse.stderr).toMatch(/8 trials, 0 already done/);
    expect((JSON.parse(adverse.stdout) as { rows: unknown[] }).rows).not.toEqual(l.rows);
    // a row is the backtest of its params on the same bars
    const best = l.rows[0]!;
    const single = await runCli([
      'backtest',
      '-s',
      join(good, 'trend.ts'),
      '--data',
      ohlcv,
      '--params',
      Object.entries(best.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
      '--intrabar',
      'favorable',
      '--json',
    ]);
    expect(single.code, single.stderr).toBe(0);
    expect((JSON.parse(single.stdout) as { final_equity: number }).final_equity).toBe(best.metrics.final_equity);
  });

  // stalled-job recovery waits out the killed worker's 3 s lock: give a loaded machine room
  it('a worker SIGKILLed mid-trial: the other finishes its trial, and every trial is counted once', { timeout: 90_000 }, async () => {
    const [a, b] = workers as [WorkerProc, WorkerProc];
    a.stderr = '';
    const run = runCli([...base(), '--grid', 'fast=4|8,slow=20|40', '--params', 'hold_ms=400', '--queue', redis.url]);
    await until(a, /trial \w+ started/);
    a.child.kill('SIGKILL');
    const queued = await run;
    expect(queued.code, queued.stderr).toBe(0);
    const rows = (JSON.parse(queued.stdout) as { rows: Array<{ failed?: boolean }> }).rows;
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.failed)).toEqual([]);
    const study = /study (\w+)/.exec(queued.stderr)![1]!;
    const runs = await client.hgetall(keys.runs(study));
    expect(Object.keys(runs)).toHaveLength(4);
    expect(Object.values(runs).every((n) => n === '1')).toBe(true);
    expect(b.stderr).toMatch(/trial \w+ ran in/);
    workers.splice(0, 1);
  });

  it('the optimizer killed and restarted does not run finished trials again', { timeout: 90_000 }, async () => {
    const args = [...base(), '--grid', 'fast=4|8|12,slow=20|40', '--params', 'hold_ms=150', '--queue', redis.url];
    const before = new Set(await client.keys('tradeloop:study:*:runs'));
    const first = runOptimizeProc(args);
    // kill the optimizer once a result is stored
    const deadline = Date.now() + 60_000;
    let study: string | undefined;
    while (study === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      const fresh = (await client.keys('tradeloop:study:*:runs')).filter((k) => !before.has(k));
      if (fresh.length > 0) study = fresh[0]!.split(':')[2]!;
    }
    expect(study).toBeDefined();
    first.child.kill('SIGKILL');
    await first.done;
    const second = await runCli(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/6 trials, [1-6] already done/);
    const runs = await client.hgetall(keys.runs(study!));
    expect(Object.keys(runs)).toHaveLength(6);
    expect(Object.values(runs).every((n) => n === '1')).toBe(true);
  });

  it(
    'a TPE search through the queue continues: the same command with more trials finds the finished ones in Redis and ends as a local search',
    { timeout: 120_000 },
    async () => {
      const args = (trials: number): string[] => [
        ...base(),
        '--search',
        'tpe',
        '--trials',
        String(trials),
        '--seed',
        '3',
        '--grid',
        'fast=2..12,slow=20..60',
      ];
      const first = await runCli([...args(8), '--queue', redis.url]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/8 trials, 0 already done/);
      const more = await runCli([...args(16), '--queue', redis.url]);
      expect(more.code, more.stderr).toBe(0);
      // the first batch is drawn again from the seed and found done; only the second runs
      expect(more.stderr).toMatch(/8 trials, 8 already done/);
      expect(more.stderr).toMatch(/8 trials, 0 already done/);
      const local = await runCli([...args(16), '--workers', '1', '--study-dir', join(dir, 'studies')]);
      expect(local.code, local.stderr).toBe(0);
      const rows = (out: string): unknown =>
        (JSON.parse(out) as { rows: Array<{ trial: number; params: unknown; score: unknown }> }).rows
          .map((r) => [r.trial, r.params, r.score])
          .sort((a, b) => (a[0] as number) - (b[0] as number));
      expect(rows(more.stdout)).toEqual(rows(local.stdout));
    },
  );

  it('a worker whose plugin file differs refuses the trial, naming the file in its own log only', async () => {
    await Promise.all(workers.map((w) => w.stop()));
    workers.length = 0;
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'trend.ts'), plugin());
    writeFileSync(join(other, 'helper.ts'), HELPER('b'));
    const w = startWorker(redis.url, other);
    workers.push(w);
    await until(w, /takes trials from/);
    const r = await runCli([...base(), '--grid', 'fast=4,slow=20|30', '--queue', redis.url]);
    expect(r.code).toBe(1);
    // Redis (so the controller) gets one answer that names nothing of the worker's files
    expect(r.stderr).toMatch(/refused the trial: no plugin "trend\.ts" with the study's files here: .*this worker's log says why/);
    expect(r.stderr).not.toMatch(/helper\.ts/);
    // the worker's own log says which file differs, without either hash
    expect(w.stderr).toMatch(
      /refused trial \w+: plugin "trend\.ts": this worker's copy of plugin trend\.ts differs: helper\.ts \(content differs\)/,
    );
    expect(r.stderr).toMatch(/fleet: 2\/2 done, \d+ running, 2 failed, \d+ workers? seen/);
  });

  it('refuses a password inside the URL, naming the flag', async () => {
    const r = await runCli([...base(), '--grid', 'fast=4,slow=20', '--queue', 'redis://:s3cret@127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--queue: a password inside the Redis URL is refused .* TRADELOOP_REDIS_PASSWORD/);
    expect(r.stderr).not.toMatch(/s3cret/);
  });
});
