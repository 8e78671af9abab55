/**
 * `tradeloop backtest` on an OHLCV file fills inside the bars (src/fills/point/bar-range.ts): every
 * market order decided at a bar's close fills at the next bar's open, never its close; a position
 * helper's stop-loss fires on a bar's low and fills at its level inside that bar; of a stop-loss and a
 * take-profit in one bar, `--intrabar` says which came first; the assumptions say which rule applied.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIP_BARS } from '../support/dip-bars.js';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-intrabar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 300 hourly rows whose opens are never their previous close, so an open fill and a close fill differ. */
function writeOhlcv(file: string): Map<string, { open: string; close: string }> {
  const rows = ['timestamp,open,high,low,close,volume'];
  const byTime = new Map<string, { open: string; close: string }>();
  let previous = 100;
  for (let i = 0; i < 300; i++) {
    const t = Date.UTC(2024, 0, 1) + i * 3_600_000;
    const open = previous + 0.7 * Math.sin(i / 3) + 0.3;
    const close = 100 + 10 * Math.sin(i / 15) + Math.sin(i / 2);
    rows.push(
      [t, open.toFixed(2), (Math.max(open, close) + 1).toFixed(2), (Math.min(open, close) - 1).toFixed(2), close.toFixed(2), 1].join(','),
    );
    byTime.set(new Date(t).toISOString().replace('.000Z', 'Z'), { open: open.toFixed(2), close: close.toFixed(2) });
    previous = close;
  }
  writeFileSync(file, `${rows.join('\n')}\n`);
  return byTime;
}

