import { Redis } from 'ioredis';
import { parseRedisUrl, redisOptions } from '../../queue/redis-url.js';
import { redisRateLimitStore, type RateLimitStore } from './shared-rate-limiter.js';

/**
 * The shared budget of `api.rate_limit_store`: a Redis connection that never holds a request up for
 * long (a command fails within a second while the store is away, and the bot falls back to its
 * share), reconnecting in the background. `scope` is the credential (client id) the budget is of.
 */
export function budgetStoreFromConfig(url: string, env: NodeJS.ProcessEnv, scope: string): RateLimitStore {
  const target = parseRedisUrl(url, 'api.rate_limit_store');
  const redis = new Redis(redisOptions(target, env, {
    maxRetriesPerRequest: 0, commandTimeout: 1_000, connectTimeout: 2_000, enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  }));
  redis.on('error', () => undefined); // seen by the limiter as failed commands (one "unreachable since" state)
  return redisRateLimitStore(redis, target.label, scope);
}
