/**
 * What a new user met in their first hour with backtest and optimize (issue 21 items 1, 2, 9, 10 and
 * issue 19's --price-column), through the CLI as they ran it: a held position grown past
 * max_order_notional can still be sold, money shows at its asset's precision, optimize marks failed
 * combinations and takes --market, a run shorter than the warm-up says no decision was possible, and
 * a CSV with extra price columns loads with --price-column.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachePaths } from '../../backtest/history-cache.js';
import { shownDecimals } from '../../src/core/index.js';
import { runCli } from '../cli/cli-helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-first-hour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');

const T0 = Date.UTC(2024, 0, 1);
function csvOf(name: string, prices: readonly number[], header = 'timestamp,price', row = (t: number, p: number) => `${t},${p}`): string {
  const file = join(dir, name);
  writeFileSync(file, `${header}\n${prices.map((p, i) => row(T0 + i * 3_600_000, p)).join('\n')}\n`);
  return file;
}

/** A seeded random walk, rounded to cents, for optimize. */
function walk(n: number): number[] {
  let s = 7;
  let p = 100;
  return Array.from({ length: n }, () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    p *= 1 + (s / 2 ** 31 - 0.5) * 0.04;
    return Math.round(p * 100) / 100;
  });
}

describe('item 1: the risk gate never traps a position', () => {
  // sma-cross fast 2 slow 3 buys about 20,000 USD at 15 (1,332 BTC); the price runs to 40 and the cross
  // down sells the whole holding near 24: about 32,000 USD, over max_order_notional 25,000
  const prices = [10, 10, 10, 12, 15, 20, 30, 40, 30, 25, 24, 23];
  const csv = csvOf('grows.csv', prices);
  const config = join(dir, 'risk.yaml');
  writeFileSync(config, 'risk:\n  max_order_notional: "25000"\n');

  it('sells a held position worth more than max_order_notional in one order', async () => {
    const r = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--params',
      'fast=2,slow=3',
      '--initial',
      'USD=20000',
      '--config',
      config,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.decisions).toEqual({ approve: 2 });
    expect(j.denials).toEqual({});
    expect(j.trades).toBe(1);
    expect(j.final_equity).toBeGreaterThan(25_000); // the sale's notional was above the limit
  });

  it('still denies a buy above max_order_notional', async () => {
    const r = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--params',
      'fast=2,slow=3',
      '--initial',
      'USD=30000',
      '--config',
      config,
      '--json',
    ]);
    const j = JSON.parse(r.stdout);
    expect(j.denials.MAX_NOTIONAL.count).toBeGreaterThan(0);
    expect(j.trades).toBe(0);
  });
});

describe('item 2: backtest money at the asset precision', () => {
  it('prints equity and fees with 2 decimals and the HTML trades at the asset and tick precision; CSV keeps every digit', async () => {
    const csv = csvOf('odd.csv', [10, 10, 10, 12.37, 15.13, 11.07, 8.01, 8.03, 9.11]);
    const out = join(dir, 'odd-out');
    const r = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--params',
      'fast=2,slow=3',
      '--slippage-bps',
      '7',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const fees = /Fees paid\s+(\S+)/.exec(r.stdout)![1]!;
    const equity = /Final equity\s+(\S+)/.exec(r.stdout)![1]!;
    expect(shownDecimals(fees)).toBe(2);
    expect(shownDecimals(equity)).toBe(2);
    const trades = readFileSync(join(out, 'trades.csv'), 'utf8').trim().split('\n')[1]!.split(',');
    expect(shownDecimals(trades[8]!)).toBeGreaterThan(2); // the fees, exact, in the CSV
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const row = /<table class="trades">[\s\S]*?<tbody>\n<tr>(.*?)<\/tr>/.exec(html)![1]!;
    const cells = [...row.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]!);
    // side, entry, exit, quantity (BTC 8), entry price, exit price (tick 0.01), pnl, fees (USD 2)
    expect(cells.slice(3).map(shownDecimals)).toEqual([8, 2, 2, 2, 2]);
  });
});