describe('backtest on OHLCV rows: fills inside the bars', () => {
  it("fills every market order at the next bar's open, and says so in the assumptions", async () => {
    const rows = writeOhlcv(join(dir, 'btc.csv'));
    const r = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      join(dir, 'btc.csv'),
      '--params',
      'fast=3,slow=8',
      '--out',
      join(dir, 'out'),
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain("Each row is a bar: an order made at a bar's close fills at the next bar's open");
    const [header, ...trades] = readFileSync(join(dir, 'out', 'trades.csv'), 'utf8')
      .trim()
      .split('\n');
    const col = header!.split(',');
    expect(trades.length).toBeGreaterThan(5);
    for (const line of trades) {
      const t = Object.fromEntries(line.split(',').map((v, i) => [col[i], v]));
      const entry = rows.get(t.entry_time!)!;
      const exit = rows.get(t.exit_time!)!;
      expect([Number(t.entry_price), Number(t.exit_price)]).toEqual([Number(entry.open), Number(exit.open)]);
      expect(entry.open).not.toBe(entry.close);
    }
  });

  /**
   * Hand-made hourly bars: a cross of the 2- and 3-bar averages at bar 5's close buys at bar 6's open
   * (103); bar 7 goes down to 95 and up to 104 and closes at 103.8, above every level.
   */
  function writeDip(file: string): void {
    const bars = DIP_BARS;
    const t0 = Date.UTC(2024, 0, 1);
    writeFileSync(
      file,
      ['timestamp,open,high,low,close,volume', ...bars.map((b, i) => [t0 + i * 3_600_000, ...b, 1].join(','))].join('\n') + '\n',
    );
  }

  const tradesOf = (out: string) => {
    const [header, ...lines] = readFileSync(join(out, 'trades.csv'), 'utf8').trim().split('\n');
    const col = header!.split(',');
    return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [col[i], v])));
  };

  it('fills a stop-loss inside the bar whose low went through it, at its level (a close-only replay held on)', async () => {
    writeDip(join(dir, 'dip.csv'));
    const out = join(dir, 'dip-out');
    const r = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      join(dir, 'dip.csv'),
      '--params',
      'fast=2,slow=3,stop_loss_pct=5',
      '--out',
      out,
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain("a position helper's stop-loss and trailing stop are checked on a bar's low");
    // 5 % below the entry at 103 is 97.85, reached by bar 7's low (95); that bar closed at 103.8
    expect(tradesOf(out).map((t) => [t.entry_time, t.entry_price, t.exit_time, t.exit_price, t.exit_reason])).toEqual([
      ['2024-01-01T06:00:00Z', '103', '2024-01-01T07:00:00Z', '97.85', 'stop-loss'],
    ]);
  });

  it('takes the stop-loss when one bar reaches both levels, the take-profit with --intrabar favorable, and says which rule applied', async () => {
    writeDip(join(dir, 'both.csv'));
    const run = async (rule: string[]) => {
      const out = join(dir, `both-${rule.join('') || 'default'}`);
      const r = await runCli([
        'backtest',
        '--strategy',
        'sma-cross',
        '--data',
        join(dir, 'both.csv'),
        '--params',
        'fast=2,slow=3,stop_loss_pct=5,take_profit_pct=0.9',
        '--out',
        out,
        '--json',
        ...rule,
      ]);
      expect([r.code, r.stderr]).toEqual([0, '']);
      const manifest = (JSON.parse(r.stdout) as { manifest: Record<string, unknown> }).manifest;
      return { trips: tradesOf(out).map((t) => [t.exit_time, t.exit_price, t.exit_reason]), manifest: JSON.stringify(manifest) };
    };
    // 0.9 % above 103 is 103.927, under bar 7's high (104): both levels are in that bar
    const adverse = await run([]);
    expect(adverse.trips).toEqual([['2024-01-01T07:00:00Z', '97.85', 'stop-loss']]);
    expect(adverse.manifest).toContain('the low is taken as reached before the high');
    const favorable = await run(['--intrabar', 'favorable']);
    expect(favorable.trips).toEqual([['2024-01-01T07:00:00Z', '103.927', 'take-profit']]);
    expect(favorable.manifest).toContain('the high is taken as reached before the low');
    // bar 7 opened at 103.5: 0.5 from its high, 8.5 from its low
    expect((await run(['--intrabar', 'open-nearest'])).trips).toEqual([['2024-01-01T07:00:00Z', '103.927', 'take-profit']]);
  });

  it('optimize and a portfolio backtest fill inside the bars as backtest does', async () => {
    writeDip(join(dir, 'opt.csv'));
    const single = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      join(dir, 'opt.csv'),
      '--params',
      'fast=2,slow=3,stop_loss_pct=5',
      '--json',
    ]);
    expect([single.code, single.stderr]).toEqual([0, '']);
    const equity = (JSON.parse(single.stdout) as { final_equity: number }).final_equity;
    // 10,000 less the loss from 103 to 97.85 on 96.99 BTC and the fees: the stop inside bar 7
    expect(equity).toBeCloseTo(9481, 6);
    const opt = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      join(dir, 'opt.csv'),
      '--params',
      'fast=2,slow=3',
      '--grid',
      'stop_loss_pct=5|50',
      '--workers',
      '1',
      '--metric',
      'return',
      '--json',
    ]);
    expect(opt.code, opt.stderr).toBe(0);
    const rows = (JSON.parse(opt.stdout) as { rows: Array<{ params: { stop_loss_pct: number }; metrics: { final_equity: number } }> }).rows;
    expect(rows.find((r) => r.params.stop_loss_pct === 5)!.metrics.final_equity).toBe(equity);
    writeFileSync(
      join(dir, 'opt.yaml'),
      'strategies:\n  - plugin: sma-cross\n    params: { market: BTCUSD, fast: 2, slow: 3, stop_loss_pct: 5 }\n',
    );
    const portfolio = await runCli(['backtest', '--config', join(dir, 'opt.yaml'), '--data', join(dir, 'opt.csv'), '--json']);
    expect(portfolio.code, portfolio.stderr).toBe(0);
    const p = JSON.parse(portfolio.stdout) as { total: { final_equity: number }; manifest: Record<string, unknown> };
    expect(p.total.final_equity).toBeCloseTo(equity, 6);
    expect(JSON.stringify(p.manifest)).toContain('the low is taken as reached before the high');
  });

  it('refuses an unknown --intrabar rule, and the flag on data without bars, naming it', async () => {
    writeDip(join(dir, 'rule.csv'));
    const bad = await runCli(['backtest', '--strategy', 'sma-cross', '--data', join(dir, 'rule.csv'), '--intrabar', 'best']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--intrabar');
    expect(bad.stderr).toContain('adverse, open-nearest, favorable');
    writeFileSync(join(dir, 'closes.csv'), 'timestamp,price\n1704067200000,100\n1704070800000,101\n1704074400000,102\n');
    const flat = await runCli(['backtest', '--strategy', 'sma-cross', '--data', join(dir, 'closes.csv'), '--intrabar', 'favorable']);
    expect(flat.code).not.toBe(0);
    expect(flat.stderr).toContain('--intrabar');
    expect(flat.stderr).toContain('prices only');
  });
});
