/**
 * The robustness figures for people and machines: `--json` fields (snake_case), the text summary's
 * tables, and the rows the report page shows. Equity is money: shown at the quote asset's precision;
 * drawdowns and returns as percents, Sharpe to 2 places.
 */
import { formatAmount } from '../../src/core/index.js';
import type { CostSensitivity } from './costs.js';
import type { StabilityMap, WalkForwardEfficiency } from './stability.js';
import { type Distribution, type MethodResult, type MonteCarloResult, PERCENTILES } from './robustness.js';

/** What `backtest --robustness N` adds to a run. */
export interface RobustnessReport {
  readonly monteCarlo: MonteCarloResult;
  readonly costs?: CostSensitivity;
}

export const METHOD_LABELS: Readonly<Record<MethodResult['method'], string>> = {
  'trade-shuffle': 'round trips reshuffled',
  'trade-bootstrap': 'round trips resampled',
  'return-block-bootstrap': 'returns, block bootstrap',
};

/** The Monte Carlo percentile table: one row per method and figure. */
export function monteCarloTable(mc: MonteCarloResult, quote: string): { header: string[]; rows: string[][] } {
  const header = ['method', 'figure', ...PERCENTILES.map((p) => `p${p}`), 'ruin'];
  const rows: string[][] = [];
  for (const m of mc.methods) {
    const ruin = `${(m.ruinProbability * 100).toFixed(1)} %`;
    rows.push([METHOD_LABELS[m.method], 'final equity', ...cells(m.finalEquity, (v) => formatAmount(v, quote)), ruin]);
    rows.push(['', 'max drawdown %', ...cells(m.maxDrawdownPct, (v) => v.toFixed(2)), '']);
    rows.push(['', `sharpe${m.sharpe.count < m.runs ? ` (${m.sharpe.count} defined)` : ''}`, ...cells(m.sharpe, (v) => v.toFixed(2)), '']);
  }
  return { header, rows };
}

function cells(d: Distribution, format: (v: number) => string): string[] {
  return PERCENTILES.map((p) => {
    const v = d.percentiles[`p${p}`];
    return v === null ? 'n/a' : format(v);
  });
}

/** The sweep table: one row per re-run. */
export function costTable(c: CostSensitivity, quote: string): { header: string[]; rows: string[][] } {
  const header = ['varied', 'multiple', 'fee bps', 'slippage bps', 'return %', 'final equity', 'fees paid', 'round trips', 'sharpe'];
  const rows = c.rows.map((r) => [
    r.varied,
    `${r.multiple}×`,
    String(r.feeBps),
    String(r.slippageBps),
    r.returnPct.toFixed(2),
    formatAmount(r.finalEquity, quote),
    formatAmount(r.feesPaid, quote),
    String(r.trades),
    r.sharpe === null ? 'n/a' : r.sharpe.toFixed(2),
  ]);
  return { header, rows };
}

/** One line on the break-even fee. */
export function breakEvenText(c: CostSensitivity): string {
  const b = c.breakEven;
  return b.feeBps === null
    ? `break-even fee: none (${b.note})`
    : `break-even fee: ${b.feeBps} bps ±${b.toleranceBps} (${b.note}; configured ${c.feeBps} bps)`;
}

/** A line on what was run, and the methods left out. */
export function monteCarloHeading(mc: MonteCarloResult): string {
  const left = mc.notes.length ? `; ${mc.notes.join('; ')}` : '';
  return `Monte Carlo: ${mc.runs.toLocaleString('en-US')} paths per method, seed ${String(mc.seed)}, blocks of ${mc.blockLength} points, ruin at a ${mc.ruinPct} % drawdown${left}`;
}

/** `--json`: robustness. Distributions keep their histograms (bins, not every path). */
export function robustnessToJson(r: RobustnessReport): Record<string, unknown> {
  const mc = r.monteCarlo;
  return {
    monte_carlo: {
      runs: mc.runs,
      seed: mc.seed,
      ruin_pct: mc.ruinPct,
      block_length: mc.blockLength,
      initial_equity: mc.initialEquity,
      notes: mc.notes,
      methods: mc.methods.map((m) => ({
        method: m.method,
        runs: m.runs,
        ruin_probability: m.ruinProbability,
        final_equity: distJson(m.finalEquity),
        max_drawdown_pct: distJson(m.maxDrawdownPct),
        sharpe: distJson(m.sharpe),
      })),
    },
    ...(r.costs && { cost_sensitivity: costsToJson(r.costs) }),
  };
}

function distJson(d: Distribution): Record<string, unknown> {
  return { count: d.count, mean: d.mean, min: d.min, max: d.max, ...d.percentiles, histogram: d.histogram };
}

function costsToJson(c: CostSensitivity): Record<string, unknown> {
  return {
    fee_bps: c.feeBps,
    slippage_bps: c.slippageBps,
    slippage_base_bps: c.slippageBaseBps,
    rows: c.rows.map((r) => ({
      varied: r.varied,
      multiple: r.multiple,
      fee_bps: r.feeBps,
      slippage_bps: r.slippageBps,
      return_pct: r.returnPct,
      final_equity: r.finalEquity,
      fees_paid: r.feesPaid,
      trades: r.trades,
      sharpe: r.sharpe,
    })),
    break_even_fee_bps: c.breakEven.feeBps,
    break_even_tolerance_bps: c.breakEven.toleranceBps,
    break_even_note: c.breakEven.note,
  };
}

/** `optimize --json`: the stability map and walk-forward efficiency. */
export function stabilityToJson(map: StabilityMap | undefined, wfe: WalkForwardEfficiency | undefined): Record<string, unknown> {
  return {
    ...(map && {
      stability: {
        metric: map.metric,
        x: map.x,
        ...(map.y && { y: map.y }),
        cells: map.cells,
        best_over: map.bestOver,
        ...(map.best && { best: map.best }),
        neighbours: map.neighbours.map((n) => ({
          param: n.param,
          value: n.value,
          neighbours: n.neighbours,
          fall: n.fall,
          fall_pct: n.fallPct,
        })),
      },
    }),
    ...(wfe && {
      walk_forward_efficiency: {
        efficiency: wfe.efficiency,
        in_sample_mean: wfe.inSampleMean,
        out_of_sample_mean: wfe.outOfSampleMean,
        folds: wfe.folds,
        note: wfe.note,
      },
    }),
  };
}

/** Text lines on the map's neighbours and the efficiency (for the optimize table's foot). */
export function stabilityLines(map: StabilityMap | undefined, wfe: WalkForwardEfficiency | undefined): string[] {
  const out: string[] = [];
  if (map?.best) {
    out.push(
      `stability of the best (${Object.entries(map.best.params)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')}, ${map.metric} ${map.best.score.toFixed(3)}), one grid step away:`,
    );
    for (const n of map.neighbours) {
      const around = n.neighbours.map((x) => `${n.param}=${String(x.value)}: ${x.score === null ? 'n/a' : x.score.toFixed(3)}`).join(', ');
      const fall =
        n.fall === null ? 'no neighbour ran' : `falls by ${n.fall.toFixed(3)}${n.fallPct === null ? '' : ` (${n.fallPct.toFixed(1)} %)`}`;
      out.push(`  ${n.param}: ${fall}; ${around}`);
    }
  }
  if (wfe) out.push(`walk-forward efficiency: ${wfe.efficiency === null ? 'n/a' : wfe.efficiency.toFixed(3)} (${wfe.note})`);
  return out;
}
