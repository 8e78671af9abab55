/**
 * Issue 24, one budget for many bots: three bot processes read the order book against the local
 * sandbox with its rate limits on. Each keeping its own budget, together they exceed the sandbox's
 * limit and get 429s; sharing one budget through a real redis-server (`api.rate_limit_store`),
 * they get none, while still using most of it.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RUN_MS = 5_000;
// the client allows itself 10/s × 0.1 = 1 order-book read per second after a burst of 10; the
// sandbox allows 10/s × 0.5 = 5/s averaged over 4 s, i.e. 20 reads in a window
const SAFETY = '0.1';

function bot(apiUrl: string, store: string): Promise<{ sent: number; limited: number }> {
  const child = spawn(
    process.execPath,
    ['--import', join(ROOT, 'bin/register.js'), join(ROOT, 'test/queue/budget-bot.ts'), apiUrl, store, String(RUN_MS), SAFETY],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((res, rej) =>
    child.once('exit', (code) =>
      code === 0 ? res(JSON.parse(out.trim()) as { sent: number; limited: number }) : rej(new Error(`bot exited ${String(code)}: ${err}`)),
    ),
  );
}

describe.skipIf(redisSkipReason !== undefined)('three bots on one request budget (api.rate_limit_store)', () => {
  let redis: RedisServer;
  let sandbox: TestSandbox;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await sandbox?.close();
    await redis?.stop();
  });

  const fresh = async (): Promise<string> => {
    await sandbox?.close();
    sandbox = await startTestSandbox({ rateLimits: { windowMs: 4_000, penaltyMs: 2_000, scale: 0.5 } });
    return sandbox.handle.apiUrl;
  };

  it('each with its own budget the three exceed the limit; sharing one they make no 429', async () => {
    const first = await fresh();
    const alone = await Promise.all([1, 2, 3].map(() => bot(first, 'none')));
    expect(alone.reduce((n, b) => n + b.limited, 0)).toBeGreaterThan(0);
    const apiUrl = await fresh();
    const shared = await Promise.all([1, 2, 3].map(() => bot(apiUrl, redis.url)));
    expect(shared.map((b) => b.limited)).toEqual([0, 0, 0]);
    // the fleet used its budget: burst 10 plus about 1/s over the run, split across the three
    const total = shared.reduce((n, b) => n + b.sent, 0);
    expect(total).toBeGreaterThanOrEqual(12);
    expect(shared.every((b) => b.sent > 0)).toBe(true);
    // through the store: one bucket for the credential, the three bots seen
    const r = new Redis(redis.port, '127.0.0.1');
    const bots = await r.keys('tradeloop:budget:*:bots');
    expect(bots).toHaveLength(1);
    expect(await r.zcard(bots[0]!)).toBe(3);
    r.disconnect();
  });
});
