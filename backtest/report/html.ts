/**
 * The report page: one HTML file that opens offline (uPlot's script and styles inlined, a
 * Content-Security-Policy that forbids every outside load), so a report can be mailed or archived and
 * still draw. Every string from outside (strategy names, params, markets) is escaped; chart data travels
 * as JSON inside a non-executable script element with `<` escaped so it cannot close the element.
 */
import type { CandleChart, PlotLine } from './candles.js';
import { PRICE_CHART_SCRIPT } from './price-chart.js';

/** Chart series, already downsampled; times in epoch seconds (uPlot's default time unit). */
export interface ReportChartData {
  readonly price: PriceChartData;
  /** The strategy's series declared in a pane of their own (an RSI), drawn below the price. */
  readonly own?: readonly PlotLine[];
  readonly equity: { readonly t: number[]; readonly equity: number[]; readonly hold: number[] };
  /** Drawdown as negative percent (underwater curve). */
  readonly drawdown: { readonly t: number[]; readonly dd: number[] };
}

/** A market's price: the line (and candles for a bar strategy), fills marked, the plotted series over it. */
export interface PriceChartData {
  readonly t: number[];
  readonly price: number[];
  readonly buys: [number, number][];
  readonly sells: [number, number][];
  readonly candles?: CandleChart;
  readonly lines?: readonly PlotLine[];
}

/** Everything the page shows, as display strings (formatting happens in report.ts). */
export interface ReportPage {
  readonly title: string;
  readonly subtitle: string;
  readonly metrics: readonly (readonly [string, string])[];
  /** Shown above the metrics, so nobody reads the figures without them. */
  readonly warnings?: readonly string[];
  readonly assumptions: readonly (readonly [string, string])[];
  readonly tradeHeader: readonly string[];
  readonly tradeRows: readonly (readonly string[])[];
  readonly tradesNote: string;
  readonly charts: ReportChartData;
  /**
   * Sections after the charts (robustness, parameter stability): HTML already escaped, the JSON
   * their script draws from (put in `#robustness-data`), their styles and their drawing script.
   */
  readonly extra?: ExtraSections;
}

/** Escaped HTML sections with their chart data, styles and script (see robustness-html.ts). */
export interface ExtraSections {
  readonly html: string;
  readonly data: unknown;
  readonly css: string;
  readonly script: string;
}

