/**
 * report.html of a portfolio backtest (`backtest --config … --out DIR`): one self-contained page, as
 * the single-strategy report (uPlot inlined, no outside load). At the top the warnings (a limit that
 * bites, a strategy that stopped) and the manifest; then the total equity, each strategy's realized P&L
 * over time and its figures, the correlation of the strategies' daily P&L, a price chart per market
 * (candles when its strategies use bars) with each strategy's fills marked in that strategy's colour
 * and its plotted series, and the round trips of each strategy with their exit reasons.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatAmount } from '../../src/core/index.js';
import { minMaxIndices, pick } from '../downsample.js';
import type { MarketSeries } from '../merge.js';
import { unitsOf } from '../money-units.js';
import type { PortfolioRun } from '../portfolio.js';
import { candleChart, plotLines, type CandleChart, type PlotLine } from './candles.js';
import { escapeHtml, inlineScript, jsonForScript, PAGE_CSS, pageTop, table, type ChartAssets } from './html.js';
import { PRICE_CHART_SCRIPT } from './price-chart.js';
import { loadChartAssets, tradeCells } from './report.js';

/** Each strategy's colour on the charts, in the config's order; the browser test looks for them. */
export const STRATEGY_COLOURS = ['#2563eb', '#db2777', '#ea580c', '#0d9488', '#7c3aed', '#65a30d', '#0284c7', '#a16207'] as const;

export interface PortfolioReportInput {
  readonly run: PortfolioRun;
  /** Each market's points (times and prices), as the run replayed them. */
  readonly series: readonly MarketSeries[];
  readonly subtitle: string;
  /** Label/value rows of the totals (initial and final equity, return, drawdown, fees). */
  readonly totals: readonly (readonly [string, string])[];
  /** The assumptions manifest's rows (each limit and where it came from). */
  readonly manifest: readonly (readonly [string, string])[];
  readonly warnings: readonly string[];
  /** Points per chart at most (default 4000); round trips listed per strategy at most (default 200). */
  readonly maxChartPoints?: number;
  readonly maxTableTrades?: number;
}

/** One market's chart: price line or candles, the series plotted on it, and each strategy's fills. */
interface MarketChart {
  readonly market: string;
  readonly t: number[];
  readonly price: number[];
  readonly candles?: CandleChart;
  readonly lines: PlotLine[];
  readonly own: PlotLine[];
  readonly fills: Array<{ strategy: string; colour: string; buys: [number, number][]; sells: [number, number][] }>;
}

const MAX_MARKERS = 10_000;

/** Writes report.html into `outDir` (created if missing); its path. */
export function writePortfolioReport(outDir: string, input: PortfolioReportInput, assets: ChartAssets = loadChartAssets()): string {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'report.html');
  writeFileSync(file, renderPortfolioHtml(input, assets));
  return file;
}

function colourOf(run: PortfolioRun, strategy: string): string {
  const i = run.strategies.findIndex((s) => s.name === strategy);
  return i < 0 ? '#6b7280' : STRATEGY_COLOURS[i % STRATEGY_COLOURS.length]!;
}

