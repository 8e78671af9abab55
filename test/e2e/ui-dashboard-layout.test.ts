/**
 * The dashboard in a real browser (playwright-core driving the system Chromium, headless) on a real
 * `tradeloop run --ui` on the embedded sandbox with two strategies on two markets (`ops-probe` on
 * BTCUSD, `probe-eth` on ETHUSD):
 * - at 1280, 1920, 2560 and 390 px wide no panel's content is wider than its box and the page never
 *   scrolls sideways (measured in the page), 390 px is a single column; screenshots are kept as
 *   artifacts (test-artifacts/, ignored by git);
 * - ETHUSD has its own price chart, and probe-eth's fill is marked on it in probe-eth's colour;
 * - Pause on probe-eth's row makes its intents come back denied PAUSED, ops-probe's never;
 *   Exit sells probe-eth's own position only (ops-probe keeps its BTC); Resume lifts the pause.
 * Skipped, saying so, where no Chromium is installed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, countColours, rgb } from '../support/chart-pixels.js';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';
import { startUiRunOf, twoMarketsConfig, type UiRun } from '../ops/ops-cli.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`ui-dashboard-layout: skipped, no Chromium at ${CHROMIUM} (set TRADELOOP_CHROMIUM to its path)`);
/** The dashboard's colours of the first and second strategy (its palette's first two). */
const COLOURS = { 'ops-probe': rgb('#4f9cf0'), 'probe-eth': rgb('#d9a400') };

const start = useTradeloop();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

interface Overflow {
  readonly panel: string;
  readonly scrollWidth: number;
  readonly clientWidth: number;
}

/** Runs in the page: every panel (and table) whose content is wider than its box, the page's own width, and the panels' columns. */
function measure(): { overflows: Overflow[]; page: { scrollWidth: number; innerWidth: number }; lefts: number[] } {
  interface El {
    readonly scrollWidth: number;
    readonly clientWidth: number;
    readonly offsetLeft: number;
    readonly tagName: string;
    readonly id: string;
    readonly parentElement: El | null;
    querySelector(s: string): { textContent: string | null } | null;
  }
  const doc = globalThis as unknown as {
    document: { querySelectorAll(s: string): ArrayLike<El>; documentElement: El };
    innerWidth: number;
  };
  const overflows: Overflow[] = [];
  for (const el of Array.from(doc.document.querySelectorAll('main > section, main > section table, main > section .chart'))) {
    const box = el.tagName === 'SECTION' ? el : el.parentElement!;
    const name = `${el.tagName.toLowerCase()}#${el.id || ''} in ${box.querySelector('h2')?.textContent ?? '?'}`;
    // a table or chart is measured against the panel's content box
    const limit = el.tagName === 'SECTION' ? el.clientWidth : box.clientWidth;
    const width = el.tagName === 'SECTION' ? el.scrollWidth : Math.max(el.scrollWidth, el.clientWidth);
    if (width > limit) overflows.push({ panel: name, scrollWidth: width, clientWidth: limit });
  }
  const lefts = [...new Set(Array.from(doc.document.querySelectorAll('main > section')).map((s) => s.offsetLeft))];
  return { overflows, page: { scrollWidth: doc.document.documentElement.scrollWidth, innerWidth: doc.innerWidth }, lefts };
}

async function positionOf(run: UiRun, strategy: string, market: string): Promise<number> {
  const list = (await run.api('/api/positions')).body.positions as { strategy: string; market: string; position: string }[];
  return Number(list.find((p) => p.strategy === strategy && p.market === market)?.position ?? 0);
}