describe('item 9: optimize', () => {
  const csv = csvOf('walk.csv', walk(300));

  it('shows each column once, lists failed combinations below the ranked rows with the reason', async () => {
    const r = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--grid',
      'fast=4..8:4,slow=8|20',
      '--metric',
      'return',
      '--workers',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['rank', 'fast', 'slow', 'return_pct', 'max_drawdown_pct', 'trades']);
    const failedAt = lines.findIndex((l) => l.startsWith('failed: 1 of 4 combinations'));
    const ranked = (l: string): boolean => /^\d+\s{2,}\d/.test(l); // table rows, not the closing line
    const lastRanked = lines.findLastIndex(ranked);
    expect(failedAt).toBeGreaterThan(lastRanked);
    expect(lines[failedAt + 1]).toMatch(/^ {2}fast=8,slow=8 {2}failed: .*fast must be smaller than slow/);
    expect(lines.filter(ranked)).toHaveLength(3);
    const j = JSON.parse(
      (
        await runCli([
          'optimize',
          '--strategy',
          'sma-cross',
          '--data',
          csv,
          '--grid',
          'fast=4..8:4,slow=8|20',
          '--metric',
          'return',
          '--workers',
          '2',
          '--json',
        ])
      ).stdout,
    );
    expect(j.failed).toBe(1);
    expect(j.rows.map((x: { rank: number | null }) => x.rank)).toEqual([1, 2, 3, null]);
    expect(j.rows[3]).toMatchObject({ failed: true, params: { fast: 8, slow: 8 } });
  });

  it('with --walk-forward shows the metric, return, drawdown and trades in and out of sample', async () => {
    const r = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--grid',
      'fast=3|5,slow=10|30',
      '--metric',
      'sharpe',
      '--workers',
      '2',
      '--walk-forward',
      '2',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]!.split(/\s{2,}/)).toEqual([
      'rank',
      'fast',
      'slow',
      'sharpe in',
      'sharpe out',
      'return_pct in',
      'return_pct out',
      'max_drawdown_pct in',
      'max_drawdown_pct out',
      'trades in',
      'trades out',
    ]);
    expect(r.stdout).toMatch(/^fold 2: chose fast=\d,slow=\d+ .*out of sample sharpe .*, return .* %, drawdown .* %, \d+ trades$/m);
  });

  it('takes --market (the history cache) as backtest does', async () => {
    const cacheDir = join(dir, 'history');
    mkdirSync(cacheDir, { recursive: true });
    const { csv: cached } = cachePaths(cacheDir, { market: 'BTCUSD', increment: 'ONE_HOUR' });
    writeFileSync(cached, readFileSync(csv, 'utf8'));
    const r = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--market',
      'BTCUSD',
      '--data-dir',
      cacheDir,
      '--grid',
      'fast=3|5,slow=10',
      '--workers',
      '1',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ points: 300, combinations: 2, failed: 0 });
    const missing = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--market',
      'ETHUSD',
      '--data-dir',
      cacheDir,
      '--grid',
      'fast=3,slow=10',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no cached prices for ETHUSD.*history fetch/);
  });

  it('exits 1 when every combination failed, naming the reason', { timeout: 60_000 }, async () => {
    const plugin = join(dir, 'always-throws.ts');
    writeFileSync(
      plugin,
      `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};
export default defineStrategy({
  name: 'always-throws', description: 'throws on every price', params: z.object({ k: z.number().default(1) }), markets: ['BTCUSD'],
  create: () => ({ onEvent() { throw new Error('no model'); } }),
});
`,
    );
    const r = await runCli(['optimize', '--strategy', plugin, '--data', csv, '--grid', 'k=1|2', '--workers', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/failed: 2 of 2 combinations/);
    expect(r.stdout).toMatch(/k=1 {2}failed: strategy always-throws stopped in onEvent: no model/);
    expect(r.stderr).toMatch(/every combination failed \(2 of 2\)/);
  });
});