/** The chart data the page embeds. */
export function portfolioChartData(input: PortfolioReportInput) {
  const { run } = input;
  const max = input.maxChartPoints ?? 4000;
  const e = minMaxIndices(run.times.length, [run.equity], max);
  const charts = run.charts;
  const start = run.times[0] ?? 0;
  const end = run.times[run.times.length - 1] ?? start;
  const pnl = run.strategies.map((s) => {
    // realized P&L at each round trip's exit, every market of the strategy together
    const exits = (charts?.trips ?? [])
      .filter((t) => t.strategy === s.name)
      .flatMap((t) => t.trades.map((r) => [r.exitAt, Number(r.pnl)] as const))
      .sort((a, b) => a[0] - b[0]);
    const t = [start / 1000];
    const v = [0];
    let sum = 0;
    for (const [at, p] of exits) {
      sum += p;
      t.push(at / 1000);
      v.push(Math.round(sum * 100) / 100);
    }
    t.push(end / 1000);
    v.push(Math.round(sum * 100) / 100);
    return { label: s.name, color: colourOf(run, s.name), t, v };
  });
  const markets: MarketChart[] = input.series.map((s) => {
    const p = minMaxIndices(s.times.length, [s.prices], max);
    const candles = charts?.candles?.find((c) => c.market === s.market && c.time.length > 0);
    const fills = run.strategies
      .filter((st) => st.markets.includes(s.market))
      .map((st) => {
        const mine = (charts?.fills ?? []).filter((f) => f.strategy === st.name && f.market === s.market);
        const stride = Math.max(1, Math.ceil(mine.length / MAX_MARKERS));
        const buys: [number, number][] = [];
        const sells: [number, number][] = [];
        for (let i = 0; i < mine.length; i += stride) (mine[i]!.side === 'buy' ? buys : sells).push([mine[i]!.at / 1000, mine[i]!.price]);
        return { strategy: st.name, colour: colourOf(run, st.name), buys, sells };
      });
    return {
      market: s.market,
      t: pick(s.times, p, 1e-3),
      price: pick(s.prices, p),
      ...(candles && { candles: candleChart(candles, max) }),
      lines: plotLines(charts?.plots ?? [], s.market, 'price', max, true),
      own: plotLines(charts?.plots ?? [], s.market, 'own', max, true),
      fills,
    };
  });
  return { equity: { t: pick(run.times, e, 1e-3), equity: pick(run.equity, e, 1, 2) }, pnl, markets };
}

function grid(header: readonly string[], rows: readonly (readonly string[])[], cls = 'trades'): string {
  const head = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table class="${cls}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function strategyRows(run: PortfolioRun): string[][] {
  return run.strategies.map((s) => [
    s.name,
    s.markets.join(' '),
    s.pnl.toFixed(2),
    formatAmount(s.realizedPnl, run.quote),
    s.unrealizedPnl.toFixed(2),
    formatAmount(s.fees, run.quote),
    String(s.roundTrips),
    String(s.wins),
    String(s.decided),
    Object.entries(s.denials)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || '0',
  ]);
}

function tripsSection(input: PortfolioReportInput): string {
  const limit = input.maxTableTrades ?? 200;
  return input.run.strategies
    .map((s) => {
      const trips = (input.run.charts?.trips ?? []).filter((t) => t.strategy === s.name);
      const rows = trips.flatMap((t) => {
        const units = unitsOf(t.market);
        return t.trades.map((r, i) => ({
          at: r.exitAt,
          cells: [t.market, ...tradeCells(r, units), t.exitReasons[i] || '–'],
        }));
      });
      rows.sort((a, b) => a.at - b.at);
      const shown = rows.slice(0, limit).map((r) => r.cells);
      return `<h3><span class="swatch" style="background:${colourOf(input.run, s.name)}"></span>${escapeHtml(s.name)}: ${rows.length} round trip${rows.length === 1 ? '' : 's'}</h3>
${grid(['market', 'entry', 'exit', 'quantity', 'entry price', 'exit price', 'pnl', 'fees', 'exit reason'], shown)}
${rows.length > shown.length ? `<p class="note">${shown.length} of ${rows.length} listed.</p>` : ''}`;
    })
    .join('\n');
}

const PORTFOLIO_CSS = `
h3 { font-size: 14px; margin: 16px 0 6px; } .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; border-radius: 2px; }
table.trades td, table.trades th { padding-right: 14px; }
`;

