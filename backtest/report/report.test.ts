import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleRun } from '../../test/backtest/sample-run.js';
import { escapeHtml, jsonForScript, type ReportChartData } from './html.js';
import { Rng } from '../../src/core/index.js';
import { duration, isoFormatter, loadChartAssets, writeBacktestReport } from './report.js';
import { buildManifest } from '../assumptions.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/limits.js';
import { monteCarlo } from '../robustness/robustness.js';
import type { RobustnessCharts } from '../robustness/html.js';
import { parseGrid } from '../optimize/grid.js';
import { optimizeRobustness, writeOptimizeReport } from '../robustness/optimize.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function chartsOf(html: string): ReportChartData {
  const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json!) as ReportChartData;
}

describe('writeBacktestReport', () => {
  const run = sampleRun(1000);
  const files = writeBacktestReport(join(dir, 'small'), run);
  const html = readFileSync(files.html, 'utf8');

  it('writes every round trip to trades.csv with its money strings unchanged', () => {
    const rows = readFileSync(files.trades, 'utf8').trimEnd().split('\n');
    expect(rows[0]).toBe('market,side,entry_time,exit_time,quantity,entry_price,exit_price,pnl,fees,exit_reason');
    expect(rows).toHaveLength(run.trades.length + 1);
    const t = run.trades[0]!;
    expect(rows[1]).toBe(
      [
        'BTCUSD',
        'long',
        new Date(t.entryAt).toISOString().replace('.000Z', 'Z'),
        new Date(t.exitAt).toISOString().replace('.000Z', 'Z'),
        t.quantity,
        t.entryPrice,
        t.exitPrice,
        t.pnl,
        t.fees,
        '',
      ].join(','),
    );
  });

  it('writes every point to equity.csv with buy-and-hold and drawdown', () => {
    const rows = readFileSync(files.equity, 'utf8').trimEnd().split('\n');
    expect(rows).toHaveLength(1001);
    expect(rows[0]).toBe('timestamp,price,equity,buy_hold_equity,drawdown_pct');
    expect(rows[1]).toBe(`2024-01-01T00:00:00Z,${run.prices[0]},10000.00,10000.00,0.0000`);
    const last = rows[1000]!.split(',');
    expect(Number(last[3])).toBeCloseTo((10_000 * run.prices[999]!) / run.prices[0]!, 2);
  });

  it('inlines uPlot and loads nothing from outside the page', () => {
    const assets = loadChartAssets();
    expect(html).toContain(assets.js.slice(0, 200));
    expect(html).toContain(assets.css.slice(0, 200));
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|@import/i);
    expect(html).toContain("default-src 'none'");
  });

  it('shows the metrics and assumptions', () => {
    expect(html).toContain(`<th scope="row">Total return</th><td>${run.metrics.totalReturnPct.toFixed(2)} %</td>`);
    expect(html).toContain('<th scope="row">Fee</th><td>10 bps (0.10 % of traded notional)</td>');
    expect(html).toContain('<th scope="row">Strategy parameters</th><td>fast=10, slow=30</td>');
    expect(html).toContain('An order made at point t fills at the price of point t+1');
  });

  it('escapes every outside string put into the page', () => {
    const evil = '<script>alert("x")</script>&\'';
    const out = writeBacktestReport(join(dir, 'evil'), {
      ...run,
      strategy: evil,
      market: evil,
      source: evil,
      params: { [evil]: evil },
      assumptions: { ...run.assumptions, initial: evil, fillRule: evil, extra: [[evil, evil]] },
      trades: run.trades.map((t) => ({ ...t, quantity: evil })),
    });
    const page = readFileSync(out.html, 'utf8');
    expect(page).not.toContain('<script>alert');
    expect(page).toContain(escapeHtml(evil));
  });

  it('quotes CSV text fields that hold commas or quotes', () => {
    const out = writeBacktestReport(join(dir, 'csv'), { ...run, trades: [{ ...run.trades[0]!, market: 'BTC,"USD"' }] });
    expect(readFileSync(out.trades, 'utf8').split('\n')[1]).toMatch(/^"BTC,""USD""",long,/);
  });

  it('downsamples a large run to a few thousand points per chart, keeping spikes', () => {
    const big = sampleRun(200_000, 5);
    const prices = big.prices.slice();
    prices[123_457] = prices[123_457]! * 3;
    const page = readFileSync(writeBacktestReport(join(dir, 'big'), { ...big, prices }).html, 'utf8');
    const charts = chartsOf(page);
    expect(charts.price.t.length).toBeLessThanOrEqual(4002);
    expect(charts.equity.t.length).toBeLessThanOrEqual(4002);
    expect(charts.drawdown.dd.length).toBeLessThanOrEqual(4002);
    expect(Math.max(...charts.price.price)).toBe(prices[123_457]);
    expect(Math.min(...charts.drawdown.dd)).toBeCloseTo(-big.metrics.maxDrawdownPct, 3);
    expect(page.length).toBeLessThan(1_000_000);
  });

  it('marks each round trip entry and exit when no fills are given', () => {
    const charts = chartsOf(readFileSync(writeBacktestReport(join(dir, 'derived'), { ...run, fills: undefined }).html, 'utf8'));
    expect(charts.price.buys).toHaveLength(run.trades.length);
    expect(charts.price.sells).toHaveLength(run.trades.length);
    expect(charts.price.buys[0]).toEqual([run.trades[0]!.entryAt / 1000, Number(run.trades[0]!.entryPrice)]);
  });
});

