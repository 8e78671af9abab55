/**
 * `tradeloop backtest`, `optimize` and `history fetch` in-process: JSON output with the issue's
 * fields, the report files, exit code 2 with the flag or data line named, and a resumable fetch of
 * every page from the local sandbox on 127.0.0.1 port 0.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-backtest-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csv = join(dir, 'prices.csv');
const prices = [10, 10, 10, 12, 15, 11, 8, 8, 9];
writeFileSync(csv, `timestamp,price\n${prices.map((p, i) => `${Date.UTC(2024, 0, 1) + i * 3_600_000},${p}`).join('\n')}\n`);

describe('tradeloop backtest', () => {
  it('prints one JSON line with the issue fields and writes the report files', async () => {
    const out = join(dir, 'out');
    const r = await runCli(['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'fast=2,slow=3', '--json', '--out', out]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const j = JSON.parse(lines[0]!);
    expect(j).toMatchObject({ points: 9, trades: 1, final_equity: 5322.67, fees: 15.328, max_drawdown_pct: expect.closeTo(46.7733, 6) });
    expect(j.return_pct).toBeCloseTo(-46.7733, 6);
    expect(Number.isInteger(j.points) && Number.isInteger(j.trades)).toBe(true);
    expect(typeof j.elapsed_ms).toBe('number');
    expect(typeof j.load_ms).toBe('number');
    expect('sharpe' in j).toBe(true);
    for (const f of ['trades.csv', 'equity.csv', 'report.html']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'trades.csv'), 'utf8')).toContain(
      'BTCUSD,long,2024-01-01T04:00:00Z,2024-01-01T07:00:00Z,666,15,8,-4677.33,15.328',
    );
  });

  it('prints a summary table without --json', async () => {
    const r = await runCli(['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'fast=2,slow=3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Final equity\s+5322\.67/);
    expect(r.stdout).toMatch(/risk decisions: approve 3/);
  });

  it('exits 2 naming the flag or the data line and the fix', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'timestamp,price\n1704067200000,10\n1704067200000,11\n1704070800000,-3\n');
    const cases: Array<[string[], RegExp]> = [
      [['backtest', '--strategy', 'sma-cross', '--data', bad], /line 3: duplicate timestamp[\s\S]*line 4: .*not positive/],
      [['backtest', '--strategy', 'sma-cross', '--data', csv, '--slippage-bps', '-1'], /--slippage-bps: expected basis points/],
      [['backtest', '--strategy', 'sma-cross', '--data', csv, '--initial', 'USD:100'], /--initial: expected ASSET=AMOUNT/],
      [['backtest', '--strategy', 'sma-cross', '--data', csv, '--params', 'fast=30,slow=3'], /fast must be smaller than slow/],
      [['backtest', '--strategy', 'sma-cross'], /--data: give either --data FILE or --market/],
      [['backtest', '--strategy', 'sma-cross', '--market', 'BTCUSD', '--data-dir', dir], /no cached prices for BTCUSD.*history fetch/],
      [['optimize', '--strategy', 'sma-cross', '--data', csv, '--grid', 'fast=5..1'], /--grid: fast: the range 5..1 runs backwards/],
      [['optimize', '--strategy', 'sma-cross', '--data', csv, '--grid', 'fast=2', '--metric', 'luck'], /--metric: unknown metric "luck"/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('tradeloop optimize', () => {
  it('ranks a grid across workers and prints JSON', async () => {
    const r = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--grid',
      'fast=2|3,slow=4',
      '--metric',
      'return',
      '--workers',
      '2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ strategy: 'sma-cross', metric: 'return', workers: 2, combinations: 2 });
    expect(j.rows.map((x: { rank: number }) => x.rank)).toEqual([1, 2]);
  });
});

describe('tradeloop history fetch', () => {
  it('fetches every page from the local sandbox, resumes a partial fetch, and feeds backtest --market', async () => {
    const clock = new TestClock(Date.UTC(2025, 5, 1));
    const sandbox = await startSandbox({ clock, seed: 5 });
    try {
      const dataDir = join(dir, 'cache');
      const argv = [
        'history',
        'fetch',
        '--market',
        'BTCUSD',
        '--increment',
        'ONE_HOUR',
        '--from',
        '2025-03-01',
        '--to',
        '2025-05-01',
        '--data-dir',
        dataDir,
        '--base-url',
        sandbox.apiUrl,
      ];
      const first = await runCli(argv);
      expect(first.stderr).toMatch(/1464 points of BTCUSD at ONE_HOUR cached/); // 61 days × 24, two pages of 1000
      expect(first.code).toBe(0);
      const file = first.stdout.trim();
      const full = readFileSync(file, 'utf8');
      const rows = full.trim().split('\n');
      expect(rows[0]).toBe('timestamp,price');
      expect(rows).toHaveLength(1465);
      // interrupt after the first page: the second run fetches only what is missing
      writeFileSync(file, `${rows.slice(0, 1001).join('\n')}\n`);
      const state = join(dataDir, 'BTCUSD-ONE_HOUR.state.json');
      writeFileSync(state, JSON.stringify({ ...JSON.parse(readFileSync(state, 'utf8')), fetched: 1000, complete: false }));
      const second = await runCli(argv);
      expect(second.stderr).toMatch(/resuming at point 1000 of 1464/);
      expect(readFileSync(file, 'utf8')).toBe(full);
      const bt = await runCli([
        'backtest',
        '--strategy',
        'sma-cross',
        '--market',
        'BTCUSD',
        '--from',
        '2025-04-01',
        '--data-dir',
        dataDir,
        '--json',
      ]);
      expect(bt.code, bt.stderr).toBe(0);
      expect(JSON.parse(bt.stdout).points).toBe(30 * 24); // April: the hourly points from 04-01T00:00 to 04-30T23:00
    } finally {
      await sandbox.close();
    }
  });
});
