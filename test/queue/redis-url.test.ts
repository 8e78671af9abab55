/** Redis addresses: the password only from TRADELOOP_REDIS_PASSWORD, refused inside a URL naming where; rediss:// is TLS. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/load.js';
import { describeRedisError, maskUrlCredentials, parseRedisUrl, redisOptions } from '../../src/config/redis-url.js';

describe('Redis URLs', () => {
  it('takes host, port, database and TLS; the password comes from the environment only', () => {
    const t = parseRedisUrl('rediss://cache.example:6380/2', '--queue');
    expect(t).toMatchObject({ host: 'cache.example', port: 6380, db: 2, tls: true, label: 'rediss://cache.example:6380/2' });
    const o = redisOptions(t, { TRADELOOP_REDIS_PASSWORD: 'pw' });
    expect(o).toMatchObject({ host: 'cache.example', port: 6380, db: 2, password: 'pw', tls: { servername: 'cache.example' } });
    expect(redisOptions(parseRedisUrl('redis://127.0.0.1', '--queue'), {})).not.toHaveProperty('password');
  });

  it('refuses a password inside the URL, naming where it was, without repeating it', () => {
    expect(() => parseRedisUrl('redis://:hunter2@127.0.0.1:6379', '--queue')).toThrow(
      /--queue: a password inside the Redis URL is refused .* set TRADELOOP_REDIS_PASSWORD/,
    );
    try {
      parseRedisUrl('redis://user:hunter2@127.0.0.1:6379', '--queue');
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
    expect(() => parseRedisUrl('http://127.0.0.1:6379', '--queue')).toThrow(/http:\/\/ is not a Redis URL scheme/);
    expect(() => parseRedisUrl('nonsense', 'api.rate_limit_store')).toThrow(/api.rate_limit_store: "nonsense" is not a Redis URL/);
  });

  it('refuses a password whatever it holds (a / would otherwise end the host), and never repeats a user part', () => {
    for (const url of [
      'redis://:pa/ss@127.0.0.1:6379',
      'redis://u:pa/ss@127.0.0.1',
      'redis://:p@ss@127.0.0.1',
      'rediss://:pa%2Fss@h:1/0',
    ]) {
      let message = '';
      try {
        parseRedisUrl(url, '--queue');
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, url).toMatch(/--queue: a password inside the Redis URL is refused/);
      expect(message).not.toMatch(/pa\/ss|pa%2Fss|p@ss/);
    }
    expect(() => parseRedisUrl('redis://us/er@127.0.0.1', '--queue')).toThrow(
      /"redis:\/\/\*\*\*@127\.0\.0\.1" is not a Redis URL \(the part before @ is not a user name\)/,
    );
    expect(parseRedisUrl('redis://worker@127.0.0.1:6379/3', '--queue')).toMatchObject({
      username: 'worker',
      db: 3,
      label: 'redis://127.0.0.1:6379/3',
    });
    expect(() => parseRedisUrl('redis://127.0.0.1:21379/notadb', 'api.rate_limit_store')).toThrow(
      /api\.rate_limit_store: database "notadb" in "redis:\/\/127\.0\.0\.1:21379\/notadb" is not a whole number: use redis:\/\/HOST:PORT\/0/,
    );
    expect(() => parseRedisUrl('redis://127.0.0.1/1.5', '--queue')).toThrow(/database "1\.5"/);
    expect(maskUrlCredentials('redis://:pa/ss@host:1/0')).toBe('redis://***@host:1/0');
    expect(maskUrlCredentials('redis://host:1/0')).toBe('redis://host:1/0');
  });

  it('api.rate_limit_store in a config file: a password in it is refused naming the file and the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-redis-url-'));
    try {
      const file = join(dir, 'bot.yaml');
      writeFileSync(file, 'api:\n  rate_limit_store: redis://:hunter2@127.0.0.1:6379\n');
      let message = '';
      try {
        loadConfigFile(file);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/bot\.yaml/);
      expect(message).toMatch(/api\.rate_limit_store/);
      expect(message).toMatch(/password inside the Redis URL is refused/);
      expect(message).not.toContain('hunter2');
      // the config check is the parser run uses: a database that is not a number is refused here too
      writeFileSync(file, 'api:\n  rate_limit_store: redis://127.0.0.1:21379/notadb\n');
      expect(() => loadConfigFile(file)).toThrow(/api\.rate_limit_store: database "notadb" .* is not a whole number/);
      writeFileSync(file, 'api:\n  rate_limit_store: redis://127.0.0.1:6379\n');
      expect(loadConfigFile(file).api.rate_limit_store).toBe('redis://127.0.0.1:6379');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('words a Redis failure with the address and the fix, never the password', () => {
    const t = parseRedisUrl('redis://127.0.0.1:1', '--queue');
    const env = { TRADELOOP_REDIS_PASSWORD: 'hunter2' };
    expect(describeRedisError(t, new Error('WRONGPASS invalid username-password pair hunter2'), env)).toMatch(
      /refused the login .*\*\*\*.*set TRADELOOP_REDIS_PASSWORD/,
    );
    expect(describeRedisError(t, new Error('connect ECONNREFUSED 127.0.0.1:1'), env)).toMatch(
      /redis:\/\/127.0.0.1:1 is unreachable .* start redis-server/,
    );
  });
});
