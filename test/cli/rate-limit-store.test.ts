/**
 * `api.rate_limit_store` through the real CLI: `tradeloop start` and `tradeloop run` check the URL with
 * the same parser, so a URL `run` cannot use is refused by `start` too (exit 2, naming the key and the
 * fix); `run` with one exits 2 instead of hanging with its embedded sandbox open, and the next run
 * takes the world's lock. A password hidden behind a `/` (`redis://:pa/ss@host`) is refused like any
 * other, and no message repeats it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTradeloop, type Proc } from '../support/reliability-procs.js';

/** A bot folder whose journal (and the embedded sandbox's world beside it) is its own. */
function bot(store?: string): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-store-'));
  const config = join(dir, 'bot.yaml');
  writeFileSync(
    config,
    `strategies:\n  - plugin: sma-cross\njournal:\n  path: ${join(dir, 'state', 'journal.sqlite')}\n${store === undefined ? '' : `api:\n  rate_limit_store: ${store}\n`}`,
  );
  return { dir, config };
}

/** The exit code, or a failure naming the output when the process has not ended within the deadline. */
async function exitWithin(p: Proc, ms: number): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
  const code = await Promise.race([p.exit, late]);
  clearTimeout(timer);
  if (code === 'late') throw new Error(`still running after ${ms} ms: ${p.err().slice(-600)}`);
  return code;
}

describe('api.rate_limit_store through tradeloop start and run', () => {
  const tradeloop = useTradeloop();

  it('start refuses a URL run cannot use (exit 2, naming the key and the fix)', async () => {
    const { dir, config } = bot('redis://127.0.0.1:21379/notadb');
    const p = tradeloop(['start', '--config', config], dir);
    expect(await exitWithin(p, 60_000), p.err()).toBe(2);
    expect(p.err()).toMatch(/api\.rate_limit_store: database "notadb" .* is not a whole number: use redis:\/\/HOST:PORT\/0/);
    expect(p.out()).not.toMatch(/check: ok/);
  }, 90_000);

  it('run with it exits 2 instead of hanging, and the next run takes the lock on the world', async () => {
    const { dir, config } = bot('redis://127.0.0.1:21379/notadb');
    const bad = tradeloop(['run', '--config', config, '--duration', '2s'], dir);
    expect(await exitWithin(bad, 90_000), bad.err()).toBe(2);
    expect(bad.err()).toMatch(/api\.rate_limit_store/);
    // the same folder without the store: the sandbox's world and the journal are free
    writeFileSync(config, `strategies:\n  - plugin: sma-cross\njournal:\n  path: ${join(dir, 'state', 'journal.sqlite')}\n`);
    const next = tradeloop(['run', '--config', config, '--duration', '1s', '--json'], dir);
    expect(await exitWithin(next, 90_000), next.err()).toBe(0);
  }, 200_000);

  it('refuses a password behind a slash in the URL and never prints it (start, run, worker)', async () => {
    const { dir, config } = bot('redis://:pa/ss@127.0.0.1:6379');
    for (const args of [
      ['start', '--config', config],
      ['run', '--config', config, '--duration', '1s'],
    ]) {
      const p = tradeloop(args, dir);
      expect(await exitWithin(p, 90_000), p.err()).toBe(2);
      expect(p.err()).toMatch(/api\.rate_limit_store: a password inside the Redis URL is refused .* TRADELOOP_REDIS_PASSWORD/);
      expect(p.out() + p.err()).not.toContain('pa/ss');
    }
    for (const url of ['redis://:pa/ss@127.0.0.1:1', 'redis://u:pa/ss@127.0.0.1:1/0']) {
      const w = tradeloop(['worker', '--queue', url], dir);
      expect(await exitWithin(w, 60_000), w.err()).toBe(2);
      expect(w.err()).toMatch(/--queue: a password inside the Redis URL is refused/);
      expect(w.out() + w.err()).not.toContain('pa/ss');
    }
  }, 300_000);
});
