import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MARKETS_SCRIPT } from './app-markets.js';
import { PANELS_SCRIPT } from './app-panels.js';
import { DASHBOARD_SCRIPT } from './app-script.js';
import { DASHBOARD_HTML } from './page.js';

/** A file the dashboard serves: its content type and body (read once, on first use). */
export interface Asset {
  readonly type: string;
  body(): string | Buffer;
}

const require = createRequire(import.meta.url);

/** uPlot from the installed package (a dependency), never a CDN. */
function fromPackage(file: string, type: string): Asset {
  let body: Buffer | undefined;
  return { type, body: () => (body ??= readFileSync(require.resolve(`uplot/dist/${file}`))) };
}

const text = (type: string, body: string): Asset => ({ type, body: () => body });

/** The dashboard's files by path; none carries data, so none needs the token. */
export const DASHBOARD_ASSETS: Readonly<Record<string, Asset>> = {
  '/': text('text/html; charset=utf-8', DASHBOARD_HTML),
  '/assets/app.js': text('text/javascript; charset=utf-8', DASHBOARD_SCRIPT),
  '/assets/markets.js': text('text/javascript; charset=utf-8', MARKETS_SCRIPT),
  '/assets/panels.js': text('text/javascript; charset=utf-8', PANELS_SCRIPT),
  '/assets/uplot.js': fromPackage('uPlot.iife.min.js', 'text/javascript; charset=utf-8'),
  '/assets/uplot.css': fromPackage('uPlot.min.css', 'text/css; charset=utf-8'),
};
