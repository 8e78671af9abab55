/**
 * `backtest --from/--to` fetches what the history cache lacks from the config's environment (here a
 * sandbox on 127.0.0.1 named by the config's api.base_url): every market of a config, a resumed
 * partial fetch, nothing fetched when the cache covers the range, and a market the platform keeps
 * no history of refused naming it and the command that would fill the cache; optimize of a strategy
 * inside a config fetches as backtest does.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-history-on-demand-'));
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: new TestClock(Date.UTC(2025, 5, 1)), seed: 5 });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(name: string, markets: readonly string[]): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `environment: local
api:
  base_url: ${sandbox.apiUrl}
  token_url: ${sandbox.tokenUrl}
strategies:
${markets.map((m) => `  - plugin: sma-cross\n    name: ${m.toLowerCase()}-trend\n    params: { market: ${m}, fast: 3, slow: 8, size_pct: 20 }`).join('\n')}
`,
  );
  return file;
}

/** `--from A --to B --data-dir DIR --json` (the range and the cache every case asks of). */
const cached = (from: string, to: string, dataDir: string): string[] => ['--from', from, '--to', to, '--data-dir', dataDir, '--json'];

describe('backtest --from/--to with missing history', () => {
  it('fetches each market of a config into the cache, resumes a partial fetch, and fetches nothing once it is there', async () => {
    const dataDir = join(dir, 'cache');
    const argv = ['backtest', '--config', config('bot.yaml', ['BTCUSD', 'ETHUSD']), ...cached('2025-03-01', '2025-05-01', dataDir)];
    const first = await runCli(argv);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /fetching the missing ONE_HOUR prices of BTCUSD from 2025-03-01T00:00:00.000Z to 2025-05-01T00:00:00.000Z/,
    );
    expect(first.stderr).toMatch(/1464 points of ETHUSD at ONE_HOUR cached/);
    const j = JSON.parse(first.stdout.trim());
    expect(j.markets.map((m: { market: string; points: number }) => [m.market, m.points])).toEqual([
      ['BTCUSD', 1464],
      ['ETHUSD', 1464],
    ]);
    // an interrupted fetch of ETHUSD (its first page in): the next backtest fetches only the rest
    const csv = join(dataDir, 'ETHUSD-ONE_HOUR.csv');
    const full = readFileSync(csv, 'utf8');
    writeFileSync(csv, `${full.trim().split('\n').slice(0, 1001).join('\n')}\n`);
    const state = join(dataDir, 'ETHUSD-ONE_HOUR.state.json');
    writeFileSync(state, JSON.stringify({ ...JSON.parse(readFileSync(state, 'utf8')), fetched: 1000, complete: false }));
    const second = await runCli(argv);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/resuming at point 1000 of 1464 \(ETHUSD\)/);
    expect(second.stderr).not.toMatch(/prices of BTCUSD/);
    expect(readFileSync(csv, 'utf8')).toBe(full);
    expect(JSON.parse(second.stdout.trim())).toMatchObject({ markets: j.markets, total: j.total });
    // covered: nothing fetched, the same result
    const third = await runCli(argv);
    expect(third.stderr).not.toMatch(/fetching/);
    expect(JSON.parse(third.stdout.trim()).total).toEqual(j.total);
  });

  it('fetches for a single strategy with --market too', async () => {
    const dataDir = join(dir, 'single');
    const r = await runCli([
      'backtest',
      '--config',
      config('one.yaml', ['BTCUSD']),
      '--strategy',
      'sma-cross',
      '--market',
      'BTCUSD',
      ...cached('2025-04-01', '2025-04-03', dataDir),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dataDir, 'BTCUSD-ONE_HOUR.csv'))).toBe(true);
    expect(JSON.parse(r.stdout.trim()).points).toBe(48);
  });

  it('optimize of a strategy inside a config fetches the missing markets too', async () => {
    const dataDir = join(dir, 'optimize');
    const r = await runCli([
      'optimize',
      '--config',
      config('opt.yaml', ['BTCUSD', 'ETHUSD']),
      '--strategy',
      'ethusd-trend',
      '--grid',
      'fast=2|3',
      ...cached('2025-04-01', '2025-04-03', dataDir),
      '--workers',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/48 points of BTCUSD at ONE_HOUR cached[\s\S]*48 points of ETHUSD at ONE_HOUR cached/);
    expect(JSON.parse(r.stdout.trim()).rows).toHaveLength(2);
  });

  it('refuses a market the platform keeps no history of, naming it and the command to run', async () => {
    const r = await runCli([
      'backtest',
      '--config',
      config('odd.yaml', ['BTCSGD']),
      ...cached('2025-04-01', '2025-04-03', join(dir, 'odd')),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /no cached prices of BTCSGD for this range, and the platform keeps no history of BTCSGD.*--data BTCSGD=FILE.*tradeloop history fetch --market BTCSGD/,
    );
  });
});
