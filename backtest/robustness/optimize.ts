/**
 * What `tradeloop optimize` adds for issue 25: the parameter-stability map and walk-forward
 * efficiency (robustness-stability.ts) in its table, `--json` and `--out DIR/report.html` (the heat map,
 * the neighbours' falls, the folds, the ranked rows and the assumptions manifest), and
 * `DIR/results.csv` with every combination.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RiskLimits } from '../../src/risk/limits.js';
import type { StrategyDefinition } from '../../src/strategy/define.js';
import { resolveParams } from '../../src/strategy/params.js';
import { type AssumptionsManifest, buildManifest, manifestRows, type ManifestInput } from '../assumptions.js';
import type { Grid } from '../optimize/grid.js';
import { OPTIMIZE_METRICS, type OptimizeResult, type OptimizeRow } from '../optimize/optimize.js';
import { escapeHtml, renderPlainHtml } from '../report/html.js';
import { DEFAULT_FILL_RULE, duration, sectionsOf } from '../report/report.js';
import { stabilitySection } from './html.js';
import { stabilityMap, type StabilityMap, walkForwardEfficiency, type WalkForwardEfficiency } from './stability.js';
import { warmUpOf } from '../warm-up-note.js';

export interface OptimizeRobustness {
  readonly map?: StabilityMap;
  readonly efficiency?: WalkForwardEfficiency;
}

/** The map (when a parameter varies) and the efficiency (with walk-forward folds). */
export function optimizeRobustness(grid: Grid, result: OptimizeResult, withMap = true): OptimizeRobustness {
  // the map needs a grid: the scattered trials of --search random|tpe have no neighbours one step away
  const map = withMap ? stabilityMap(grid, result.rows, result.metric) : undefined;
  const efficiency = result.walkForward && walkForwardEfficiency(result.walkForward, result.metric, OPTIMIZE_METRICS[result.metric]);
  return { ...(map && { map }), ...(efficiency && { efficiency }) };
}

export interface OptimizeReportInput {
  readonly strategy: string;
  readonly source: string;
  readonly points: number;
  readonly grid: Grid;
  readonly result: OptimizeResult;
  readonly robustness: OptimizeRobustness;
  readonly manifest: AssumptionsManifest;
  /** Sentences shown above the ranked rows (the deflated Sharpe ratio and edge warnings). */
  readonly notes?: readonly string[];
  /** Ranked rows shown in the page (default 50; results.csv has all). */
  readonly topRows?: number;
}

/** Writes report.html and results.csv into `outDir`; returns their paths. */
export function writeOptimizeReport(outDir: string, input: OptimizeReportInput): { html: string; csv: string } {
  mkdirSync(outDir, { recursive: true });
  const files = { html: join(outDir, 'report.html'), csv: join(outDir, 'results.csv') };
  const { result, grid } = input;
  const key = OPTIMIZE_METRICS[result.metric];
  const section = stabilitySection(input.robustness.map, input.robustness.efficiency);
  const shown = result.rows.slice(0, input.topRows ?? 50);
  const head = ['rank', ...grid.names, key, 'out of sample', 'error'];
  const body = shown.map((r) => [
    r.rank === null ? 'failed' : String(r.rank),
    ...grid.names.map((n) => String(r.params[n])),
    fmt(r.score),
    r.outOfSampleScore === undefined ? '' : fmt(r.outOfSampleScore),
    r.error ?? '',
  ]);
  const notes = (input.notes ?? []).map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n');
  const ranked = `<h2>Luck</h2>
${notes}
<h2>Ranked by ${escapeHtml(key)}</h2>
<table class="trades"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>
${body.map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>
<p class="note">${escapeHtml(`${shown.length} of ${result.rows.length} combinations listed; results.csv holds all of them.`)}</p>`;
  writeFileSync(
    files.html,
    renderPlainHtml({
      title: `optimize ${input.strategy}`,
      subtitle: `${result.combinations} combinations × ${input.points.toLocaleString('en-US')} points · ${input.source}`,
      tables: [{ heading: 'Assumptions', rows: manifestRows(input.manifest, duration) }],
      body: ranked,
      extra: sectionsOf([section]),
    }),
  );
  writeFileSync(files.csv, resultsCsv(result, grid.names));
  return files;
}

