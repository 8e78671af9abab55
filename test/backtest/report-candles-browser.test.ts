/**
 * Candles drawn in headless Chromium: report.html of a bar strategy's backtest on hourly OHLCV data
 * (written by the report writer the CLI calls) paints rising and falling candles in their colours, the
 * strategy's plotted channels over them and the fill markers; no page error, no request leaving the file.
 * Skips, saying so, without Chromium.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDLE_COLOURS } from '../../backtest/report/price-chart.js';
import { CHROMIUM, countColours, offlineChromium, openReport, rgb, type Rgb } from '../support/chart-pixels.js';
import donchian from '../../strategies/donchian-breakout.js';
import { hourly, runOn, writeRunReport } from './candle-kit.js';

if (!existsSync(CHROMIUM)) console.warn(`skipping the candle report browser test: no Chromium at ${CHROMIUM}`);

const COLOURS: Record<string, Rgb> = {
  up: rgb(CANDLE_COLOURS.up),
  down: rgb(CANDLE_COLOURS.down),
  upper: rgb('#27ae60'),
  lower: rgb('#c0392b'),
  buy: rgb('#16a34a'),
  sell: rgb('#dc2626'),
};

describe.skipIf(!existsSync(CHROMIUM))('candles in report.html in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-candles-browser-'));
  const profile = mkdtempSync(join(tmpdir(), 'tradeloop-chromium-'));
  let context: BrowserContext;
  let outside: string[] = [];
  beforeAll(async () => {
    writeRunReport(join(dir, 'single'), await runOn(donchian, hourly(400, 3)), 'donchian-breakout');
    ({ context, outside } = await offlineChromium(profile));
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  });

  it("draws a bar strategy's candles with its channels over them and its fills marked", async () => {
    const { page, errors } = await openReport(context, join(dir, 'single', 'report.html'), 'body[data-charts-drawn="3"]');
    await page.screenshot({ path: join(tmpdir(), 'tradeloop-report-candles.png'), fullPage: true });
    const [price] = await page.evaluate(countColours, { selector: '#chart-price canvas', colours: COLOURS });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(await page.getAttribute('#chart-price', 'data-candles')).toBe('399');
    const c = price!.counts;
    // both kinds of candle, the two channel lines, and the markers of the fills
    expect(c.up).toBeGreaterThan(300);
    expect(c.down).toBeGreaterThan(300);
    expect(c.upper).toBeGreaterThan(300);
    expect(c.lower).toBeGreaterThan(300);
    expect(c.buy! + c.sell!).toBeGreaterThan(50);
  });
});
