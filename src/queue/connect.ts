import { Redis, type RedisOptions } from 'ioredis';
import type { RedisOptions as BullRedisOptions } from 'bullmq';
import { TradeloopError } from '../core/index.js';
import { describeRedisError, redisOptions, type RedisTarget } from '../config/redis-url.js';

/**
 * Opens a Redis connection and checks it answers (PING) within `timeoutMs`; a refusal or a wrong
 * password is an error in our words naming the address and the fix (never the password).
 */
export async function connectRedis(
  target: RedisTarget,
  env: NodeJS.ProcessEnv,
  where: string,
  extra: RedisOptions = {},
  timeoutMs = 5_000,
): Promise<Redis> {
  const redis = new Redis(redisOptions(target, env, { maxRetriesPerRequest: null, connectTimeout: timeoutMs, ...extra }));
  let lastError: unknown;
  redis.on('error', (e: unknown) => {
    lastError = e;
  });
  try {
    await withTimeout(redis.ping(), timeoutMs, () => lastError ?? new Error(`no answer within ${timeoutMs} ms`));
    return redis;
  } catch (e) {
    redis.disconnect();
    throw new TradeloopError('REDIS_UNREACHABLE', `${where}: ${describeRedisError(target, lastError ?? e, env)}`);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, why: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(why()), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/** BullMQ's connection options for a target (its own connections; the password from the environment). */
export function bullConnection(target: RedisTarget, env: NodeJS.ProcessEnv): BullRedisOptions {
  const o = redisOptions(target, env, { maxRetriesPerRequest: null });
  return { ...o } as BullRedisOptions;
}