describe('the report with its manifest and robustness sections', () => {
  const run = sampleRun(2000, 4);
  const manifest = buildManifest({
    feeBps: 10,
    slippageBps: 3,
    source: 'sample.csv',
    times: run.times,
    params: { fast: 10, slow: 30 },
    initial: { USD: '10000' },
    limits: DEFAULT_RISK_LIMITS,
  });
  const m = run.metrics;
  const mc = monteCarlo(
    { initialEquity: m.initialEquity, tradePnls: run.trades.map((t) => t.pnl), equity: run.equity, startAt: m.startAt, endAt: m.endAt },
    { runs: 200, seed: 1 },
  );

  it('builds the Assumptions table from the manifest and adds the Monte Carlo section with nine histograms', () => {
    const html = readFileSync(writeBacktestReport(join(dir, 'robust'), { ...run, manifest, robustness: { monteCarlo: mc } }).html, 'utf8');
    expect(html).toContain('<th scope="row">Slippage</th><td>3 bps against the trader</td>');
    expect(html).toContain('<th scope="row">Data gaps</th><td>none (no interval longer than 3h)</td>');
    expect(html).toContain('<th scope="row">Warm-up</th><td>30 points (slow=30)');
    expect(html).toContain('Robustness: Monte Carlo');
    const json = /<script type="application\/json" id="robustness-data">(.*?)<\/script>/s.exec(html)?.[1];
    const charts = JSON.parse(json!) as RobustnessCharts;
    expect(charts.histograms).toHaveLength(9);
    expect(charts.histograms[0]!.counts.reduce((a, b) => a + b, 0)).toBe(200);
    expect(html).not.toContain('Robustness: cost sensitivity');
    // without robustness the page has no section script at all
    expect(readFileSync(files().html, 'utf8')).not.toContain('robustness-data');
  });

  it('escapes grid values in the optimize page', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const grid = parseGrid(`fast=5|10,label=${evil}`);
    const result = {
      metric: 'sharpe' as const,
      workers: 1,
      combinations: 2,
      failed: 0,
      rows: grid.combinations.map((params, i) => ({ rank: i + 1, params, score: 1 - i })),
    };
    const out = writeOptimizeReport(join(dir, 'opt'), {
      strategy: evil,
      source: evil,
      points: 10,
      grid,
      result,
      robustness: optimizeRobustness(grid, result),
      manifest,
    });
    const page = readFileSync(out.html, 'utf8');
    expect(page).not.toContain('<img');
    expect(page).toContain(escapeHtml(evil));
    expect(page).toContain('id="heat-map"');
    expect(readFileSync(out.csv, 'utf8').split('\n')[0]).toBe('rank,fast,label,sharpe,sharpe_out_of_sample,error');
  });

  function files(): { html: string } {
    return writeBacktestReport(join(dir, 'plain'), run);
  }
});

describe('page helpers', () => {
  it('keeps JSON from closing its script element', () => {
    const text = jsonForScript({ a: '</script><b>\u2028' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ a: '</script><b>\u2028' });
  });

  it('formats timestamps like toISOString without a zero millisecond part', () => {
    const format = isoFormatter();
    const rng = new Rng(11);
    for (let i = 0; i < 2000; i++) {
      const ms = i % 2 ? rng.int(0, 4e12) : Math.floor(rng.int(0, 4e9)) * 1000;
      expect(format(ms)).toBe(new Date(ms).toISOString().replace('.000Z', 'Z'));
    }
    expect(format(-1000)).toBe('1969-12-31T23:59:59Z');
    expect(format(1.5)).toBe('1970-01-01T00:00:00.001Z');
  });

  it.each([
    [0, '0s'],
    [45_000, '45s'],
    [125_000, '2m 5s'],
    [3_600_000, '1h'],
    [7_500_000, '2h 5m'],
    [86_400_000 * 3 + 3_600_000 * 4, '3d 4h'],
  ])('formats %d ms as %s', (ms, text) => expect(duration(ms)).toBe(text));
});
