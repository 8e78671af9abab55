/**
 * Renders report.html in headless Chromium and checks that the three charts drew: canvases with
 * pixels of each series' colour and the buy/sell markers, no page errors, no request leaving the file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBacktestReport } from '../../backtest/report.js';
import { sampleRun } from './sample-run.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** The little of the DOM the pixel check uses (the project compiles without the DOM library). */
interface CanvasLike {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

/** Runs in the page: counts pixels per chart canvas close to each given colour (and all painted ones). */
function countColours(colours: Record<string, [number, number, number]>): Array<Record<string, number>> {
  const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<CanvasLike> } }).document;
  return Array.from(doc.querySelectorAll('.chart canvas')).map((canvas) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const counts: Record<string, number> = { painted: 0 };
    for (const name of Object.keys(colours)) counts[name] = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! === 0) continue;
      counts.painted! += 1;
      for (const [name, [r, g, b]] of Object.entries(colours)) {
        if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) < 40 && data[i + 3]! > 200) counts[name]! += 1;
      }
    }
    return counts;
  });
}

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
      executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1200, height: 900 },
    });
    const outside: string[] = [];
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort())));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    const failed = new Promise<never>((_, reject) => page.on('pageerror', reject));
    failed.catch(() => undefined);
    await page.goto(`file://${files.html}`);
    await Promise.race([page.waitForSelector('body[data-charts-drawn="3"]', { timeout: 15_000 }), failed]);
    await page.screenshot({ path: join(tmpdir(), 'tradeloop-report.png'), fullPage: true });

    const colours: Record<string, [number, number, number]> = {
      price: [37, 99, 235], buy: [22, 163, 74], sell: [220, 38, 38], strategy: [124, 58, 237], hold: [156, 163, 175],
    };
    const counts = await page.evaluate(countColours, colours);
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
