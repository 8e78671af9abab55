import type { Redis } from 'ioredis';
import { parseRedisUrl, redisOptions } from '../../config/redis-url.js';
import { redisRateLimitStore, type RateLimitStore } from './shared-rate-limiter.js';

/**
 * The shared budget of `api.rate_limit_store`: a Redis connection that never holds a request up for
 * long (a command fails within a second while the store is away, and the bot falls back to its
 * share), reconnecting in the background. `scope` is the credential (client id) the budget is of.
 * ioredis is loaded only when a store is configured: loading it slows V8's string handling for the
 * whole process (docs/backtest.md).
 */
export function budgetStoreFromConfig(url: string, env: NodeJS.ProcessEnv, scope: string): RateLimitStore {
  const target = parseRedisUrl(url, 'api.rate_limit_store');
  const options = redisOptions(target, env, {
    maxRetriesPerRequest: 0, commandTimeout: 1_000, connectTimeout: 2_000, enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let closed = false;
  const connection: Promise<Redis> = import('ioredis').then(({ Redis: Client }) => {
    const redis = new Client(options);
    redis.on('error', () => undefined); // seen by the limiter as failed commands (one "unreachable since" state)
    if (closed) redis.disconnect();
    return redis;
  });
  let store: Promise<RateLimitStore> | undefined;
  const ready = (): Promise<RateLimitStore> => (store ??= connection.then((redis) => redisRateLimitStore(redis, target.label, scope)));
  return {
    label: target.label,
    take: async (budget, rate, burst, reserve) => (await ready()).take(budget, rate, burst, reserve),
    pause: async (ms) => (await ready()).pause(ms),
    close: async () => {
      closed = true;
      (await connection).disconnect();
    },
  };
}
