/**
 * Redis addresses for `api.rate_limit_store` and `--queue`: `redis://HOST:PORT[/DB]` or `rediss://`
 * (TLS), one parser for the config check (`tradeloop start`, the schema), `tradeloop run`, the queue
 * worker and the optimizer. The password comes only from TRADELOOP_REDIS_PASSWORD: a password written
 * inside the URL (on a command line, in a config file) is refused, naming where it was, so it never
 * lands in shell history, process lists, logs or job data; a URL's user part is never repeated in a
 * message. The ioredis options and the error wording for a target are here too, so the API's shared
 * budget store and the queue connect the same way.
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

const FIX = 'use redis://HOST:PORT or rediss://HOST:PORT (TLS)';
const PASSWORD_REFUSED = `a password inside the Redis URL is refused (it would be kept in shell history, process lists and files): remove it from the URL and set ${REDIS_PASSWORD_ENV} in the environment`;

/** A Redis URL checked, or why it is refused (in words that never repeat a password). */
export function checkRedisUrl(text: string): { readonly target: RedisTarget } | { readonly problem: string } {
  const body = text.trim();
  const shown = JSON.stringify(maskUrlCredentials(body));
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(body);
  const rest = scheme === null ? body : body.slice(scheme[0].length);
  // everything before the last @ is the user part, whatever it holds: `redis://:pa/ss@host` is a
  // password whose `/` would otherwise end the host, not a path
  const at = rest.lastIndexOf('@');
  const userPart = at === -1 ? undefined : rest.slice(0, at);
  if (userPart !== undefined && userPart.includes(':')) {
    return { problem: PASSWORD_REFUSED };
  }
  if (userPart !== undefined && (userPart === '' || /[/?#\\]/.test(userPart)))
    return { problem: `${shown} is not a Redis URL (the part before @ is not a user name): ${FIX}` };
  let url: URL;
  try {
    url = new URL(body);
  } catch {
    return { problem: `${shown} is not a Redis URL: ${FIX}` };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return { problem: `${url.protocol}// is not a Redis URL scheme: ${FIX}` };
  if (url.password !== '') return { problem: PASSWORD_REFUSED };
  if (url.hostname === '') return { problem: `${shown} names no host: use redis://HOST:PORT` };
  if (url.search !== '' || url.hash !== '')
    return { problem: `${shown} has a query or fragment, which Redis URLs do not take: ${FIX}[/DB]` };
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : /^\d+$/.test(dbText) ? Number(dbText) : NaN;
  if (!Number.isSafeInteger(db))
    return {
      problem: `database ${JSON.stringify(dbText)} in ${shown} is not a whole number: use redis://HOST:PORT/0 (a database number, 0 when left out)`,
    };
  const tls = url.protocol === 'rediss:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  return {
    target: {
      host,
      port,
      db,
      tls,
      ...(username !== undefined && { username }),
      label: `${url.protocol}//${url.host}${db === 0 ? '' : `/${db}`}`,
    },
  };
}

/** Parses and checks a Redis URL; `where` names its origin (`--queue`, `api.rate_limit_store in config/x.yaml`). */
export function parseRedisUrl(text: string, where: string): RedisTarget {
  const r = checkRedisUrl(text);
  if ('problem' in r) throw new InputError(where, r.problem);
  return r.target;
}

/** A URL as it may be shown: whatever stands between `scheme://` and the last `@` becomes `***`. */
export function maskUrlCredentials(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  const start = scheme === null ? 0 : scheme[0].length;
  const at = text.lastIndexOf('@');
  return at < start ? text : `${text.slice(0, start)}***${text.slice(at)}`;
}

/** ioredis options for a target; the password from the environment, never from the URL. */
export function redisOptions(target: RedisTarget, env: NodeJS.ProcessEnv, extra: RedisOptions = {}): RedisOptions {
  const password = env[REDIS_PASSWORD_ENV];
  return {
    host: target.host,
    port: target.port,
    db: target.db,
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
  if (/NOAUTH|WRONGPASS|invalid password|AUTH/i.test(msg))
    return `Redis at ${target.label} refused the login (${msg}): set ${REDIS_PASSWORD_ENV} to its password`;
  if (/ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|Connection is closed|connect/i.test(msg))
    return `Redis at ${target.label} is unreachable (${msg}): start redis-server there or check the address`;
  return `Redis at ${target.label}: ${msg}`;
}
