/**
 * The dashboard in a real browser (playwright-core driving the system Chromium, headless) on a real
 * `tradeloop run --ui` on the embedded sandbox: equity and an order appear, Halt makes new intents
 * come back denied HALTED, Cancel all cancels the open orders; a screenshot is kept as an artifact
 * (.tradeloop/artifacts/, ignored by git). Skipped, saying so, where no Chromium is installed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chart-pixels.js';
import { afterAll, describe, expect, it } from 'vitest';
import { useTradeloop } from '../support/reliability-procs.js';
import { startUiRun } from '../ops/ops-cli.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../.tradeloop/artifacts');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`ui-dashboard: skipped, no Chromium at ${CHROMIUM} (set TRADELOOP_CHROMIUM to its path)`);

const start = useTradeloop();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!haveChromium)('the dashboard in a browser', () => {
  it('shows equity and an order, halts (new intents denied HALTED) and cancels all from its buttons', { timeout: 300_000 }, async () => {
    const run = await startUiRun(start, {});
    const withToken = /dashboard: (\S+#token=\S+)/.exec(run.proc.err())?.[1] as string;
    // playwright gives every launch a fresh temporary profile (--user-data-dir); never `playwright install`
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1600 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(withToken);
    expect(page.url()).not.toContain('token'); // the fragment is taken off the address bar

    await page.locator('#trading-state', { hasText: 'RUNNING' }).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('#equity').textContent(), { timeout: 60_000 }).toMatch(/^\d+\.\d{2}$/);
    await page.locator('#orders tbody tr td', { hasText: 'ops-probe' }).first().waitFor({ timeout: 60_000 });
    await page.locator('#fills tbody tr td.BUY').first().waitFor({ timeout: 60_000 });
    await page.locator('#equity-chart canvas').waitFor({ timeout: 30_000 });

    await page.click('#btn-halt');
    await page.locator('#trading-state', { hasText: 'HALTED' }).waitFor({ timeout: 30_000 });
    await page.locator('#decisions tbody tr td.deny', { hasText: 'HALTED' }).first().waitFor({ timeout: 60_000 });
    expect(await page.locator('#btn-resume').isVisible()).toBe(true);
    const before = await page.locator('#orders tbody tr td', { hasText: 'ops-probe' }).count();
    expect(before).toBeGreaterThan(0);

    await page.click('#btn-cancel-all');
    await page.locator('#message', { hasText: /cancelled \d+ order/ }).waitFor({ timeout: 60_000 });
    await page.locator('#orders tbody tr td.empty', { hasText: 'no open orders' }).waitFor({ timeout: 30_000 });
    expect(Number(/cancelled (\d+)/.exec((await page.locator('#message').textContent()) ?? '')?.[1])).toBeGreaterThan(0);

    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = join(ARTIFACTS, 'dashboard.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(existsSync(shot)).toBe(true);
    expect(problems).toEqual([]);

    const res = await fetch(new URL('/api/stop', run.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${/#token=(\S+)/.exec(withToken)?.[1]}` },
    });
    expect(res.status).toBe(202);
    expect(await run.proc.exit).toBe(0);
    await context.close();
  });
});