/** Draws the equity, P&L and market charts from the embedded JSON; runs in the browser. */
const PORTFOLIO_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('portfolio-data').textContent);
  var charts = [];
  function add(el, plot, height) { charts.push({ el: el, plot: plot, height: height }); }
  var eq = document.getElementById('chart-equity');
  add(eq, new uPlot({ width: tlWidth(eq), height: 260, series: [{}, { label: 'total equity', stroke: '#111827', width: 1.5 }],
    axes: [{}, { label: 'equity', size: 70 }], scales: { x: { time: true } } }, [data.equity.t, data.equity.equity], eq), 260);
  var pl = document.getElementById('chart-pnl');
  var stepped = uPlot.paths.stepped({ align: 1 });
  add(pl, new uPlot({ width: tlWidth(pl), height: 220, axes: [{}, { label: 'realized P&L', size: 70 }], scales: { x: { time: true } },
    series: [{}].concat(data.pnl.map(function (s) { return { label: s.label, stroke: s.color, width: 1.5, paths: stepped }; })) },
    uPlot.join(data.pnl.map(function (s) { return [s.t, s.v]; })), pl), 220);
  data.markets.forEach(function (m, i) {
    var el = document.getElementById('chart-market-' + i);
    var marks = m.fills.map(function (f) { return tlMarkers(f.buys, f.sells, f.colour, f.colour); });
    var price = { t: m.t, price: m.price, candles: m.candles, lines: m.lines };
    add(el, tlPriceChart(el, price, marks, 'market-' + i), 300);
    if (m.own.length > 0) {
      var own = document.getElementById('chart-own-' + i);
      add(own, tlPane(own, m.own, 'market-' + i, tlSpan(price)), 180);
    }
  });
  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.plot.setSize({ width: tlWidth(c.el), height: c.height }); });
  });
  document.body.setAttribute('data-charts-drawn', String(charts.length));
})();`;

/** The complete page. */
export function renderPortfolioHtml(input: PortfolioReportInput, assets: ChartAssets): string {
  const { run } = input;
  const data = portfolioChartData(input);
  const title = `portfolio of ${run.strategies.length} strateg${run.strategies.length === 1 ? 'y' : 'ies'} on ${run.markets.length} market${run.markets.length === 1 ? '' : 's'}`;
  const legend = run.strategies
    .map((s) => `<span><span class="swatch" style="background:${colourOf(run, s.name)}"></span>${escapeHtml(s.name)}</span>`)
    .join(' ');
  const corr = run.correlation;
  const names = run.strategies.map((s) => s.name);
  const markets = data.markets
    .map(
      (m, i) =>
        `<h3>${escapeHtml(m.market)}: ${m.candles ? `candles (${escapeHtml(m.candles.timeframe)})` : 'price'}, each strategy's buys (▲) and sells (▼) in its colour</h3>
<div id="chart-market-${i}" class="chart"></div>${m.own.length > 0 ? `\n<div id="chart-own-${i}" class="chart pane"></div>` : ''}`,
    )
    .join('\n');
  return `${pageTop(title, input.subtitle, [assets.css.replace(/<\/style/gi, '<\\/style'), `${PAGE_CSS}${PORTFOLIO_CSS}`])}
${input.warnings.map((w) => `<p class="warn" role="alert">${escapeHtml(w)}</p>`).join('\n')}
<section class="grid">
<div><h2>Total</h2>
${table(input.totals)}</div>
<div><h2>Assumptions</h2>
${table(input.manifest)}</div>
</section>
<h2>Total equity</h2><div id="chart-equity" class="chart"></div>
<h2>Strategies</h2><p>${legend}</p>
<div id="chart-pnl" class="chart"></div>
${grid(['strategy', 'markets', 'P&L', 'realized', 'open', 'fees', 'round trips', 'wins', 'intents', 'denied'], strategyRows(run))}
${
  names.length > 1
    ? `<h2>Correlation of daily P&amp;L (${corr.days} days)</h2>\n${grid(
        ['', ...names],
        corr.matrix.map((row, i) => [names[i]!, ...row.map((r) => (r === null ? '–' : r.toFixed(2)))]),
      )}`
    : ''
}
<h2>Markets</h2>
${grid(
  ['market', 'points', 'last price', 'held', 'exposure', 'peak exposure', 'fees'],
  run.markets.map((m) => [
    m.market,
    String(m.points),
    String(m.lastPrice),
    m.held,
    m.exposure.toFixed(2),
    m.peakExposure.toFixed(2),
    m.fees,
  ]),
)}
${markets}
<noscript><p>The charts need JavaScript; the tables and the CSV files hold the same figures.</p></noscript>
<h2>Round trips by strategy</h2>
${tripsSection(input)}
<script type="application/json" id="portfolio-data">${jsonForScript(data)}</script>
<script>${inlineScript(assets.js)}</script>
<script>${PRICE_CHART_SCRIPT}${PORTFOLIO_SCRIPT}</script>
</body>
</html>
`;
}
