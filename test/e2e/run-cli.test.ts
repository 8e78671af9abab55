import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/exec/index.js';
import { sandboxOrders, useTradeloop, waitFor, writeLocalConfig } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** `tradeloop <args>` in `cwd`, killed after the test if still running. */
const start = useTradeloop();

describe('tradeloop run (the real command)', () => {
  it('with the default config exits 0 after --duration 240s having completed at least one trade', { timeout: 330_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-run-'));
    const run = start(['run', '--config', join(ROOT, 'config/default.yaml'), '--duration', '240s', '--json'], cwd);
    const code = await run.exit;
    expect(code, run.err().slice(-2000)).toBe(0);
    const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as {
      fills: number;
      ordersPlaced: number;
      durationMs: number;
      unresolved: number;
    };
    expect(summary.fills).toBeGreaterThan(0);
    expect(summary.ordersPlaced).toBeGreaterThan(0);
    expect(summary.unresolved).toBe(0);
    expect(summary.durationMs).toBeGreaterThanOrEqual(240_000);
    const journal = new Journal(join(cwd, '.tradeloop/journal.sqlite'));
    expect(journal.fills().length).toBe(summary.fills);
    expect(journal.integrityCheck()).toBe('ok');
    journal.close();
  });

  it('--paper fills simulated orders on the embedded platform and exits 0', { timeout: 120_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-paper-'));
    const run = start(
      [
        'run',
        '--config',
        join(ROOT, 'config/default.yaml'),
        '--paper',
        '--strategy',
        'sma-cross',
        '--params',
        'fast=2,slow=4,size_pct=5',
        '--duration',
        '30s',
        '--json',
      ],
      cwd,
    );
    expect(await run.exit, run.err().slice(-2000)).toBe(0);
    const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as { ordersPlaced: number; fills: number };
    expect(summary.ordersPlaced).toBeGreaterThan(0);
    expect(summary.fills).toBeGreaterThan(0);
    expect(run.err()).toMatch(/local \(paper\)/);
  });

  it(
    'refuses at start, exit 2 naming the key, a holding of more than no strategy holds (strategies[].holdings), before any order',
    { timeout: 120_000 },
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-holdings-'));
      const config = join(cwd, 'c.yaml');
      writeFileSync(
        config,
        'local:\n  funding: { USD: "10000", BTC: "0.5" }\nstrategies:\n  - plugin: sma-cross\n    name: sma-btc\n    holdings: { BTCUSD: { amount: "0.75", price: "60000" } }\njournal:\n  path: j.sqlite\n',
      );
      const run = start(['run', '--config', config, '--duration', '30s'], cwd);
      expect(await run.exit, run.err().slice(-2000)).toBe(2);
      expect(run.err()).toMatch(
        /strategies\.0\.holdings\.BTCUSD: 0\.75 BTC is more than is held by no strategy \(0\.5 BTC\): assign at most that/,
      );
      const journal = new Journal(join(cwd, 'j.sqlite'));
      expect([journal.intents().length, journal.strategyFills().length]).toEqual([0, 0]);
      journal.close();
    },
  );

  it('--paper outside the local environment still needs the credential (it reads market data and quotes with it), naming the variables', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-paper-'));
    const config = join(cwd, 'c.yaml');
    writeFileSync(config, 'environment: sandbox\nstrategies:\n  - plugin: sma-cross\n');
    const run = start(['run', '--config', config, '--paper'], cwd);
    const code = await run.exit;
    expect(code).toBe(2);
    expect(run.err()).toMatch(/TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET/);
  });

  it(
    'killed with SIGKILL mid-run and restarted, reconciles the journal to the sandbox truth with no duplicate',
    { timeout: 240_000 },
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-kill-'));
      const sandbox = start(['sandbox', '--port', '0', '--seed', '9'], cwd);
      await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.test(sandbox.out()), 'the sandbox', 30_000);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(sandbox.out())?.[1] as string;
      const config = writeLocalConfig(join(cwd, 'bot.yaml'), url, [
        'strategies:',
        '  - plugin: sma-cross',
        '    params: { market: BTCUSD, fast: 2, slow: 4, size_pct: 5 }',
        'streams: { warmup_points: 10 }',
        'run: { cancel_on_exit: false }',
        `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
      ]);
      const orderCount = async (): Promise<number> => (await sandboxOrders(url)).length;
      const first = start(['run', '--config', config], cwd);
      await waitFor(async () => (await orderCount()) > 0, 'a first order', 150_000);
      first.child.kill('SIGKILL');
      await first.exit;
      const second = start(['run', '--config', config, '--duration', '8s', '--json'], cwd);
      expect(await second.exit, second.err().slice(-2000)).toBe(0);
      const journal = new Journal(join(cwd, 'journal.sqlite'));
      const venue = await sandboxOrders<{ id: string; ref_id: string; status: string }>(url);
      expect(new Set(venue.map((o) => o.ref_id)).size).toBe(venue.length);
      for (const o of venue)
        expect(journal.get(o.ref_id), `order ${o.ref_id} missing from the journal`).toMatchObject({ venueId: o.id, status: o.status });
      expect(journal.active().filter((r) => r.state === 'sent' || r.state === 'unresolved')).toEqual([]);
      expect(journal.integrityCheck()).toBe('ok');
      journal.close();
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exit).toBe(0);
    },
  );
});
