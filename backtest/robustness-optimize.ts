/**
 * What `tradeloop optimize` adds for issue 25: the parameter-stability map and walk-forward
 * efficiency (robustness-stability.ts) in its table, `--json` and `--out DIR/report.html` (the heat map,
 * the neighbours' falls, the folds, the ranked rows and the assumptions manifest), and
 * `DIR/results.csv` with every combination.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RiskLimits } from '../src/risk/limits.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import { resolveParams } from '../src/strategy/params.js';
import { type AssumptionsManifest, buildManifest, manifestRows } from './assumptions.js';
import type { Grid } from './grid.js';
import { OPTIMIZE_METRICS, type OptimizeResult } from './optimize.js';
import { escapeHtml, renderPlainHtml } from './report-html.js';
import { DEFAULT_FILL_RULE, duration, sectionsOf } from './report.js';
import { stabilitySection } from './robustness-html.js';
import { stabilityMap, type StabilityMap, walkForwardEfficiency, type WalkForwardEfficiency } from './robustness-stability.js';
import { warmUpOf } from './warm-up-note.js';

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
  const body = shown.map((r) => [r.rank === null ? 'failed' : String(r.rank), ...grid.names.map((n) => String(r.params[n])), fmt(r.score), r.outOfSampleScore === undefined ? '' : fmt(r.outOfSampleScore), r.error ?? '']);
  const ranked = `<h2>Ranked by ${escapeHtml(key)}</h2>
<table class="trades"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>
${body.map((row) => `<tr>${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>
<p class="note">${escapeHtml(`${shown.length} of ${result.rows.length} combinations listed; results.csv holds all of them.`)}</p>`;
  writeFileSync(files.html, renderPlainHtml({
    title: `optimize ${input.strategy}`,
    subtitle: `${result.combinations} combinations × ${input.points.toLocaleString('en-US')} points · ${input.source}`,
    tables: [{ heading: 'Assumptions', rows: manifestRows(input.manifest, duration) }],
    body: ranked,
    extra: sectionsOf([section]),
  }));
  const csvRows = result.rows.map((r) => [r.rank ?? '', ...grid.names.map((n) => csvText(String(r.params[n]))), r.score ?? '', r.outOfSampleScore ?? '', csvText(r.error ?? '')].join(','));
  writeFileSync(files.csv, `${['rank', ...grid.names.map(csvText), key, `${key}_out_of_sample`, 'error'].join(',')}\n${csvRows.map((l) => `${l}\n`).join('')}`);
  return files;
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
  readonly source: string;
  readonly times: Float64Array;
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
  return buildManifest({ ...input, fillModel: { name: 'points', rule: DEFAULT_FILL_RULE }, definition: input.definition, params: longest ?? input.baseParams });
}
