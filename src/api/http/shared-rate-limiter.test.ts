/**
 * The shared request budget: the Lua token bucket on a real redis-server (two limiters draw from one
 * bucket, orders keep a reserve market data cannot take, a 429's pause reaches every bot), and the
 * fallback when the store is away: 1/N of the budget and one "unreachable since" state.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../clock/live-clock.js';
import { TestClock } from '../../clock/test-clock.js';
import { freePort, redisSkipReason, startRedis, type RedisServer } from '../../../test/support/redis-server.js';
import { budgetStoreFromConfig } from './redis-budget-store.js';
import { redisRateLimitStore, SharedRateLimiter, type RateLimitStore } from './shared-rate-limiter.js';
import type { Budget } from './budgets.js';

const BOOK: Budget = { name: 'order-book', pattern: '/markets/*/order-book', ratePerSec: 10, burst: 10 };

function capture(): { logger: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  let text = '';
  const stream = new Writable({
    write(chunk, _e, cb) {
      text += String(chunk);
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines: () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe.skipIf(redisSkipReason !== undefined)('the Redis token bucket', () => {
  let server: RedisServer;
  const conns: Redis[] = [];
  const store = (scope: string, bot: string): RateLimitStore => {
    const r = new Redis(server.port, '127.0.0.1');
    conns.push(r);
    return redisRateLimitStore(r, server.url, scope, bot);
  };
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    conns.forEach((c) => c.disconnect());
    await server?.stop();
  });

  it('two bots draw from one bucket: together no more than its burst at once, and both are seen', async () => {
    const a = store('cred-1', 'a');
    const b = store('cred-1', 'b');
    const grants = [];
    for (let i = 0; i < 8; i++) grants.push(await a.take('order-book', 0.001, 10, 0), await b.take('order-book', 0.001, 10, 0));
    expect(grants.filter((g) => g.waitMs === 0)).toHaveLength(10);
    expect(grants.at(-1)!.waitMs).toBeGreaterThan(0);
    expect(grants.at(-1)!.bots).toBe(2);
    // another credential has its own budget
    expect((await store('cred-2', 'c').take('order-book', 0.001, 10, 0)).waitMs).toBe(0);
  });

  it('market data leaves a reserve that orders may still take', async () => {
    const s = store('cred-3', 'a');
    let taken = 0;
    while ((await s.take('default', 0.001, 10, 2)).waitMs === 0) taken++;
    expect(taken).toBe(8);
    expect((await s.take('default', 0.001, 10, 0)).waitMs).toBe(0);
    expect((await s.take('default', 0.001, 10, 0)).waitMs).toBe(0);
    expect((await s.take('default', 0.001, 10, 0)).waitMs).toBeGreaterThan(0);
  });

  it("a 429's pause reaches every bot sharing the store", async () => {
    const clock = new LiveClock();
    const a = new SharedRateLimiter({ clock, budgets: [BOOK], store: store('cred-4', 'a') });
    const b = store('cred-4', 'b');
    a.pause(60_000);
    await new Promise((r) => setTimeout(r, 50)); // the pause is sent without holding the caller up
    const r = await b.take('order-book', 8, 10, 0);
    expect(r.waitMs).toBeGreaterThan(59_000);
    expect(r.waitMs).toBeLessThanOrEqual(60_000);
  });

  it('a store nobody answers on: the bot goes on with its share and says so once', async () => {
    const port = await freePort();
    const log = capture();
    const s = budgetStoreFromConfig(`redis://127.0.0.1:${port}`, {}, 'cred-5');
    const limiter = new SharedRateLimiter({ clock: new LiveClock(), budgets: [BOOK], store: s, logger: log.logger });
    await limiter.acquire('/markets/BTCUSD/order-book', 'low');
    await limiter.acquire('/markets/BTCUSD/order-book', 'low');
    expect(limiter.storeState().unreachableSince).toBeTypeOf('number');
    const warnings = log.lines().filter((l) => String(l.msg).startsWith('budget store unreachable since'));
    expect(warnings).toHaveLength(1);
    await s.close();
  });
});

describe('the fallback share', () => {
  it('takes 1/N of the budget for the N bots last seen, and comes back when the store answers', async () => {
    const clock = new TestClock(1_000);
    let up = true;
    const fake: RateLimitStore = {
      label: 'redis://fake:6379',
      take: () => (up ? Promise.resolve({ waitMs: 0, bots: 2 }) : Promise.reject(new Error('Connection is closed.'))),
      pause: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const log = capture();
    const limiter = new SharedRateLimiter({ clock, budgets: [BOOK], store: fake, logger: log.logger, safety: 1 });
    await limiter.acquire('/markets/X/order-book');
    up = false;
    // share of 2 bots: burst 5, 5 per second
    for (let i = 0; i < 5; i++) await limiter.acquire('/markets/X/order-book');
    let sixth = false;
    void limiter.acquire('/markets/X/order-book').then(() => (sixth = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(sixth).toBe(false);
    clock.advance(200);
    await new Promise((r) => setTimeout(r, 10));
    expect(sixth).toBe(true);
    expect(limiter.storeState()).toEqual({ store: 'redis://fake:6379', bots: 2, unreachableSince: 1_000 });
    up = true;
    await limiter.acquire('/markets/X/order-book');
    expect(limiter.storeState().unreachableSince).toBeUndefined();
    const msgs = log.lines().map((l) => String(l.msg));
    expect(msgs.filter((m) => m.startsWith('budget store unreachable since 1970-01-01T00:00:01.000Z: this bot keeps 1/2'))).toHaveLength(1);
    expect(msgs.some((m) => m.startsWith('budget store reachable again'))).toBe(true);
  });
});
