import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

function localConfig(): string {
  const f = join(mkdtempSync(join(tmpdir(), 'tradeloop-hist-cfg-')), 'local.yaml');
  writeFileSync(f, 'environment: local\nlocal:\n  seed: 7\n');
  return f;
}

describe('tradeloop history fetch in the local environment', () => {
  it("starts the embedded sandbox itself and caches the docs' example range (2024-01-01 to 2024-07-01, hourly)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-hist-'));
    const r = await runCli([
      'history',
      'fetch',
      '--market',
      'BTCUSD',
      '--increment',
      'ONE_HOUR',
      '--from',
      '2024-01-01',
      '--to',
      '2024-07-01',
      '--data-dir',
      dir,
      '--config',
      localConfig(),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/environment local: the embedded sandbox \(seed 7\) serves the history/);
    // 182 days of hours
    expect(r.stderr).toMatch(/4368 points of BTCUSD at ONE_HOUR cached/);
    const csv = readFileSync(r.stdout.trim(), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('timestamp,price');
    expect(csv[1]).toMatch(/^2024-01-01T00:00:00(\.000)?Z,\d+\.\d{2}$/);
    expect(csv).toHaveLength(4369);
  });

  it('refuses a range the venue has no prices for (exit 2), keeping the cache of an earlier range', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-hist-'));
    const config = localConfig();
    const first = await runCli([
      'history',
      'fetch',
      '--market',
      'ETHUSD',
      '--increment',
      'ONE_DAY',
      '--from',
      '2024-03-01',
      '--to',
      '2024-04-01',
      '--data-dir',
      dir,
      '--config',
      config,
    ]);
    expect(first.code, first.stderr).toBe(0);
    const cached = readFileSync(first.stdout.trim(), 'utf8');
    const none = await runCli([
      'history',
      'fetch',
      '--market',
      'ETHUSD',
      '--increment',
      'ONE_DAY',
      '--from',
      '2031-01-01',
      '--to',
      '2031-02-01',
      '--data-dir',
      dir,
      '--config',
      config,
    ]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(
      /the venue has no ONE_DAY prices of ETHUSD from 2031-01-01T00:00:00\.000Z to 2031-02-01T00:00:00\.000Z: choose a range it has prices for/,
    );
    expect(none.stderr).not.toMatch(/0 points|\n\s+at /);
    expect(readFileSync(first.stdout.trim(), 'utf8')).toBe(cached);
    expect(existsSync(join(dir, 'ETHUSD-ONE_DAY.state.json'))).toBe(true);
  });
});
