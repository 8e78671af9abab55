/**
 * `tradeloop optimize --config FILE --strategy NAME --queue`: a real redis-server on loopback and two
 * `tradeloop worker` processes replay the whole config per trial (every market's series stored in
 * Redis, every plugin of the config checked); the ranked rows and figures equal the local threads'.
 * A changed config (another strategy's params) is another study: nothing of the first is reused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/tradeloop.js');
const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

interface Proc {
  readonly child: ChildProcess;
  out: string;
  err: string;
  readonly exit: Promise<number | null>;
}

function run(args: string[]): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TRADELOOP_REDIS_PASSWORD: '' },
  });
  const p: Proc = { child, out: '', err: '', exit: new Promise((r) => child.once('exit', (code) => r(code))) };
  child.stdout!.on('data', (c: Buffer) => (p.out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (p.err += c.toString()));
  return p;
}

/** Polls for a condition with a generous deadline (no sleeps to wait for things). */
async function until(ok: () => boolean, what: () => string, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`never happened: ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(redisSkipReason !== undefined)('optimize a strategy inside a config through --queue', () => {
  let redis: RedisServer;
  let dir: string;
  const workers: Proc[] = [];
  const files = { btc: '', eth: '', config: '' };

  const writeConfig = (btcFast: number): void =>
    writeFileSync(
      files.config,
      `environment: local
strategies:
  - plugin: sma-cross
    name: btc-trend
    params: { market: BTCUSD, fast: ${btcFast}, slow: 5, size_pct: 40 }
  - plugin: sma-cross
    name: eth-trend
    params: { market: ETHUSD, fast: 2, slow: 5, size_pct: 40 }
risk:
  max_order_notional: "20000"
`,
    );

  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-queue-config-'));
    const wave = (base: number, period: number) => Array.from({ length: 150 }, (_, i) => base * (1 + 0.2 * Math.sin(i / period)));
    for (const [k, base, period] of [
      ['btc', 20_000, 5],
      ['eth', 1_000, 7],
    ] as const) {
      files[k] = join(dir, `${k}.csv`);
      writeFileSync(
        files[k],
        `timestamp,price\n${wave(base, period)
          .map((p, i) => `${T0 + i * H},${p.toFixed(2)}`)
          .join('\n')}\n`,
      );
    }
    files.config = join(dir, 'bot.yaml');
    writeConfig(2);
    for (let k = 0; k < 2; k++) workers.push(run(['worker', '--queue', redis.url, '--strategies', dir, '--lock-ms', '3000']));
    await until(
      () => workers.every((w) => /takes trials from/.test(w.err)),
      () => workers.map((w) => w.err).join('\n'),
    );
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
      await w.exit;
    }
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const args = (): string[] => [
    'optimize',
    '--config',
    files.config,
    '--strategy',
    'eth-trend',
    '--grid',
    'fast=2|3|4,slow=6|9',
    '--data',
    `BTCUSD=${files.btc}`,
    '--data',
    `ETHUSD=${files.eth}`,
    '--json',
  ];
  const optimize = async (extra: string[]): Promise<{ rows: unknown[]; stderr: string }> => {
    const p = run([...args(), ...extra]);
    const code = await p.exit;
    expect(code, p.err).toBe(0);
    return { rows: (JSON.parse(p.out.trim()) as { rows: unknown[] }).rows, stderr: p.err };
  };

  it('ranks the same rows with the same figures as the local threads; a changed config is a new study', async () => {
    const local = await optimize(['--workers', '2']);
    const queued = await optimize(['--queue', redis.url]);
    expect(queued.rows).toEqual(local.rows);
    expect(queued.stderr).toMatch(/6 trials, 0 already done/);
    // the same command again: every trial from Redis
    expect((await optimize(['--queue', redis.url])).stderr).toMatch(/6 trials, 6 already done/);
    // another strategy's params changed: another study, run afresh, and its figures are the new config's
    writeConfig(3);
    const changed = await optimize(['--queue', redis.url]);
    expect(changed.stderr).toMatch(/6 trials, 0 already done/);
    expect(changed.rows).toEqual((await optimize(['--workers', '2'])).rows);
  }, 240_000);

  it('a random search of the strategy inside the config through the queue draws and ranks the trials the local search does', async () => {
    const search = ['--search', 'random', '--trials', '5', '--seed', '3', '--study-dir', join(dir, 'studies')];
    const local = await optimize([...search, '--workers', '2']);
    const queued = await optimize([...search, '--queue', redis.url]);
    expect(queued.rows).toEqual(local.rows);
  }, 240_000);
});
