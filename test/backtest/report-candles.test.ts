/**
 * Candles and plotted series in report.html: a bar strategy's run keeps the bars of its shortest
 * declared timeframe and every point it plotted; the page embeds the candles (merged into fewer for a
 * long run, the highs and lows kept) and the series, in the price pane or a pane of their own.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BacktestRun } from '../../backtest/run.js';
import type { ReportChartData } from '../../backtest/report/html.js';
import donchian from '../../strategies/donchian-breakout.js';
import rsiReversion from '../../strategies/rsi-reversion.js';
import { runCli } from '../cli/cli-helpers.js';
import { hourly, runOn as run, writeHourly, writeRunReport } from './candle-kit.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function chartDataOf(file: string): ReportChartData {
  const html = readFileSync(file, 'utf8');
  return JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!) as ReportChartData;
}

/** Writes the run's report and returns the chart data embedded in it. */
function reportOf(r: BacktestRun, strategy: string, maxChartPoints?: number): ReportChartData {
  const out = mkdtempSync(join(tmpdir(), 'tradeloop-report-candles-'));
  dirs.push(out);
  return chartDataOf(writeRunReport(out, r, strategy, maxChartPoints));
}

describe('candles and plotted series in the backtest report', () => {
  it("holds a bar strategy's 1h candles as the file's rows (each at its start) and its channels over them", async () => {
    const series = hourly(300, 3);
    const r = await run(donchian, series);
    expect(r.candles?.map((c) => [c.market, c.timeframe, c.time.length])).toEqual([['BTCUSD', '1h', 299]]); // the last row never closes
    const chart = reportOf(r, 'donchian-breakout');
    const c = chart.price.candles!;
    expect([c.timeframe, c.spacing, c.t.length]).toEqual(['1h', 3600, 299]);
    for (const i of [0, 17, 298]) {
      expect([c.t[i], c.o[i], c.h[i], c.l[i], c.c[i]]).toEqual([
        series.times[i]! / 1000,
        series.opens![i],
        series.highs![i],
        series.lows![i],
        series.prices[i],
      ]);
    }
    expect(chart.price.lines!.map((l) => [l.label, l.color, l.t.length])).toEqual([
      ['upper', '#27ae60', 299],
      ['lower', '#c0392b', 299],
    ]);
    // a channel is drawn at the close of the bar it was computed at, a gap until enough bars closed
    expect(chart.price.lines![0]!.v.slice(0, 20).every((v) => v === null)).toBe(true);
    expect(chart.price.lines![0]!.v[20]).toBe(Math.max(...series.highs!.slice(0, 20)));
    expect(chart.own).toBeUndefined();
    expect(r.fills.length).toBeGreaterThan(0);
  });

  it('merges neighbouring candles for a long run, keeping the highest high and lowest low of each run', async () => {
    const series = hourly(1_000, 4);
    const r = await run(donchian, series);
    const c = reportOf(r, 'donchian-breakout', 100).price.candles!;
    // 999 closed bars in runs of 10: 100 candles 10 hours wide
    expect([c.t.length, c.spacing]).toEqual([100, 36_000]);
    expect([c.o[3], c.h[3], c.l[3], c.c[3]]).toEqual([
      series.opens![30],
      Math.max(...series.highs!.slice(30, 40)),
      Math.min(...series.lows!.slice(30, 40)),
      series.prices[39],
    ]);
  });

  it("draws a point strategy's price line without candles, and its RSI in a pane of its own", async () => {
    const r = await run(rsiReversion, hourly(200, 5));
    expect(r.candles).toBeUndefined();
    const chart = reportOf(r, 'rsi-reversion');
    expect(chart.price.candles).toBeUndefined();
    expect(chart.price.lines).toEqual([]);
    expect(chart.own!.map((l) => [l.label, l.color, l.t.length])).toEqual([['rsi', '#2980b9', 200 - 14]]);
    expect(chart.own![0]!.v.every((v) => v !== null && v >= 0 && v <= 100)).toBe(true);
  });

  it('is what `backtest --out` writes for a bar strategy on an OHLCV file: candles of its 1h bars, with their highs and lows, and its channels', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-report-candles-cli-'));
    dirs.push(dir);
    writeHourly(join(dir, 'btc.csv'), 200, 6);
    const bt = await runCli(['backtest', '--strategy', 'donchian-breakout', '--data', join(dir, 'btc.csv'), '--out', join(dir, 'out')]);
    expect([bt.code, bt.stderr]).toEqual([0, '']);
    const chart = chartDataOf(join(dir, 'out', 'report.html'));
    expect([chart.price.candles?.timeframe, chart.price.candles?.t.length]).toEqual(['1h', 199]);
    // the candles are the file's rows, highs and lows included (not flat bars of the closes)
    const c = chart.price.candles!;
    const rows = hourly(200, 6);
    for (const i of [0, 99, 198])
      expect([c.o[i], c.h[i], c.l[i], c.c[i]]).toEqual([rows.opens![i], rows.highs![i], rows.lows![i], rows.prices[i]]);
    expect(chart.price.lines?.map((l) => l.label)).toEqual(['upper', 'lower']);
  });
});
