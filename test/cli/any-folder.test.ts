import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTradeloop } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The real command, started in a folder that is not the repository: with no ./config/default.yaml it
 * runs on tradeloop's own defaults (found from the package, not the folder) and says so; with one, it
 * uses that file and says so.
 */
describe('tradeloop outside the repository', () => {
  const tradeloop = useTradeloop();

  it('start, run and history fetch use the built-in defaults (the embedded sandbox) and say which config they used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-anywhere-'));
    const start = tradeloop(['start'], dir);
    expect(await start.exit, start.err()).toBe(0);
    expect(start.out()).toContain(
      `config: none in this folder (no ./config/default.yaml, no --config): tradeloop's built-in defaults (${join(ROOT, 'config', 'default.yaml')}), the embedded local sandbox`,
    );
    expect(start.out()).toMatch(/check: ok/);

    const run = tradeloop(['run', '--duration', '3s', '--json'], dir);
    expect(await run.exit, run.err()).toBe(0);
    expect(run.err()).toMatch(/^config: none in this folder .*built-in defaults/m);
    expect(JSON.parse(run.out().trim())).toMatchObject({ stoppedStrategies: [], unresolved: 0 });
    // the journal of the built-in defaults is in the folder the command ran in
    expect(readFileSync(join(dir, '.tradeloop', 'journal.sqlite')).length).toBeGreaterThan(0);

    const history = tradeloop(
      ['history', 'fetch', '--market', 'BTCUSD', '--increment', 'ONE_DAY', '--from', '2024-01-01', '--to', '2024-02-01'],
      dir,
    );
    expect(await history.exit, history.err()).toBe(0);
    expect(history.out().trim()).toBe(join('data', 'history', 'BTCUSD-ONE_DAY.csv'));
    expect(history.err()).toMatch(/31 points of BTCUSD at ONE_DAY cached/);
  }, 240_000);

  it('uses ./config/default.yaml of the folder when there is one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-project-'));
    mkdirSync(join(dir, 'config'));
    writeFileSync(
      join(dir, 'config', 'default.yaml'),
      'strategies:\n  - plugin: sma-cross\n    name: mine\nrisk:\n  max_order_notional: 1000\n',
    );
    const start = tradeloop(['start'], dir);
    expect(await start.exit, start.err()).toBe(0);
    expect(start.out()).toMatch(/^config: config\/default\.yaml$/m);
    expect(start.out()).toMatch(/mine \(sma-cross\) on BTCUSD/);
  }, 120_000);
});
