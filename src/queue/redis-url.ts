/**
 * Redis addresses for `--queue` and `api.rate_limit_store`: `redis://HOST:PORT[/DB]` or `rediss://`
 * (TLS). The password comes only from TRADELOOP_REDIS_PASSWORD: a password written inside the URL
 * (on a command line, in a config file) is refused, naming where it was, so it never lands in shell
 * history, process lists, logs or job data.
 */
import type { RedisOptions } from 'ioredis';
import { InputError } from '../core/index.js';

export const REDIS_PASSWORD_ENV = 'TRADELOOP_REDIS_PASSWORD';

export interface RedisTarget {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly tls: boolean;
  readonly username?: string;
  /** The URL without any secret, for messages. */
  readonly label: string;
}

/** Parses and checks a Redis URL; `where` names its origin (`--queue`, `api.rate_limit_store in config/x.yaml`). */
export function parseRedisUrl(text: string, where: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new InputError(where, `${JSON.stringify(text)} is not a Redis URL: use redis://HOST:PORT or rediss://HOST:PORT (TLS)`);
  }
  if (url.password !== '') {
    throw new InputError(where, `a password inside the Redis URL is refused (it would be kept in shell history, process lists and files): remove it from the URL and set ${REDIS_PASSWORD_ENV} in the environment`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new InputError(where, `${url.protocol}// is not a Redis URL scheme: use redis://HOST:PORT or rediss://HOST:PORT (TLS)`);
  }
  if (url.hostname === '') throw new InputError(where, `${JSON.stringify(text)} names no host: use redis://HOST:PORT`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new InputError(where, `database ${JSON.stringify(dbText)} is not a whole number: use redis://HOST:PORT/0`);
  const tls = url.protocol === 'rediss:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  return { host, port, db, tls, ...(username !== undefined && { username }), label: `${url.protocol}//${url.host}${db === 0 ? '' : `/${db}`}` };
}

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
