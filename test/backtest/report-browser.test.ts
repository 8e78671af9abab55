/**
 * The robustness charts in headless Chromium: report.html of `backtest --robustness` (nine histograms
 * and the cost sweep) and of `optimize --out` (the stability heat map), written by the real command.
 * Every chart canvas must be marked drawn and hold pixels of its own colours; no page error, no
 * request leaving the file. Skips, saying so, without /usr/bin/chromium.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, countColours, rgb, type Rgb } from '../support/chart-pixels.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_COLOURS, METHOD_COLOURS } from '../../backtest/robustness/html.js';
import { runCli } from '../cli/cli-helpers.js';

if (!existsSync(CHROMIUM)) console.warn(`skipping the robustness report browser test: no Chromium at ${CHROMIUM}`);

const COLOURS: Record<string, Rgb> = {
  ...Object.fromEntries(Object.entries(METHOD_COLOURS).map(([k, v]) => [k, rgb(v)])),
  fee: rgb(COST_COLOURS.fee),
  slippage: rgb(COST_COLOURS.slippage),
  red: [185, 28, 28],
  green: [22, 163, 74],
  outline: [17, 24, 39],
};

describe.skipIf(!existsSync(CHROMIUM))('robustness sections of report.html in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-robustness-browser-'));
  const profile = mkdtempSync(join(tmpdir(), 'tradeloop-chromium-'));
  let context: BrowserContext;
  const outside: string[] = [];
  beforeAll(async () => {
    const csv = join(dir, 'sine.csv');
    const t0 = Date.UTC(2024, 0, 1);
    writeFileSync(
      csv,
      `timestamp,price\n${Array.from({ length: 600 }, (_, i) => `${t0 + i * 3_600_000},${(100 + 10 * Math.sin(i / 6) + 3 * Math.sin(i / 1.7) + 0.05 * i).toFixed(2)}`).join('\n')}\n`,
    );
    const bt = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--params',
      'fast=3,slow=8',
      '--slippage-bps',
      '2',
      '--robustness',
      '500',
      '--out',
      join(dir, 'bt'),
    ]);
    const opt = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      csv,
      '--grid',
      'fast=2..5:1,slow=8..14:2',
      '--workers',
      '1',
      '--out',
      join(dir, 'opt'),
    ]);
    expect([bt.code, bt.stderr, opt.code, opt.stderr]).toEqual([0, '', 0, '']);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1200, height: 900 },
    });
    await context.route('**/*', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort()),
    );
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  });

  async function open(file: string, charts: number): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    await page.goto(`file://${file}`);
    await page.waitForSelector(`body[data-robustness-drawn="${charts}"]`, { timeout: 60_000 });
    return { page, errors };
  }

  it('draws a histogram per method and figure and the cost sweep', async () => {
    const { page, errors } = await open(join(dir, 'bt', 'report.html'), 10);
    await page.screenshot({ path: join(tmpdir(), 'tradeloop-robustness-report.png'), fullPage: true });
    const charts = await page.evaluate(countColours, { selector: 'canvas.rchart', colours: COLOURS });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(charts).toHaveLength(10);
    for (const c of charts) expect(c.drawn, c.id).toBe(true);
    for (const method of Object.keys(METHOD_COLOURS)) {
      const mine = charts.filter((c) => c.id.startsWith(`hist-${method}-`));
      expect(mine).toHaveLength(3);
      for (const c of mine) expect(c.counts[method], c.id).toBeGreaterThan(400);
    }
    const sweep = charts.find((c) => c.id === 'cost-sweep')!;
    expect(sweep.counts.fee).toBeGreaterThan(300);
    expect(sweep.counts.slippage).toBeGreaterThan(300);
    // the page's own uPlot charts still draw beside them
    expect(await page.getAttribute('body', 'data-charts-drawn')).toBe('3');
  });

  it('draws the optimizer heat map with its best cell outlined', async () => {
    const { page, errors } = await open(join(dir, 'opt', 'report.html'), 1);
    const [heat] = await page.evaluate(countColours, { selector: 'canvas.rchart', colours: COLOURS });
    expect(errors).toEqual([]);
    expect(heat!.id).toBe('heat-map');
    expect(heat!.drawn).toBe(true);
    // cells from red (worst) to green (best) and the outline of the best
    expect(heat!.counts.green).toBeGreaterThan(200);
    expect(heat!.counts.red).toBeGreaterThan(200);
    expect(heat!.counts.outline).toBeGreaterThan(100);
  });
});