/**
 * Every trial with every metric: over the whole series, or with walk-forward the mean across folds in
 * sample (`in_…`) and out of sample (`out_…`); the ranking score and its out-of-sample value first.
 */
export function resultsCsv(result: OptimizeResult, names: readonly string[]): string {
  const key = OPTIMIZE_METRICS[result.metric];
  const search = result.rows.some((r) => r.trial !== undefined);
  const walk = result.rows.some((r) => r.folds);
  const figures = [...new Set(result.rows.flatMap((r) => Object.keys(r.metrics ?? r.folds?.[0]?.inSample ?? {})))];
  const metricCols = walk ? [...figures.map((f) => `in_${f}`), ...figures.map((f) => `out_${f}`)] : figures;
  const foldMean = (r: OptimizeRow, side: 'inSample' | 'outOfSample', f: string): string => {
    const v = (r.folds ?? []).map((x) => x[side][f]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    return v.length === 0 ? '' : String(v.reduce((a, b) => a + b, 0) / v.length);
  };
  const cellsOf = (r: OptimizeRow): string[] =>
    walk
      ? [...figures.map((f) => foldMean(r, 'inSample', f)), ...figures.map((f) => foldMean(r, 'outOfSample', f))]
      : figures.map((f) => {
          const v = r.metrics?.[f];
          return v === null || v === undefined ? '' : String(v);
        });
  const head = ['rank', ...(search ? ['trial'] : []), ...names.map(csvText), key, `${key}_out_of_sample`, ...metricCols, 'error'];
  const lines = result.rows.map((r) =>
    [
      r.rank ?? '',
      ...(search ? [r.trial ?? ''] : []),
      ...names.map((n) => csvText(String(r.params[n]))),
      r.score ?? '',
      r.outOfSampleScore ?? '',
      ...cellsOf(r),
      csvText(r.error ?? (r.pruned ? `stopped early: first fold ${r.pruned.score ?? 'n/a'} below the median ${r.pruned.median}` : '')),
    ].join(','),
  );
  return `${head.join(',')}\n${lines.map((l) => `${l}\n`).join('')}`;
}

function fmt(v: number | null | undefined): string {
  return v === null || v === undefined ? 'n/a' : v.toFixed(3);
}

function csvText(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export interface OptimizeManifestInput {
  readonly definition: StrategyDefinition;
  readonly baseParams: Readonly<Record<string, unknown>>;
  readonly grid: Grid;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly initial: Readonly<Record<string, string>>;
  readonly limits: RiskLimits;
  /** Where each limit came from (see limits.ts). */
  readonly limitsFrom?: ManifestInput['limitsFrom'];
  readonly source: string;
  readonly times: Float64Array;
  /** How the trials filled (default: the point rule). */
  readonly fillRule?: string;
}

/** The manifest of an optimize run; its warm-up is the longest of any combination (the first 1,000 looked at). */
export function optimizeManifest(input: OptimizeManifestInput): AssumptionsManifest {
  let longest: Readonly<Record<string, unknown>> | undefined;
  let points = -1;
  for (const combo of input.grid.combinations.slice(0, 1000)) {
    let params: Record<string, unknown>;
    try {
      params = resolveParams(input.definition, { ...input.baseParams, ...combo }, '--grid');
    } catch {
      continue; // a refused combination is listed as failed by the optimizer
    }
    const w = warmUpOf(params, input.definition)?.points ?? 0;
    if (w > points) [points, longest] = [w, params];
  }
  return buildManifest({
    ...input,
    fillModel: { name: 'points', rule: input.fillRule ?? DEFAULT_FILL_RULE },
    definition: input.definition,
    params: longest ?? input.baseParams,
  });
}
