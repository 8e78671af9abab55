/**
 * The Redis password comes from TRADELOOP_REDIS_PASSWORD only: against a redis-server that requires
 * one, a missing or wrong password is an error naming the address and the variable (never the
 * password), and the right one connects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/queue/connect.js';
import { parseRedisUrl } from '../../src/config/redis-url.js';
import { runCli } from '../cli/cli-helpers.js';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';

describe.skipIf(redisSkipReason !== undefined)('a Redis that requires a password', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis(['--requirepass', 'right-horse-battery']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('connects with TRADELOOP_REDIS_PASSWORD and refuses without it, naming the variable', async () => {
    const target = parseRedisUrl(server.url, '--queue');
    const ok = await connectRedis(target, { TRADELOOP_REDIS_PASSWORD: 'right-horse-battery' }, '--queue');
    expect(await ok.ping()).toBe('PONG');
    ok.disconnect();
    await expect(connectRedis(target, {}, '--queue', {}, 2_000)).rejects.toThrow(
      /--queue: Redis at redis:\/\/127\.0\.0\.1:\d+ refused the login .*set TRADELOOP_REDIS_PASSWORD/,
    );
    const wrong = connectRedis(target, { TRADELOOP_REDIS_PASSWORD: 'wrong-horse' }, '--queue', {}, 2_000);
    await expect(wrong).rejects.toThrow(/refused the login/);
    await expect(wrong).rejects.not.toThrow(/wrong-horse/);
  });

  it('tradeloop worker without the password exits with the reason, not a stack', async () => {
    const r = await runCli(['worker', '--queue', server.url], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused the login .* TRADELOOP_REDIS_PASSWORD/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
