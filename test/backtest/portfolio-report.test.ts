/**
 * report.html of `tradeloop backtest --config … --out DIR`: the embedded chart data (total equity, each
 * strategy's realized P&L, per market the candles when a strategy uses bars, each strategy's fills and
 * plotted series), the warnings and manifest at the top, the correlation table and the round trips of
 * each strategy with their exit reasons; and, in headless Chromium, the candles and each strategy's
 * markers in its own colour drawn. The browser part skips, saying so, without Chromium.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDLE_COLOURS } from '../../backtest/report/price-chart.js';
import { STRATEGY_COLOURS, type portfolioChartData } from '../../backtest/report/portfolio-report.js';
import { CHROMIUM, countColours, offlineChromium, openReport, rgb } from '../support/chart-pixels.js';
import { runCli } from '../cli/cli-helpers.js';
import { randomWalk } from '../support/walk.js';

if (!existsSync(CHROMIUM)) console.warn(`skipping the portfolio report browser test: no Chromium at ${CHROMIUM}`);

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-portfolio-report-'));
const profile = mkdtempSync(join(tmpdir(), 'tradeloop-chromium-'));
afterAll(() => [dir, profile].forEach((d) => rmSync(d, { recursive: true, force: true })));

const T0 = Date.UTC(2024, 0, 1);
const QUARTER = 15 * 60_000;

/** A price file of `n` points 15 minutes apart (so 1h bars have a real open, high, low and close). */
function priceFile(name: string, n: number, seed: number, start: number): string {
  const walk = randomWalk(n, seed, { start, vol: 0.01, from: T0, stepMs: QUARTER });
  const file = join(dir, name);
  writeFileSync(file, `timestamp,price\n${Array.from(walk.times, (t, i) => `${t},${walk.prices[i]!.toFixed(2)}`).join('\n')}\n`);
  return file;
}

const config = join(dir, 'bot.yaml');
writeFileSync(
  config,
  `environment: local
strategies:
  - plugin: donchian-breakout
    name: breakout
    params: { market: BTCUSD, entry: 6, exit: 3, trend: 2, size_pct: 30 }
  - plugin: sma-cross
    name: cross
    params: { market: BTCUSD, fast: 4, slow: 12, size_pct: 30, stop_loss_pct: 0.3 }
  - plugin: rsi-reversion
    name: reversion
    params: { market: ETHUSD, period: 6, lower: 40, upper: 60, size_pct: 30 }
  - plugin: sma-cross
    name: starved
    params: { market: ETHUSD, fast: 3, slow: 9, size_pct: 30 }
    allocation: "100"
risk:
  max_order_notional: "20000"
  stale_after_ms: 3600000
`,
);

type ChartData = ReturnType<typeof portfolioChartData>;
let html = '';
let data: ChartData;

beforeAll(async () => {
  const btc = priceFile('btc.csv', 800, 11, 20_000);
  const eth = priceFile('eth.csv', 800, 12, 1_000);
  const r = await runCli(['backtest', '--config', config, '--data', `BTCUSD=${btc}`, '--data', `ETHUSD=${eth}`, '--out', join(dir, 'out')]);
  expect([r.code, r.stderr]).toEqual([0, '']);
  expect(r.stdout).toMatch(/report: .*\/out\/report\.html/);
  html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
  data = JSON.parse(/<script type="application\/json" id="portfolio-data">(.*?)<\/script>/s.exec(html)![1]!) as ChartData;
}, 120_000);

