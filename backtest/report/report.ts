/**
 * `tradeloop backtest --out DIR`: writes `trades.csv` (every round trip, money exactly as computed),
 * `equity.csv` (every point at full resolution) and `report.html` (metrics, assumptions and charts,
 * downsampled so a million-point run still gives a small, quick page). Files are written in chunks, so
 * memory does not grow with a giant string per file.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { formatAmount, formatPrice, TradeloopError } from '../../src/core/index.js';
import { minMaxIndices, pick } from '../downsample.js';
import { type BacktestMetrics, buyHoldSeries, drawdownSeries, type RoundTrip } from '../metrics.js';
import { type AssumptionsManifest, manifestRows } from '../assumptions.js';
import { type ChartAssets, type ExtraSections, type ReportChartData, type ReportPage, renderReportHtml } from './html.js';
import { ROBUSTNESS_CANVAS_SCRIPT } from '../robustness/canvas.js';
import { costSection, mergeCharts, monteCarloSection, type PageSection, SECTION_CSS } from '../robustness/html.js';
import type { RobustnessReport } from '../robustness/report.js';
import { type FillMarker, type MoneyUnits, unitsOf } from '../money-units.js';
import type { PlotColumns } from '../../src/engine/plots.js';
import { candleChart, plotLines, type CandleColumns } from './candles.js';
import { describeIntrabar, type IntrabarRule } from '../../src/fills/point/bar-range.js';

export { type FillMarker, type MoneyUnits, unitsOf };

/** The default fill model in one sentence, for reports and help text. */
export const DEFAULT_FILL_RULE =
  'An order made at point t fills at the price of point t+1 (never at t), moved against the trader by the slippage; ' +
  'a resting limit order fills at its limit at the first later point that reaches it; a held-rate quote executes at point t ' +
  'at the quote offered at t.';

/** The default fill model on OHLCV rows (each row a bar) under `rule`: the rule of `src/fills/point/bar-range.ts`. */
export function barFillRule(rule: IntrabarRule): string {
  return (
    "Each row is a bar: an order made at a bar's close fills at the next bar's open, moved against the trader by the slippage; " +
    "a sell stop fires when a bar's low reaches it and fills at the stop, or at the open when the bar gapped through it; " +
    'a limit fills at the open when the bar opened through it, else at its limit when the high or low reached it; ' +
    "a position helper's stop-loss and trailing stop are checked on a bar's low and its take-profit on the high, and fill inside that bar at their level (at the open when it opened beyond it); " +
    `${describeIntrabar(rule)}; ` +
    "a held-rate quote executes at the bar's close at the quote offered there."
  );
}

/** What the run assumed, shown beside the metrics so a reader can judge them. */
export interface ReportAssumptions {
  /** Starting balances as the user gave them, e.g. "USD=10000". */
  readonly initial: string;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly fillRule: string;
  /** Any further label/value rows (quote spread, risk limits …). */
  readonly extra?: readonly (readonly [string, string])[];
}

export interface ReportInput {
  readonly strategy: string;
  readonly market: string;
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  /** The data file or market range the points came from. */
  readonly source?: string;
  /** One value per point: epoch ms, market price, marked equity. */
  readonly times: Float64Array;
  readonly prices: Float64Array;
  readonly equity: Float64Array;
  readonly trades: readonly RoundTrip[];
  /** Why each trade's closing sell was made, one per trade (BacktestRun.exitReasons); the exit_reason column. */
  readonly exitReasons?: readonly string[];
  /** Buy/sell markers; by default each round trip's entry and exit. */
  readonly fills?: readonly FillMarker[];
  readonly metrics: BacktestMetrics;
  readonly assumptions: ReportAssumptions;
  /** Points per chart at most (default 4000); trades listed in the page at most (default 500). */
  readonly maxChartPoints?: number;
  readonly maxTableTrades?: number;
  /** Warnings a reader must see before the figures (e.g. the run was shorter than the warm-up). */
  readonly warnings?: readonly string[];
  /** How money and prices are shown (default: from the market symbol, prices at the quote's decimals). */
  readonly units?: MoneyUnits;
  /** The assumptions manifest: when given, the Assumptions table is built from it (issue 25). */
  readonly manifest?: AssumptionsManifest;
  /** Monte Carlo and cost sensitivity (`--robustness N`): sections with histograms and the sweep chart. */
  readonly robustness?: RobustnessReport;
  /** The run's candles (a bar strategy's; BacktestRun.candles): the price chart draws them in place of the line. */
  readonly candles?: readonly CandleColumns[];
  /** The series the strategy plotted (BacktestRun.plots): over the price, or in a pane of their own below it. */
  readonly plots?: readonly PlotColumns[];
}