describe('item 10: a backtest shorter than the warm-up', () => {
  it('says that no decision was possible and why, in the summary and in --json', async () => {
    const csv = csvOf('two.csv', [100, 101]);
    const r = await runCli(['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'slow=30']);
    expect(r.code).toBe(0);
    const [title, warning] = r.stdout.split('\n');
    expect(title).toMatch(/^sma-cross on BTCUSD/);
    expect(warning).toMatch(
      /^warning: no decision was possible: the 2 points replayed are not enough for the warm-up of sma-cross \(it needs 31 points before its first decision\)/,
    );
    const out = join(dir, 'two-out');
    const j = await runCli(['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'slow=30', '--json', '--out', out]);
    expect(JSON.parse(j.stdout).warnings).toEqual([expect.stringMatching(/no decision was possible/)]);
    expect(j.stderr).toMatch(/warning: no decision was possible/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(
      /<p class="warn" role="alert">no decision was possible: the 2 points replayed/,
    );
  });

  it('warns of nothing when the strategy decided', async () => {
    const csv = csvOf('nine.csv', [10, 10, 10, 12, 15, 11, 8, 8, 9]);
    const r = await runCli(['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'fast=2,slow=3', '--json']);
    expect(JSON.parse(r.stdout).warnings).toEqual([]);
    expect(r.stderr).toBe('');
  });
});

describe('issue 19: --price-column', () => {
  const ohlcv = (extra: string) =>
    csvOf(
      `ohlcv-${extra}.csv`,
      walk(60),
      `timestamp,open,high,low,close,volume,${extra}`,
      (t, p) => `${t},${p},${(p * 1.01).toFixed(2)},${(p * 0.99).toFixed(2)},${p},3,${(p * 1.002).toFixed(2)}`,
    );

  it('refuses a CSV with several price columns, naming --price-column as the fix', async () => {
    for (const extra of ['average_price', 'vwap']) {
      const r = await runCli(['backtest', '--strategy', 'sma-cross', '--data', ohlcv(extra)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `line 1: more than one column could be the price \\(close, ${extra}\\): name the one to replay with --price-column close`,
        ),
      );
    }
  });

  it('loads the named column for backtest and optimize, and names the columns when it is not there', async () => {
    const file = ohlcv('vwap');
    const close = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      file,
      '--price-column',
      'close',
      '--params',
      'fast=3,slow=10',
      '--json',
    ]);
    expect(close.code, close.stderr).toBe(0);
    const plain = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      csvOf('plain.csv', walk(60)),
      '--params',
      'fast=3,slow=10',
      '--json',
    ]);
    // the manifest names each run's own file; everything else must agree
    const strip = (s: string) => {
      const { elapsed_ms: _e, load_ms: _l, ...rest } = JSON.parse(s);
      delete rest.manifest.data.source;
      return rest;
    };
    expect(strip(close.stdout)).toEqual(strip(plain.stdout)); // the close column is the walk itself
    const vwap = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      file,
      '--price-column',
      'VWAP',
      '--params',
      'fast=3,slow=10',
      '--json',
    ]);
    expect(JSON.parse(vwap.stdout).final_equity).not.toBe(JSON.parse(close.stdout).final_equity);
    const opt = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      file,
      '--price-column',
      'close',
      '--grid',
      'fast=3,slow=10',
      '--workers',
      '1',
      '--json',
    ]);
    expect(JSON.parse(opt.stdout)).toMatchObject({ points: 60, failed: 0 });
    const missing = await runCli(['backtest', '--strategy', 'sma-cross', '--data', file, '--price-column', 'mid']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /--price-column: .* has no column "mid"; its columns are timestamp, open, high, low, close, volume, vwap/,
    );
  });

  it('reports a bad row of the named column at its line in the file', async () => {
    const file = join(dir, 'bad-row.csv');
    writeFileSync(file, `timestamp,close,vwap\n${T0},10,10\n${T0 + 3_600_000},-1,10\n`);
    const r = await runCli(['backtest', '--strategy', 'sma-cross', '--data', file, '--price-column', 'close']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 3: close -1 is not positive/);
  });
});