describe('the portfolio report.html', () => {
  it('holds the total equity, each strategy in its colour, and per market the candles, fills and plotted series', () => {
    expect(data.equity.t.length).toBe(1_600);
    expect(data.pnl.map((s) => [s.label, s.color])).toEqual([
      ['breakout', STRATEGY_COLOURS[0]],
      ['cross', STRATEGY_COLOURS[1]],
      ['reversion', STRATEGY_COLOURS[2]],
      ['starved', STRATEGY_COLOURS[3]],
    ]);
    const [btc, eth] = data.markets;
    // BTCUSD: 1h candles of its 15-minute points (one still open at the end), each strategy's fills apart
    expect([btc!.market, btc!.candles?.timeframe, btc!.candles?.t.length]).toEqual(['BTCUSD', '1h', 199]);
    expect(btc!.candles!.h.every((h, i) => h >= btc!.candles!.o[i]! && h >= btc!.candles!.c[i]!)).toBe(true);
    expect(btc!.fills.map((f) => [f.strategy, f.colour])).toEqual([
      ['breakout', STRATEGY_COLOURS[0]],
      ['cross', STRATEGY_COLOURS[1]],
    ]);
    for (const f of btc!.fills) expect(f.buys.length, f.strategy).toBeGreaterThan(0);
    expect(btc!.lines.map((l) => l.label)).toEqual(['breakout upper', 'breakout lower', 'cross fast', 'cross slow']);
    // ETHUSD: no bar strategy, so a price line; the RSI in its own pane
    expect([eth!.market, eth!.candles, eth!.price.length]).toEqual(['ETHUSD', undefined, 800]);
    expect(eth!.own.map((l) => l.label)).toEqual(['reversion rsi']);
    // the P&L of each strategy ends at the sum of its round trips
    expect(data.pnl[1]!.v.length).toBeGreaterThan(2);
  });

  it('puts the trap warning and the manifest at the top, and lists the correlation and each strategy’s round trips with exit reasons', () => {
    const top = html.indexOf('<h2>Total equity</h2>');
    const head = html.slice(0, top);
    // (the page is large: each check says what it looked for rather than printing the page)
    const has = (text: string, re: RegExp): void => expect(re.test(text), String(re)).toBe(true);
    has(head, /<p class="warn" role="alert">limit ALLOCATION denied \d+ of \d+ intents of strategy starved/);
    has(head, /max order notional 20000 \(risk\.max_order_notional\)/);
    has(html, /<h2>Correlation of daily P&amp;L \(\d+ days\)<\/h2>/);
    for (const s of ['breakout', 'cross', 'reversion']) has(html, new RegExp(`${s}: [1-9]\\d* round trips?</h3>`));
    has(html, /starved: 0 round trips<\/h3>/);
    // sma-cross's stop-loss and its cross both close trips: the exit reason column says which
    has(html, /<td>stop-loss<\/td>/);
    has(html, /<td>signal<\/td>/);
  });
});

describe.skipIf(!existsSync(CHROMIUM))('the portfolio report.html in headless Chromium', () => {
  it('draws the candles, each strategy’s fills in its colour, and every chart', async () => {
    const { context, outside } = await offlineChromium(profile);
    try {
      // equity, P&L, BTCUSD, ETHUSD and the RSI pane
      const { page, errors } = await openReport(context, join(dir, 'out', 'report.html'), 'body[data-charts-drawn="5"]');
      await page.screenshot({ path: join(tmpdir(), 'tradeloop-portfolio-report.png'), fullPage: true });
      const colours = {
        up: rgb(CANDLE_COLOURS.up),
        down: rgb(CANDLE_COLOURS.down),
        breakout: rgb(STRATEGY_COLOURS[0]),
        cross: rgb(STRATEGY_COLOURS[1]),
        reversion: rgb(STRATEGY_COLOURS[2]),
      };
      const [btc] = await page.evaluate(countColours, { selector: '#chart-market-0 canvas', colours });
      const [eth] = await page.evaluate(countColours, { selector: '#chart-market-1 canvas', colours });
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      expect(btc).toBeDefined();
      expect(eth).toBeDefined();
      expect(btc!.counts.up).toBeGreaterThan(200);
      expect(btc!.counts.down).toBeGreaterThan(200);
      expect(btc!.counts.breakout).toBeGreaterThan(20);
      expect(btc!.counts.cross).toBeGreaterThan(20);
      expect(btc!.counts.reversion).toBe(0);
      expect(eth!.counts.reversion).toBeGreaterThan(20);
      expect(eth!.counts.up! + eth!.counts.down!).toBe(0);
    } finally {
      await context.close();
    }
  });
});