/** Paths of the files written. */
export interface ReportFiles {
  readonly trades: string;
  readonly equity: string;
  readonly html: string;
}

const MAX_MARKERS = 10_000;
const CHUNK_LINES = 10_000;

/** Reads uPlot's browser build and styles from node_modules, to inline them into the page. */
export function loadChartAssets(): ChartAssets {
  const require = createRequire(import.meta.url);
  try {
    return {
      js: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
      css: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
    };
  } catch (err) {
    throw new TradeloopError('REPORT_ASSETS_MISSING', 'cannot read uPlot from node_modules (uplot/dist); run npm install', { cause: err });
  }
}

/** Writes trades.csv, equity.csv and report.html into `outDir` (created if missing). */
export function writeBacktestReport(outDir: string, input: ReportInput, assets: ChartAssets = loadChartAssets()): ReportFiles {
  mkdirSync(outDir, { recursive: true });
  const files = { trades: join(outDir, 'trades.csv'), equity: join(outDir, 'equity.csv'), html: join(outDir, 'report.html') };
  const hold = buyHoldSeries(input.prices, input.equity[0]!);
  const drawdown = drawdownSeries(input.equity);
  writeTradesCsv(files.trades, input.trades, input.exitReasons ?? []);
  writeEquityCsv(files.equity, input, hold, drawdown);
  const html = renderReportHtml(buildPage(input, hold, drawdown), assets);
  writeChunks(files.html, [html]);
  return files;
}

