/**
 * The report page's robustness sections (issue 25): Monte Carlo percentile tables with a histogram
 * per method and figure, the cost sweep with its chart, and optimize's parameter-stability heat map.
 * The charts are drawn on plain canvases by a small inline script (no library, nothing loaded from
 * outside), from JSON in a non-executable script element, like the page's other charts. Each canvas
 * gets `data-drawn="1"` once drawn and the body `data-robustness-drawn` the count, for the browser test.
 */
import { escapeHtml } from '../report/html.js';
import type { CostSensitivity } from './costs.js';
import { breakEvenText, costTable, METHOD_LABELS, monteCarloHeading, monteCarloTable } from './report.js';
import type { StabilityMap, WalkForwardEfficiency } from './stability.js';
import type { MonteCarloResult } from './robustness.js';

/** Bar colours per method (the browser test looks for them). */
export const METHOD_COLOURS = { 'trade-shuffle': '#0891b2', 'trade-bootstrap': '#ea580c', 'return-block-bootstrap': '#65a30d' } as const;
export const COST_COLOURS = { fee: '#db2777', slippage: '#0d9488' } as const;

export interface HistogramChart {
  readonly id: string;
  readonly title: string;
  readonly colour: string;
  readonly from: number;
  readonly width: number;
  readonly counts: readonly number[];
  readonly marks: readonly number[];
}
export interface LineChart {
  readonly id: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: ReadonlyArray<{
    readonly label: string;
    readonly colour: string;
    readonly x: readonly number[];
    readonly y: readonly number[];
  }>;
}
export interface HeatChart {
  readonly id: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xs: readonly string[];
  readonly ys: readonly string[];
  readonly cells: ReadonlyArray<ReadonlyArray<number | null>>;
  readonly lowerBetter: boolean;
  readonly best?: readonly [number, number];
}

/** The canvases' data: one JSON object for the page. */
export interface RobustnessCharts {
  readonly histograms: HistogramChart[];
  readonly lines: LineChart[];
  readonly heat: HeatChart[];
}