/** The chart library's code and styles, read from node_modules when the report is written. */
export interface ChartAssets {
  readonly js: string;
  readonly css: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** JSON that is safe inside a <script> element: no `<` (so no `</script>`), no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inline script text must not contain a closing script tag. */
export function inlineScript(code: string): string {
  return code.replace(/<\/script/gi, '<\\/script');
}

/** A key/value table, escaped. */
export function table(rows: readonly (readonly [string, string])[]): string {
  const body = rows.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('\n');
  return `<table class="kv">\n${body}\n</table>`;
}

function tradesTable(page: ReportPage): string {
  const head = page.tradeHeader.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const rows = page.tradeRows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table class="trades"><thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export const PAGE_CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; padding: 0 16px; color: #1f2937; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
.sub { color: #6b7280; margin: 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 24px; }
table { border-collapse: collapse; } th, td { padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
table.kv th { font-weight: 500; color: #4b5563; } table.kv td { font-variant-numeric: tabular-nums; }
table.trades { font-size: 12px; font-variant-numeric: tabular-nums; } table.trades th { border-bottom: 1px solid #d1d5db; }
.warn { background: #fef3c7; border-left: 4px solid #d97706; padding: 6px 10px; margin: 12px 0; }
.chart { min-height: 320px; margin-bottom: 8px; } .chart.pane { min-height: 200px; } .note { color: #6b7280; font-size: 12px; }
`;

/** Draws the three charts from the embedded JSON; runs in the browser. */
const CLIENT_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var charts = [];
  function make(id, series, columns, yLabel, plugins) {
    var el = document.getElementById(id);
    var opts = {
      width: tlWidth(el), height: 300, series: [{}].concat(series), plugins: plugins || [],
      axes: [{}, { label: yLabel, size: 70 }], cursor: { sync: { key: 'report' } }, scales: { x: { time: true } }
    };
    charts.push({ el: el, plot: new uPlot(opts, columns, el), height: 300 });
  }
  var p = data.price, e = data.equity, d = data.drawdown;
  var priceEl = document.getElementById('chart-price');
  charts.push({ el: priceEl, plot: tlPriceChart(priceEl, p, [tlMarkers(p.buys, p.sells, '#16a34a', '#dc2626')], 'report'), height: 300 });
  if (data.own) {
    var ownEl = document.getElementById('chart-own');
    charts.push({ el: ownEl, plot: tlPane(ownEl, data.own, 'report', tlSpan(p)), height: 180 });
  }
  make('chart-equity', [
    { label: 'strategy', stroke: '#7c3aed', width: 1.5 },
    { label: 'buy and hold', stroke: '#9ca3af', width: 1, dash: [6, 4] }
  ], [e.t, e.equity, e.hold], 'equity');
  make('chart-drawdown', [{ label: 'drawdown %', stroke: '#dc2626', fill: 'rgba(220, 38, 38, 0.15)', width: 1 }], [d.t, d.dd], '%');
  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.plot.setSize({ width: tlWidth(c.el), height: c.height }); });
  });
  document.body.setAttribute('data-charts-drawn', String(charts.length));
})();`;

/** The head (one CSP, the styles given) and the header of a report page, up to its body's content. */
export function pageTop(title: string, subtitle: string, styles: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${escapeHtml(title)}</title>
${styles.map((css) => `<style>${css}</style>`).join('\n')}
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><p class="sub">${escapeHtml(subtitle)}</p></header>`;
}

/** Renders the complete page. */
export function renderReportHtml(page: ReportPage, assets: ChartAssets): string {
  return `${pageTop(page.title, page.subtitle, [assets.css.replace(/<\/style/gi, '<\\/style'), `${PAGE_CSS}${page.extra?.css ?? ''}`])}
${(page.warnings ?? []).map((w) => `<p class="warn" role="alert">${escapeHtml(w)}</p>`).join('\n')}
<section class="grid">
<div><h2>Metrics</h2>
${table(page.metrics)}</div>
<div><h2>Assumptions</h2>
${table(page.assumptions)}</div>
</section>
<h2>${page.charts.price.candles ? `Candles (${escapeHtml(page.charts.price.candles.timeframe)})` : 'Price'} with buys (▲) and sells (▼)${page.charts.price.lines?.length ? ' and the strategy’s series' : ''}</h2><div id="chart-price" class="chart"></div>
${page.charts.own ? '<div id="chart-own" class="chart pane"></div>' : ''}
<h2>Equity against buy and hold</h2><div id="chart-equity" class="chart"></div>
<h2>Drawdown</h2><div id="chart-drawdown" class="chart"></div>
<noscript><p>The charts need JavaScript; the tables above and the CSV files hold the same data.</p></noscript>
${page.extra?.html ?? ''}
<h2>Trades</h2>
${tradesTable(page)}
<p class="note">${escapeHtml(page.tradesNote)}</p>
<script type="application/json" id="report-data">${jsonForScript(page.charts)}</script>
<script>${inlineScript(assets.js)}</script>
<script>${PRICE_CHART_SCRIPT}${CLIENT_SCRIPT}</script>
${extraScripts(page.extra)}
</body>
</html>
`;
}

function extraScripts(extra: ExtraSections | undefined): string {
  if (extra === undefined) return '';
  return `<script type="application/json" id="robustness-data">${jsonForScript(extra.data)}</script>\n<script>${inlineScript(extra.script)}</script>`;
}

/** A page of key/value tables and extra sections without the run's time charts (optimize's report). */
export interface PlainPage {
  readonly title: string;
  readonly subtitle: string;
  readonly tables: ReadonlyArray<{ readonly heading: string; readonly rows: readonly (readonly [string, string])[] }>;
  /** Escaped HTML between the tables and the sections (e.g. the ranked table). */
  readonly body?: string;
  readonly extra: ExtraSections;
}

/** Renders a self-contained page like the backtest report's, with the same CSP and styles. */
export function renderPlainHtml(page: PlainPage): string {
  const tables = page.tables.map((t) => `<div><h2>${escapeHtml(t.heading)}</h2>\n${table(t.rows)}</div>`).join('\n');
  return `${pageTop(page.title, page.subtitle, [`${PAGE_CSS}${page.extra.css}`])}
<section class="grid">
${tables}
</section>
${page.body ?? ''}
${page.extra.html}
${extraScripts(page.extra)}
</body>
</html>
`;
}
