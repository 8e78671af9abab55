import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/exec/index.js';
import { loadStrategy, StrategyTestKit } from '../../src/strategy/index.js';
import { runCli } from './cli-helpers.js';

describe('tradeloop new-strategy', () => {
  it('writes a plugin that loads without a build step and trades in the test kit', async () => {
    const base = resolve(import.meta.dirname, '../../.tradeloop/test-tmp');
    mkdirSync(base, { recursive: true });
    const dir = mkdtempSync(join(base, 'plugin-'));
    const run = await runCli(['new-strategy', 'ema-walk', '--dir', dir]);
    expect(run.code).toBe(0);
    const def = await loadStrategy(join(dir, 'ema-walk.ts'));
    expect(def.name).toBe('ema-walk');
    const kit = new StrategyTestKit(def, { period: 3, size_pct: 50 }, { USD: '1000' });
    kit.prices('BTCUSD', [100, 100, 100]);
    expect(kit.prices('BTCUSD', [110])).toEqual([{ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' }]);
    const again = await runCli(['new-strategy', 'ema-walk', '--dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists: choose another name or pass --force/);
  });

  it('refuses a name that is not kebab-case', async () => {
    const run = await runCli(['new-strategy', 'Bad_Name', '--dir', tmpdir()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/must be kebab-case/);
  });
});

describe('tradeloop orders / trades', () => {
  function journalWithData(): string {
    const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-cli-')), 'j.sqlite');
    const j = new Journal(file);
    j.recordDecision({ kind: 'approve', at: 1_700_000_000_000, intent: { kind: 'place-order', intentId: 'run-1', strategy: 'sma-cross', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.00' } });
    j.update('run-1', 1_700_000_000_100, 'done', { venueId: 'o-1', status: 'FILLED', amountFilled: '0.001' }, { type: 'status' });
    j.recordFill({ fillId: 'f-1', refId: 'run-1', orderId: 'o-1', market: 'BTCUSD', side: 'BUY', amount: '0.001', price: '99900', commission: '0.1', commissionAsset: 'USD', at: 1_700_000_000_100 });
    j.recordDecision({ kind: 'deny', at: 1_700_000_000_200, intent: { kind: 'place-order', intentId: 'run-2', strategy: 'sma-cross', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '5' }, reason: { code: 'INSUFFICIENT_BALANCE', message: 'x', details: {} } });
    j.close();
    return file;
  }

  it('prints orders as a table and as JSON', async () => {
    const file = journalWithData();
    const table = await runCli(['orders', '--journal', file]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/run-1.*MARKET 100.00 quote.*done\s+FILLED/);
    expect(table.stdout).toMatch(/run-2.*denied\s+INSUFFICIENT_BALANCE/);
    const json = await runCli(['orders', '--journal', file, '--json', '--state', 'denied']);
    expect(JSON.parse(json.stdout)).toHaveLength(1);
  });

  it('prints trades', async () => {
    const run = await runCli(['trades', '--journal', journalWithData(), '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject([{ fillId: 'f-1', price: '99900' }]);
  });

  it('explains a missing journal and bad flags with exit code 2', async () => {
    expect((await runCli(['orders', '--journal', '/nonexistent/j.sqlite'])).stderr).toMatch(/does not exist/);
    const bad = await runCli(['orders', '--journal', journalWithData(), '--limit', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit must be a positive integer/);
  });
});
