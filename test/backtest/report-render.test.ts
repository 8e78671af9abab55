/**
 * Renders report.html in headless Chromium and checks that the three charts drew: canvases with
 * pixels of each series' colour and the buy/sell markers, no page errors, no request leaving the file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, countColours, type Rgb } from '../support/chart-pixels.js';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBacktestReport } from '../../backtest/report/report.js';
import { sampleRun } from './sample-run.js';

describe.skipIf(!existsSync(CHROMIUM))('report.html in headless Chromium', () => {
  const dirs: string[] = [];
  let context: BrowserContext | undefined;
  afterAll(async () => {
    await context?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('draws the price with buy and sell markers, equity against buy and hold, and drawdown', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tradeloop-report-render-'));
    const profile = mkdtempSync(join(tmpdir(), 'tradeloop-chromium-'));
    dirs.push(out, profile);
    const files = writeBacktestReport(out, sampleRun(20_000, 3));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1200, height: 900 },
    });
    const outside: string[] = [];
    await context.route('**/*', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort()),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    const failed = new Promise<never>((_, reject) => page.on('pageerror', reject));
    failed.catch(() => undefined);
    await page.goto(`file://${files.html}`);
    await Promise.race([page.waitForSelector('body[data-charts-drawn="3"]', { timeout: 60_000 }), failed]);
    await page.screenshot({ path: join(tmpdir(), 'tradeloop-report.png'), fullPage: true });

    const colours: Record<string, Rgb> = {
      price: [37, 99, 235],
      buy: [22, 163, 74],
      sell: [220, 38, 38],
      strategy: [124, 58, 237],
      hold: [156, 163, 175],
    };
    const counts = (await page.evaluate(countColours, { selector: '.chart canvas', colours })).map((c) => c.counts);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(counts).toHaveLength(3);
    const [price, equity, drawdown] = counts as [Record<string, number>, Record<string, number>, Record<string, number>];
    expect(price.price).toBeGreaterThan(300);
    expect(price.buy).toBeGreaterThan(1000);
    expect(price.sell).toBeGreaterThan(1000);
    expect(equity.strategy).toBeGreaterThan(500);
    expect(equity.hold).toBeGreaterThan(300);
    expect(drawdown.sell).toBeGreaterThan(1000);
  });
});
