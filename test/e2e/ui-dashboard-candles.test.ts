/**
 * The dashboard draws candles and a strategy's plotted series, in a real browser (playwright-core on
 * the system Chromium, headless) on a real `tradeloop run --ui` on the embedded sandbox: a bar strategy
 * on BTCUSD (1m bars, filled from history by the warm-up, and a plotted average) beside a price
 * strategy on ETHUSD. GET /api/charts gives BTCUSD's candles and the series, none for ETHUSD; BTCUSD's
 * chart paints candles in the candle colours over its mid with the series overlaid, ETHUSD's none.
 * Skipped, saying so, where no Chromium is installed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CANDLE_COLOURS } from '../../src/bars/candle-script.js';
import { CHROMIUM, CHROMIUM_ARGS, countColours, rgb } from '../support/chart-pixels.js';
import { useTradeloop } from '../support/reliability-procs.js';
import { PROBE, startUiRunOf, uiConfig } from '../ops/ops-cli.js';

const CANDLES = resolve(import.meta.dirname, '../ops/fixtures/candles.ts');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`ui-dashboard-candles: skipped, no Chromium at ${CHROMIUM} (set TRADELOOP_CHROMIUM to its path)`);

const start = useTradeloop();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!haveChromium)('the dashboard draws candles and plotted series', () => {
  it(
    "BTCUSD's bar strategy: candles and its average on BTCUSD's chart; ETHUSD's price strategy: its mid only",
    { timeout: 180_000 },
    async () => {
      const { cwd, config } = uiConfig();
      writeFileSync(
        config,
        `${[
          'strategies:',
          `  - { plugin: ${CANDLES} }`,
          `  - { plugin: ${PROBE}, name: probe-eth, params: { every: 5, market: ETHUSD } }`,
          'streams: { prices_ms: 250, orders_ms: 300, balances_ms: 300 }',
          'ui: { port: 0 }',
          `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
        ].join('\n')}\n`,
      );
      const run = await startUiRunOf(start, cwd, config, {});
      const charts = (await run.api('/api/charts')).body as {
        bars: { market: string; timeframe: string; rows: number[][] }[];
        plots: { strategy: string; market: string; name: string; points: unknown[] }[];
      };
      expect(charts.bars.map((b) => [b.market, b.timeframe])).toEqual([['BTCUSD', '1m']]);
      expect(charts.bars[0]!.rows.length).toBeGreaterThan(10);
      for (const [time, open, high, low, close] of charts.bars[0]!.rows) {
        expect(time! % 60_000).toBe(0);
        expect(high!).toBeGreaterThanOrEqual(Math.max(open!, close!));
        expect(low!).toBeLessThanOrEqual(Math.min(open!, close!));
      }

      const withToken = /dashboard: (\S+#token=\S+)/.exec(run.proc.err())?.[1] as string;
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
      const page = await (await browser.newContext({ viewport: { width: 1600, height: 1400 } })).newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(withToken);
      const btc = page.locator('#price-charts [data-market="BTCUSD"]');
      const eth = page.locator('#price-charts [data-market="ETHUSD"]');
      await expect.poll(async () => Number(await btc.getAttribute('data-candles')), { timeout: 60_000 }).toBeGreaterThan(10);
      await expect.poll(async () => await btc.getAttribute('data-overlays'), { timeout: 60_000 }).toBe('candle-watch mean');
      await eth.waitFor({ timeout: 60_000 });
      expect(await eth.getAttribute('data-candles')).toBe('0');
      // the candles are painted: pixels of the rising or falling colour on BTCUSD's canvas, none on ETHUSD's
      const painted = async (market: string): Promise<number> => {
        const [c] = await page.evaluate(countColours, {
          selector: `#price-charts [data-market="${market}"] canvas`,
          colours: { up: rgb(CANDLE_COLOURS.up), down: rgb(CANDLE_COLOURS.down), mean: rgb('#e67e22') },
        });
        return c === undefined ? -1 : c.counts.up! + c.counts.down!;
      };
      await expect.poll(() => painted('BTCUSD'), { timeout: 30_000 }).toBeGreaterThan(20);
      expect(await painted('ETHUSD')).toBe(0);
      expect(problems).toEqual([]);
      run.proc.child.kill('SIGINT');
    },
  );
});
