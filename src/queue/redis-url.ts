/**
 * Redis connections for `--queue` and `api.rate_limit_store`. The URL is parsed by the config's own
 * parser (src/config/redis-url.ts), so `tradeloop start`, `run`, the worker and the optimizer accept
 * and refuse the same addresses; the password comes only from TRADELOOP_REDIS_PASSWORD.
 */
import type { RedisOptions } from 'ioredis';
import { REDIS_PASSWORD_ENV, type RedisTarget } from '../config/redis-url.js';

export { checkRedisUrl, maskUrlCredentials, parseRedisUrl, REDIS_PASSWORD_ENV, type RedisTarget } from '../config/redis-url.js';

/** ioredis options for a target; the password from the environment, never from the URL. */
export function redisOptions(target: RedisTarget, env: NodeJS.ProcessEnv, extra: RedisOptions = {}): RedisOptions {
  const password = env[REDIS_PASSWORD_ENV];
  return {
    host: target.host, port: target.port, db: target.db,
    ...(target.username !== undefined && { username: target.username }),
    ...(password !== undefined && password !== '' && { password }),
    ...(target.tls && { tls: { servername: target.host } }),
    lazyConnect: false,
    ...extra,
  };
}

/**
 * A Redis error in our words: the target's label (never a password) and what to check. ioredis
 * messages do not carry the password, but they are replaced anyway so nothing of it can leak.
 */
export function describeRedisError(target: RedisTarget, e: unknown, env: NodeJS.ProcessEnv): string {
  const raw = e instanceof Error ? e.message : String(e);
  const password = env[REDIS_PASSWORD_ENV];
  const msg = password ? raw.split(password).join('***') : raw;
  if (/NOAUTH|WRONGPASS|invalid password|AUTH/i.test(msg)) return `Redis at ${target.label} refused the login (${msg}): set ${REDIS_PASSWORD_ENV} to its password`;
  if (/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|Connection is closed|connect/i.test(msg)) return `Redis at ${target.label} is unreachable (${msg}): start redis-server there or check the address`;
  return `Redis at ${target.label}: ${msg}`;
}