function writeChunks(file: string, chunks: Iterable<string>): void {
  const fd = openSync(file, 'w');
  try {
    for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** CSV text in chunks of CHUNK_LINES rows (string concatenation: half the garbage of an array join). */
function* lines(header: string, count: number, line: (i: number) => string): Generator<string> {
  yield `${header}\n`;
  for (let from = 0; from < count; from += CHUNK_LINES) {
    const to = Math.min(count, from + CHUNK_LINES);
    let chunk = '';
    for (let i = from; i < to; i++) chunk += `${line(i)}\n`;
    yield chunk;
  }
}

function writeTradesCsv(file: string, trades: readonly RoundTrip[], exitReasons: readonly string[]): void {
  const header = 'market,side,entry_time,exit_time,quantity,entry_price,exit_price,pnl,fees,exit_reason';
  writeChunks(
    file,
    lines(header, trades.length, (i) => {
      const t = trades[i]!;
      return [
        csvText(t.market ?? ''),
        t.side,
        iso(t.entryAt),
        iso(t.exitAt),
        t.quantity,
        t.entryPrice,
        t.exitPrice,
        t.pnl,
        t.fees,
        exitReasons[i] ?? '',
      ].join(',');
    }),
  );
}

function writeEquityCsv(file: string, input: ReportInput, hold: Float64Array, drawdown: Float64Array): void {
  const { times, prices, equity } = input;
  const format = isoFormatter();
  writeChunks(
    file,
    lines(
      'timestamp,price,equity,buy_hold_equity,drawdown_pct',
      times.length,
      (i) => `${format(times[i]!)},${prices[i]},${equity[i]!.toFixed(2)},${hold[i]!.toFixed(2)},${drawdown[i]!.toFixed(4)}`,
    ),
  );
}

/**
 * The same text as `iso` at a fraction of the cost for a million ascending timestamps: the date part
 * is formatted once per day, the time of day by arithmetic.
 */
export function isoFormatter(): (ms: number) => string {
  let day = NaN;
  let prefix = '';
  return (ms) => {
    const d = Math.floor(ms / 86_400_000);
    const inDay = ms - d * 86_400_000;
    if (!Number.isInteger(ms) || d < 0 || d > 2_932_896) return iso(ms); // fractions and years outside 1970–9999
    if (d !== day) {
      day = d;
      prefix = iso(d * 86_400_000).slice(0, 11);
    }
    const h = Math.floor(inDay / 3_600_000);
    const m = Math.floor((inDay % 3_600_000) / 60_000);
    const s = Math.floor((inDay % 60_000) / 1000);
    const frac = inDay % 1000;
    return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(s)}${frac ? `.${String(frac).padStart(3, '0')}` : ''}Z`;
  };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function buildPage(input: ReportInput, hold: Float64Array, drawdown: Float64Array): ReportPage {
  const m = input.metrics;
  const shown = input.trades.slice(0, input.maxTableTrades ?? 500);
  const markers = markersOf(input);
  const units = input.units ?? unitsOf(input.market);
  const notes = [`${shown.length} of ${input.trades.length} round trips listed; trades.csv holds all of them.`];
  if (markers.total > markers.buys.length + markers.sells.length)
    notes.push(`The price chart marks ${MAX_MARKERS} of ${markers.total} fills.`);
  return {
    title: `${input.strategy} on ${input.market}`,
    subtitle: `${iso(m.startAt)} to ${iso(m.endAt)} · ${m.points.toLocaleString('en-US')} points${input.source ? ` · ${input.source}` : ''}`,
    metrics: formatMetricRows(m, units),
    warnings: input.warnings ?? [],
    assumptions: assumptionRows(input),
    tradeHeader: ['side', 'entry', 'exit', 'quantity', 'entry price', 'exit price', 'pnl', 'fees'],
    tradeRows: shown.map((t) => [t.side, ...tradeCells(t, units)]),
    tradesNote: notes.join(' '),
    charts: chartData(input, hold, drawdown, markers),
    ...(input.robustness && {
      extra: sectionsOf([
        monteCarloSection(input.robustness.monteCarlo, units.quote),
        ...(input.robustness.costs ? [costSection(input.robustness.costs, units.quote)] : []),
      ]),
    }),
  };
}

/** A round trip's entry, exit, quantity, prices, P&L and fees as the report's tables show them. */
export function tradeCells(t: RoundTrip, units: MoneyUnits): string[] {
  return [
    iso(t.entryAt),
    iso(t.exitAt),
    formatAmount(t.quantity, units.base),
    formatPrice(t.entryPrice, units.priceDecimals),
    formatPrice(t.exitPrice, units.priceDecimals),
    formatAmount(t.pnl, units.quote),
    formatAmount(t.fees, units.quote),
  ];
}

/** The robustness sections as the page takes them: HTML, chart data, styles and the canvas script. */
export function sectionsOf(sections: readonly PageSection[]): ExtraSections {
  return { html: sections.map((s) => s.html).join('\n'), data: mergeCharts(sections), css: SECTION_CSS, script: ROBUSTNESS_CANVAS_SCRIPT };
}

function markersOf(input: ReportInput): { buys: [number, number][]; sells: [number, number][]; total: number } {
  const fills =
    input.fills ??
    input.trades.flatMap((t): FillMarker[] => [
      { at: t.entryAt, side: t.side === 'long' ? 'buy' : 'sell', price: Number(t.entryPrice) },
      { at: t.exitAt, side: t.side === 'long' ? 'sell' : 'buy', price: Number(t.exitPrice) },
    ]);
  const stride = Math.max(1, Math.ceil(fills.length / MAX_MARKERS));
  const buys: [number, number][] = [];
  const sells: [number, number][] = [];
  for (let i = 0; i < fills.length; i += stride) {
    const f = fills[i]!;
    (f.side === 'buy' ? buys : sells).push([f.at / 1000, f.price]);
  }
  return { buys, sells, total: fills.length };
}

function chartData(input: ReportInput, hold: Float64Array, drawdown: Float64Array, markers: ReturnType<typeof markersOf>): ReportChartData {
  const { times, prices, equity } = input;
  const max = input.maxChartPoints ?? 4000;
  const n = times.length;
  const p = minMaxIndices(n, [prices], max);
  const e = minMaxIndices(n, [equity, hold], max);
  const d = minMaxIndices(n, [drawdown], max);
  const candles = input.candles?.find((c) => c.market === input.market && c.time.length > 0);
  const own = plotLines(input.plots ?? [], input.market, 'own', max);
  return {
    price: {
      t: pick(times, p, 1e-3),
      price: pick(prices, p),
      buys: markers.buys,
      sells: markers.sells,
      ...(candles && { candles: candleChart(candles, max) }),
      lines: plotLines(input.plots ?? [], input.market, 'price', max),
    },
    ...(own.length > 0 && { own }),
    equity: { t: pick(times, e, 1e-3), equity: pick(equity, e, 1, 2), hold: pick(hold, e, 1, 2) },
    drawdown: { t: pick(times, d, 1e-3), dd: pick(drawdown, d, -1, 4) },
  };
}

/**
 * Label/value rows of every metric, as the report shows them; the CLI's terminal summary prints the
 * same. Money is shown at the quote asset's precision (`units`, default USD).
 */
export function formatMetricRows(m: BacktestMetrics, units: Pick<MoneyUnits, 'quote'> = { quote: 'USD' }): [string, string][] {
  return [
    ['Final equity', formatAmount(m.finalEquity, units.quote)],
    ['Total return', pct(m.totalReturnPct)],
    ['Buy-and-hold return', pct(m.buyHoldReturnPct)],
    ['CAGR', pct(m.cagrPct)],
    ['Annualised volatility', pct(m.volatilityPct)],
    ['Sharpe (risk-free 0)', ratio(m.sharpe)],
    ['Sortino', ratio(m.sortino)],
    [
      'Max drawdown',
      `${pct(m.maxDrawdownPct)}${m.maxDrawdownPct > 0 ? ` (peak ${iso(m.maxDrawdownPeakAt)}, trough ${iso(m.maxDrawdownTroughAt)})` : ''}`,
    ],
    ['Max drawdown duration', `${duration(m.maxDrawdownDurationMs)}${m.maxDrawdownRecovered ? '' : ' (not recovered)'}`],
    ['Round trips', String(m.trades)],
    ['Win rate', pct(m.winRatePct)],
    ['Profit factor', ratio(m.profitFactor)],
    ['Exposure time', pct(m.exposurePct)],
    ['Fees paid', formatAmount(m.feesPaid, units.quote)],
    ['Points', `${m.points} (every ${m.periodMs === null ? 'n/a' : duration(m.periodMs)})`],
  ];
}

function assumptionRows(input: ReportInput): [string, string][] {
  const a = input.assumptions;
  const params = Object.entries(input.params ?? {})
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const extra = (a.extra ?? []).map(([k, v]): [string, string] => [k, v]);
  if (input.manifest) return [...manifestRows(input.manifest, duration), ['Strategy parameters', params || 'defaults'], ...extra];
  return [
    ['Initial balance', a.initial],
    ['Fee', `${a.feeBps} bps (${(a.feeBps / 100).toFixed(2)} % of traded notional)`],
    ['Slippage', `${a.slippageBps} bps against the trader`],
    ['Fill rule', a.fillRule],
    ['Strategy parameters', params || 'defaults'],
    ...(input.source ? [['Data', input.source] as [string, string]] : []),
    ...(a.extra ?? []).map(([k, v]): [string, string] => [k, v]),
  ];
}

/** A percentage for people: 2 decimals; from a million percent on (an annualised figure of a few hours' data) 3 significant digits. */
function pct(value: number | null): string {
  if (value === null) return 'n/a';
  return Math.abs(value) >= 1e6 ? `${value.toExponential(2)} %` : `${value.toFixed(2)} %`;
}
function ratio(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(2);
}
function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
function csvText(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A duration for people: "3d 4h", "2h 5m", "45s". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)];
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  return m > 0 ? `${m}m${s % 60 ? ` ${s % 60}s` : ''}` : `${s}s`;
}
