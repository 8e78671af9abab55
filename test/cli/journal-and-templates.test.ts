import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, positionsFromFills } from '../../src/exec/index.js';
import { POSITIONS_SNAPSHOT_KEY } from '../../src/exec/journal-positions.js';
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
    expect(kit.prices('BTCUSD', [110])).toEqual([
      { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' },
    ]);
    const again = await runCli(['new-strategy', 'ema-walk', '--dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists: choose another name or pass --force/);
  });

  it('--bars writes a bar strategy whose own test passes on the test kit', async () => {
    const base = resolve(import.meta.dirname, '../../.tradeloop/test-tmp');
    mkdirSync(base, { recursive: true });
    const dir = mkdtempSync(join(base, 'bar-plugin-'));
    const run = await runCli(['new-strategy', 'hour-breakout', '--bars', '--dir', dir]);
    expect(run.code).toBe(0);
    const def = await loadStrategy(join(dir, 'hour-breakout.ts'));
    expect(def.bars).toBeTypeOf('function');
    const kit = new StrategyTestKit(def, { period: 3, size_pct: 50 }, { USD: '1000' }, Date.UTC(2025, 0, 1));
    const candle = (close: number) => ({ open: 100, high: 101, low: 99, close, volume: 1 });
    expect(kit.candles('BTCUSD', '1h', [candle(100.1), candle(100.2), candle(100.3), candle(100.4)])).toEqual([]);
    expect(kit.candles('BTCUSD', '1h', [{ open: 100.4, high: 104, low: 100.4, close: 103, volume: 2 }])).toEqual([
      { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' },
    ]);
    // the test it wrote runs under vitest here, as in a project that depends on it
    const { barTestTemplate } = await import('../../src/cli/project/bar-templates.js');
    expect(barTestTemplate('hour-breakout', 'node')).toMatch(/assert\.deepEqual\(kit\.barsSeen/);
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
    j.recordDecision({
      kind: 'approve',
      at: 1_700_000_000_000,
      intent: {
        kind: 'place-order',
        intentId: 'run-1',
        strategy: 'sma-cross',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'MARKET',
        quoteAmount: '100.00',
      },
    });
    j.update('run-1', 1_700_000_000_100, 'done', { venueId: 'o-1', status: 'FILLED', amountFilled: '0.001' }, { type: 'status' });
    j.recordFill({
      fillId: 'f-1',
      refId: 'run-1',
      orderId: 'o-1',
      market: 'BTCUSD',
      side: 'BUY',
      amount: '0.001',
      price: '99900',
      commission: '0.1',
      commissionAsset: 'USD',
      at: 1_700_000_000_100,
    });
    j.recordDecision({
      kind: 'deny',
      at: 1_700_000_000_200,
      intent: {
        kind: 'place-order',
        intentId: 'run-2',
        strategy: 'sma-cross',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '5',
      },
      reason: { code: 'INSUFFICIENT_BALANCE', message: 'x', details: {} },
    });
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

  it('prints fills with --fills', async () => {
    const run = await runCli(['trades', '--journal', journalWithData(), '--fills', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject([{ fillId: 'f-1', price: '99900' }]);
    const table = await runCli(['trades', '--journal', journalWithData(), '--fills']);
    expect(table.stdout).toMatch(/sma-cross\s+run-1\s+BTCUSD\s+BUY\s+0\.00100000\s+99900\.00\s+0\.10 USD/);
  });

  /** Two strategies: grid closes one round trip (a win) and holds a second; dca holds what it bought. */
  function tradedJournal(): string {
    const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-cli-')), 'j.sqlite');
    const j = new Journal(file);
    let at = 1_700_000_000_000;
    const trade = (
      refId: string,
      strategy: string,
      side: 'BUY' | 'SELL',
      amount: string,
      price: string,
      commission: string,
      exitReason?: 'take-profit',
    ): void => {
      at += 60_000;
      j.recordDecision({
        kind: 'approve',
        at,
        intent: {
          kind: 'place-order',
          intentId: refId,
          strategy,
          market: 'BTCUSD',
          side,
          type: 'MARKET',
          baseAmount: amount,
          ...(exitReason && { exitReason }),
        },
      });
      j.update(refId, at, 'done', { venueId: `o-${refId}`, status: 'FILLED', amountFilled: amount }, { type: 'status' });
      j.recordFill({
        fillId: `f-${refId}`,
        refId,
        orderId: `o-${refId}`,
        market: 'BTCUSD',
        side,
        amount,
        price,
        commission,
        commissionAsset: 'USD',
        at,
      });
    };
    trade('g-1', 'grid', 'BUY', '0.5', '33298.01542458', '16.6490077122');
    trade('d-1', 'dca', 'BUY', '0.1', '33000', '3.3');
    trade('g-2', 'grid', 'SELL', '0.5', '35940.123456', '17.970061728', 'take-profit');
    trade('g-3', 'grid', 'BUY', '0.25', '34000', '8.5');
    j.close();
    return file;
  }

  it('lists round trips per strategy with entry, exit, P&L and fees at the asset precision; --json keeps every digit', async () => {
    const file = tradedJournal();
    const table = await runCli(['trades', '--journal', file]);
    expect(table.code, table.stderr).toBe(0);
    // grid: spent 16649.00771229 + 16.6490077122, received 17970.061728 - 17.970061728
    expect(table.stdout).toMatch(
      /grid\s+BTCUSD\s+2023-11-14T22:14:20Z\s+2023-11-14T22:16:20Z\s+0\.50000000\s+33298\.02\s+35940\.12\s+1286\.43\s+34\.62\s+2\s+take-profit/,
    );
    expect(table.stdout).toMatch(
      /grid\s+BTCUSD\s+\S+\s+open \(0\.25000000 held\)\s+0\.25000000\s+34000\.00\s+-\s+0\.00 realized\s+8\.50\s+1/,
    );
    expect(table.stdout).toMatch(/dca\s+BTCUSD\s+\S+\s+open \(0\.10000000 held\)/);
    expect(table.stdout).toMatch(/^grid: 1 closed round trip\(s\), 1 won; P&L 1286\.43 USD, fees 34\.62 USD$/m);
    for (const line of table.stdout.split('\n')) expect(line).not.toMatch(/\d\.\d{9,}/);
    const json = JSON.parse((await runCli(['trades', '--journal', file, '--json', '--strategy', 'grid'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(json).toHaveLength(2);
    expect(json[0]).toMatchObject({
      strategy: 'grid',
      entryPrice: '33298.01542458',
      exitPrice: '35940.123456',
      pnl: '1286.4349462698',
      fees: '34.6190694402',
      exitReason: 'take-profit',
    });
  });

  it("shows each strategy's position and P&L", async () => {
    const file = tradedJournal();
    const table = await runCli(['positions', '--journal', file]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/grid\s+BTCUSD\s+0\.25000000 BTC\s+34034\.00\s+8508\.50 USD\s+1286\.43 USD\s+43\.12 USD\s+1\s+1/);
    expect(table.stdout).toMatch(/dca\s+BTCUSD\s+0\.10000000 BTC\s+33033\.00\s+3303\.30 USD\s+0\.00 USD\s+3\.30 USD\s+0\s+0/);
    const json = JSON.parse((await runCli(['positions', '--journal', file, '--json', '--strategy', 'dca'])).stdout) as unknown;
    expect(json).toEqual([
      expect.objectContaining({
        strategy: 'dca',
        market: 'BTCUSD',
        position: '0.1',
        averageCost: '33033',
        costBasis: '3303.3',
        realizedPnl: '0',
      }),
    ]);
  });

  it("reads positions from the writer's snapshot and the fills after it, the same as from every fill, and writes nothing", async () => {
    const file = tradedJournal();
    const writer = new Journal(file);
    writer.checkpoint(); // the snapshot of the four fills
    writer.recordDecision({
      kind: 'approve',
      at: 1_700_000_400_000,
      intent: { kind: 'place-order', intentId: 'g-4', strategy: 'grid', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.1' },
    });
    writer.recordFill({
      fillId: 'f-g-4',
      refId: 'g-4',
      orderId: 'o-g-4',
      market: 'BTCUSD',
      side: 'SELL',
      amount: '0.1',
      price: '34500.5',
      commission: '3.45005',
      commissionAsset: 'USD',
      at: 1_700_000_400_000,
    });
    const snapshot = writer.getMeta(POSITIONS_SNAPSHOT_KEY);
    writer.close();
    expect(snapshot).toBeDefined();
    const reader = new Journal(file, { readonly: true });
    expect(reader.positionState()).toMatchObject({ fromSnapshot: true, applied: 1 });
    const full = positionsFromFills(reader.strategyFills());
    reader.close();
    const json = await runCli(['positions', '--journal', file, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout.trim()).toBe(JSON.stringify(full));
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ strategy: 'grid', position: '0.15', roundTrips: 1, wins: 1 }),
      expect.objectContaining({ strategy: 'dca', position: '0.1' }),
    ]);
    const after = new Journal(file, { readonly: true });
    expect(after.getMeta(POSITIONS_SNAPSHOT_KEY)).toBe(snapshot);
    after.close();
    // a file that is not a journal is refused, not made into one
    const other = join(mkdtempSync(join(tmpdir(), 'tradeloop-cli-')), 'other.sqlite');
    writeFileSync(other, '');
    const refused = await runCli(['positions', '--journal', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot be read as a tradeloop journal/);
  });

  it('finds the journal through --config (journal.path), saying which', async () => {
    const file = tradedJournal();
    const config = join(mkdtempSync(join(tmpdir(), 'tradeloop-cfg-')), 'bot.yaml');
    writeFileSync(config, `journal:\n  path: ${file}\n`);
    for (const cmd of ['orders', 'trades', 'positions']) {
      const r = await runCli([cmd, '--config', config, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`journal: ${file} (journal.path in ${config})`);
      expect(JSON.parse(r.stdout)).not.toHaveLength(0);
    }
    const missing = join(mkdtempSync(join(tmpdir(), 'tradeloop-cfg-')), 'none.yaml');
    writeFileSync(missing, 'journal:\n  path: /nonexistent/j.sqlite\n');
    const r = await runCli(['trades', '--config', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/journal \/nonexistent\/j\.sqlite \(journal\.path in .*none\.yaml\) does not exist/);
  });

  it('explains a missing journal and bad flags with exit code 2', async () => {
    expect((await runCli(['orders', '--journal', '/nonexistent/j.sqlite'])).stderr).toMatch(/does not exist/);
    const bad = await runCli(['orders', '--journal', journalWithData(), '--limit', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit must be a positive integer/);
  });
});
