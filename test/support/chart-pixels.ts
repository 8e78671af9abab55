/**
 * Browser tests of the reports: where Chromium is, how it is started, and a pixel count of the charts
 * drawn on canvases, run in the page (`page.evaluate(countColours, { selector, colours })`: the
 * function is sent to the page, so it uses nothing from this module).
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium the browser tests drive (TRADELOOP_CHROMIUM names another). */
export const CHROMIUM = process.env.TRADELOOP_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export type Rgb = [number, number, number];

/** The little of the DOM the pixel check uses (the project compiles without the DOM library). */
interface CanvasLike {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  getAttribute(name: string): string | null;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

export interface ChartPixels {
  readonly id: string;
  /** The canvas says it finished drawing (`data-drawn="1"`). */
  readonly drawn: boolean;
  /** Painted pixels, and pixels close to each named colour. */
  readonly counts: Record<string, number>;
}

/** Runs in the page: per canvas matching `selector`, whether it was marked drawn and its pixels near each colour. */
export function countColours(arg: { readonly selector: string; readonly colours: Record<string, Rgb> }): ChartPixels[] {
  const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<CanvasLike> } }).document;
  return Array.from(doc.querySelectorAll(arg.selector)).map((canvas) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const counts: Record<string, number> = { painted: 0 };
    for (const name of Object.keys(arg.colours)) counts[name] = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! === 0) continue;
      counts.painted! += 1;
      for (const [name, [r, g, b]] of Object.entries(arg.colours)) {
        if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) < 40 && data[i + 3]! > 200) counts[name]! += 1;
      }
    }
    return { id: canvas.id, drawn: canvas.getAttribute('data-drawn') === '1', counts };
  });
}

/** "#1f77b4" → [31, 119, 180]. */
export function rgb(hex: string): Rgb {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

/** Chromium on `profile`, every request that is not a file refused and listed in `outside` (a report loads nothing from the network). */
export async function offlineChromium(profile: string): Promise<{ context: BrowserContext; outside: string[] }> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 900 },
  });
  const outside: string[] = [];
  await context.route('**/*', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : (outside.push(route.request().url()), route.abort()),
  );
  return { context, outside };
}

/** Opens a report file and waits for `selector` (its charts drawn); page and console errors are collected in `errors`. */
export async function openReport(context: BrowserContext, file: string, selector: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  await page.goto(`file://${file}`);
  await page.waitForSelector(selector, { timeout: 60_000 });
  return { page, errors };
}