/** A section: escaped HTML plus the charts it placed. */
export interface PageSection {
  readonly html: string;
  readonly charts: RobustnessCharts;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table class="trades"><thead><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>\n${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n')}\n</tbody></table>`;
}

function canvas(id: string, width: number, height: number): string {
  return `<canvas id="${id}" class="rchart" width="${width}" height="${height}"></canvas>`;
}

/** Monte Carlo: the heading, the percentile table and nine histograms (three figures × three methods). */
export function monteCarloSection(mc: MonteCarloResult, quote: string): PageSection {
  const t = monteCarloTable(mc, quote);
  const histograms: HistogramChart[] = [];
  const figures = [
    ['finalEquity', `final equity (${quote})`],
    ['maxDrawdownPct', 'max drawdown %'],
    ['sharpe', 'Sharpe'],
  ] as const;
  const blocks = figures.map(([key, label]) => {
    const charts = mc.methods.map((m) => {
      const d = m[key];
      const id = `hist-${m.method}-${key}`;
      const p = d.percentiles;
      histograms.push({
        id,
        title: `${label}: ${METHOD_LABELS[m.method]}`,
        colour: METHOD_COLOURS[m.method],
        from: d.histogram.from,
        width: d.histogram.width,
        counts: d.histogram.counts,
        marks: [p.p5, p.p50, p.p95].filter((v): v is number => v !== null),
      });
      return `<figure><figcaption>${escapeHtml(`${label}: ${METHOD_LABELS[m.method]}`)}</figcaption>${canvas(id, 340, 180)}</figure>`;
    });
    return `<div class="hists">${charts.join('')}</div>`;
  });
  const html = `<h2>Robustness: Monte Carlo</h2>
<p class="note">${escapeHtml(monteCarloHeading(mc))}. Ruin: share of paths whose max drawdown reached ${mc.ruinPct} %. Histograms mark p5, p50 and p95.</p>
${table(t.header, t.rows)}
${blocks.join('\n')}`;
  return { html, charts: { histograms, lines: [], heat: [] } };
}

/** The cost sweep: table, break-even line and return against the multiple for fee and slippage. */
export function costSection(c: CostSensitivity, quote: string): PageSection {
  const t = costTable(c, quote);
  const series = (['fee', 'slippage'] as const).map((varied) => {
    const rows = c.rows.filter((r) => r.varied === varied);
    return { label: `${varied} varied`, colour: COST_COLOURS[varied], x: rows.map((r) => r.multiple), y: rows.map((r) => r.returnPct) };
  });
  const base = c.slippageBps > 0 ? '' : ` (slippage is configured at 0 bps, so its multiples are of the fee, ${c.feeBps} bps)`;
  const html = `<h2>Robustness: cost sensitivity</h2>
<p class="note">${escapeHtml(`Fee and slippage each from 0 to 3× the configured ${c.feeBps} and ${c.slippageBps} bps, the other as configured${base}. ${breakEvenText(c)}.`)}</p>
${canvas('cost-sweep', 700, 260)}
${table(t.header, t.rows)}`;
  return {
    html,
    charts: {
      histograms: [],
      lines: [{ id: 'cost-sweep', xLabel: 'multiple of the configured cost', yLabel: 'return %', series }],
      heat: [],
    },
  };
}

/** Optimize: the heat map, the neighbour falls and the walk-forward efficiency. */
export function stabilitySection(map: StabilityMap | undefined, wfe: WalkForwardEfficiency | undefined): PageSection {
  const heat: HeatChart[] = [];
  const parts: string[] = [];
  if (map) {
    const best =
      map.best &&
      ([map.x.values.indexOf(map.best.params[map.x.param]!), map.y ? map.y.values.indexOf(map.best.params[map.y.param]!) : 0] as const);
    heat.push({
      id: 'heat-map',
      xLabel: map.x.param,
      yLabel: map.y?.param ?? '',
      xs: map.x.values.map(String),
      ys: (map.y?.values ?? ['']).map(String),
      cells: map.cells,
      lowerBetter: map.metric === 'max_drawdown',
      ...(best && { best }),
    });
    const over = map.bestOver.length ? ` Each cell holds the best over ${map.bestOver.join(', ')}.` : '';
    parts.push(`<h2>Parameter stability: ${escapeHtml(map.metric)} over the grid</h2>
<p class="note">${escapeHtml(`x: ${map.x.param}${map.y ? `, y: ${map.y.param}` : ''}; greener is better, grey did not run; the best is outlined.${over}`)}</p>
${canvas('heat-map', 760, Math.min(640, 60 + 28 * (map.y?.values.length ?? 1)))}`);
    if (map.best) {
      const rows = map.neighbours.map((n) => [
        n.param,
        String(n.value),
        n.neighbours.map((x) => `${String(x.value)}: ${x.score === null ? 'n/a' : x.score.toFixed(3)}`).join(', ') || 'none',
        n.fall === null ? 'n/a' : n.fall.toFixed(3),
        n.fallPct === null ? 'n/a' : `${n.fallPct.toFixed(1)} %`,
      ]);
      parts.push(`<h2>How far the best falls one step away</h2>\n${table(['param', 'best value', 'neighbours', 'fall', 'fall %'], rows)}`);
    }
  }
  if (wfe) {
    const rows = wfe.folds.map((f) => [
      String(f.fold),
      f.inSample === null ? 'n/a' : f.inSample.toFixed(3),
      f.outOfSample === null ? 'n/a' : f.outOfSample.toFixed(3),
    ]);
    parts.push(`<h2>Walk-forward efficiency: ${wfe.efficiency === null ? 'n/a' : wfe.efficiency.toFixed(3)}</h2>
<p class="note">${escapeHtml(wfe.note)}</p>
${table(['fold', 'in sample', 'out of sample'], rows)}`);
  }
  return { html: parts.join('\n'), charts: { histograms: [], lines: [], heat } };
}

/** Merges the sections' charts into the page's one JSON object. */
export function mergeCharts(sections: readonly PageSection[]): RobustnessCharts {
  return {
    histograms: sections.flatMap((s) => s.charts.histograms),
    lines: sections.flatMap((s) => s.charts.lines),
    heat: sections.flatMap((s) => s.charts.heat),
  };
}

export const SECTION_CSS = `
.hists { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 8px; }
figure { margin: 0; } figcaption { font-size: 12px; color: #4b5563; }
canvas.rchart { max-width: 100%; display: block; }
`;
