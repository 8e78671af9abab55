/**
 * `tradeloop backtest` on an OHLCV file fills inside the bars (src/fills/point/bar-range.ts): every
 * market order decided at a bar's close fills at the next bar's open, never its close, and the
 * assumptions say which rule applied.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
});