async function fits(page: Page, width: number): Promise<ReturnType<typeof measure>> {
  await page.setViewportSize({ width, height: 1400 });
  // the charts follow the window's resize; wait until the layout settles at this width
  await expect.poll(async () => (await page.evaluate(measure)).overflows, { timeout: 20_000 }).toEqual([]);
  const m = await page.evaluate(measure);
  expect(m.page.scrollWidth, `the page at ${width} px`).toBeLessThanOrEqual(m.page.innerWidth);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${width}.png`), fullPage: true });
  return m;
}

describe.skipIf(!haveChromium)('the dashboard with two strategies on two markets, in a browser', () => {
  it(
    'fits 1280, 1920, 2560 and 390 px, charts each market with its fills, and pauses, exits and resumes one strategy from its row',
    { timeout: 300_000 },
    async () => {
      const { cwd, config } = twoMarketsConfig();
      const run = await startUiRunOf(start, cwd, config, {});
      const withToken = /dashboard: (\S+#token=\S+)/.exec(run.proc.err())?.[1] as string;
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
      const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      const asked: string[] = [];
      page.on('dialog', (d) => {
        asked.push(d.message());
        void d.accept();
      });
      await page.goto(withToken);
      await page.locator('#trading-state', { hasText: 'RUNNING' }).waitFor({ timeout: 60_000 });

      // both strategies bought; ETHUSD's chart marks probe-eth's fill in its colour
      await waitFor(
        async () => (await positionOf(run, 'ops-probe', 'BTCUSD')) > 0 && (await positionOf(run, 'probe-eth', 'ETHUSD')) > 0,
        'a position of each strategy',
        60_000,
      );
      const eth = page.locator('#price-charts [data-market="ETHUSD"]');
      await expect.poll(() => eth.getAttribute('data-strategies'), { timeout: 60_000 }).toContain('probe-eth');
      expect(Number(await eth.getAttribute('data-fills'))).toBeGreaterThan(0);
      expect(await page.locator('#price-charts [data-market="BTCUSD"]').getAttribute('data-strategies')).toBe('ops-probe');
      await expect
        .poll(
          async () =>
            (await page.evaluate(countColours, { selector: '#price-charts [data-market="ETHUSD"] canvas', colours: COLOURS }))[0]?.counts[
              'probe-eth'
            ] ?? 0,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);
      await page.locator('#fills tbody td', { hasText: 'probe-eth' }).first().waitFor({ timeout: 30_000 });
      await page.locator('#log-lines div').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('#config').textContent()).toContain('"strategies"');

      // the layout: no panel wider than its box at 1280, 1920 and 390 px; one column on the phone
      for (const width of [1280, 1920, 2560]) expect((await fits(page, width)).lefts.length, `columns at ${width} px`).toBeGreaterThan(1);
      expect((await fits(page, 390)).lefts).toHaveLength(1);
      await page.setViewportSize({ width: 1280, height: 1400 });

      // Pause probe-eth from its row: its intents are denied PAUSED, ops-probe's are not
      const row = (name: string) => page.locator('#strategies tbody tr', { has: page.locator('td', { hasText: name }) });
      await row('probe-eth').locator('button[data-act="pause"]').click();
      await row('probe-eth').locator('td.paused', { hasText: 'paused' }).waitFor({ timeout: 30_000 });
      await waitFor(
        async () =>
          ((await run.api('/api/decisions')).body as { strategy: string; code?: string }[]).some(
            (d) => d.strategy === 'probe-eth' && d.code === 'PAUSED',
          ),
        'a PAUSED denial of probe-eth',
        60_000,
      );
      const after = (await run.api('/api/decisions')).body as { strategy: string; decision: string; code?: string; at: number }[];
      const pausedAt = Math.min(...after.filter((d) => d.code === 'PAUSED').map((d) => d.at));
      expect(after.filter((d) => d.strategy === 'probe-eth' && d.at > pausedAt && d.decision === 'approve')).toEqual([]);
      // ops-probe is decided on its own merits (its resting orders may meet other limits), never PAUSED
      await waitFor(
        async () =>
          ((await run.api('/api/decisions')).body as { strategy: string; at: number }[]).some(
            (d) => d.strategy === 'ops-probe' && d.at > pausedAt,
          ),
        'an ops-probe decision after the pause',
        60_000,
      );
      expect(
        ((await run.api('/api/decisions')).body as { strategy: string; code?: string }[]).filter(
          (d) => d.strategy === 'ops-probe' && d.code === 'PAUSED',
        ),
      ).toEqual([]);

      // Exit probe-eth: its own position is sold (while paused), ops-probe keeps its BTC
      const btcBefore = await positionOf(run, 'ops-probe', 'BTCUSD');
      await row('probe-eth').locator('button[data-act="exit"]').click();
      await page.locator('#message', { hasText: /^exit probe-eth: ETHUSD / }).waitFor({ timeout: 30_000 });
      await waitFor(async () => (await positionOf(run, 'probe-eth', 'ETHUSD')) === 0, 'probe-eth flat', 60_000);
      expect(await positionOf(run, 'ops-probe', 'BTCUSD')).toBe(btcBefore);
      await page
        .locator('#fills tbody tr', { has: page.locator('td', { hasText: 'operator' }) })
        .first()
        .waitFor({ timeout: 30_000 });
      await page.locator('#round-trips tbody td', { hasText: 'operator' }).first().waitFor({ timeout: 30_000 });

      // Resume lifts the pause
      await row('probe-eth').locator('button[data-act="resume"]').click();
      await expect
        .poll(async () => ((await run.api('/api/strategies')).body as { name: string; state: string }[]).map((s) => s.state), {
          timeout: 30_000,
        })
        .toEqual(['running', 'running']);
      expect(asked).toEqual([
        expect.stringMatching(/^Pause probe-eth\?/),
        expect.stringMatching(/^Exit probe-eth\?/),
        expect.stringMatching(/^Resume probe-eth\?/),
      ]);
      expect(problems).toEqual([]);

      expect((await run.api('/api/stop', { method: 'POST' })).status).toBe(202);
      expect(await run.proc.exit).toBe(0);
      await context.close();
    },
  );
});
