/**
 * The divergence report for people (text lines, money at the asset's precision) and for machines
 * (`--json`: every decimal in full as a string). Both say where the runs first differ, what each
 * kind of difference cost, its likely cause, and the drift against `--max-drift`.
 */
import { formatMoney, type Dec } from '../../src/core/index.js';
import type { Difference, DifferenceCause } from './compare.js';
import { describeIntent } from './compare.js';
import type { DecisionRecord } from './journal.js';
import type { DivergenceReport } from './divergence.js';

/** What each cause means, in the words the report prints. */
export const CAUSE_TEXT: Readonly<Record<DifferenceCause, string>> = {
  'fill-model':
    'fill model: the replay fills against the recorded market (the book in force, or the next point), live filled against the venue at that moment',
  latency:
    'latency: an order meant to fill at once filled later than the tolerance on one side only, or live decided before its polled account had heard of its own fill',
  'data-gap':
    'data gap: the recording has no data for a while around this decision (a stream stalled or lines were dropped), or the replayed order reached the venue after the recording ended',
  'denial-one-side': 'a risk denial only one side saw (or a different denial code)',
  unexplained: 'no cause found: both sides saw the same recorded data; compare the journal events of the decision',
};

/** At most this many differences are listed in the text output (all are in --json and the HTML). */
export const LISTED_DIFFERENCES = 40;

/** Drift against the limit: exceeded when any quote asset's drift is above it. */
export function driftExceeded(report: DivergenceReport, maxDrift: Dec | undefined): boolean {
  return maxDrift !== undefined && Object.values(report.drift).some((d) => d.gt(maxDrift));
}

/** The report as text lines. */
export function divergenceLines(r: DivergenceReport, maxDrift: Dec | undefined): string[] {
  const out = [`divergence: ${r.recording} (replayed) against ${r.journal} (what happened); decisions paired within ${r.toleranceMs} ms`];
  for (const s of r.strategies) {
    out.push(`strategy ${s.name} on ${s.market}, ${s.fillModel} fill model, marked at ${s.mark.toFixed()}: ${s.paired} decisions paired`);
    out.push(`  live    ${side(s.live, s.quote)}`);
    out.push(`  replay  ${side(s.replay, s.quote)}`);
  }
  const first = r.differences[0];
  if (first === undefined) out.push('no differences: every decision, risk decision and fill matched');
  else {
    out.push(`first difference: #${first.index} at ${iso(first.at)}, ${first.strategy} decision ${first.seq}: ${first.detail}`);
    out.push(`  likely cause: ${CAUSE_TEXT[first.cause]}`);
    out.push(`differences: ${r.differences.length}`);
    for (const d of r.differences.slice(0, LISTED_DIFFERENCES)) out.push(`  ${differenceLine(d)}`);
    if (r.differences.length > LISTED_DIFFERENCES)
      out.push(`  … ${r.differences.length - LISTED_DIFFERENCES} more (all of them are in --json and report.html)`);
    for (const [q, kinds] of Object.entries(r.costByKind))
      out.push(
        `cost by kind (${q}, live minus replay): ${Object.entries(kinds)
          .map(([k, v]) => `${k} ${formatMoney(v, q)}`)
          .join(', ')}`,
      );
    for (const [q, causes] of Object.entries(r.costByCause))
      out.push(
        `cost by cause (${q}): ${Object.entries(causes)
          .map(([k, v]) => `${k} ${formatMoney(v, q)}`)
          .join(', ')}`,
      );
  }
  for (const [q, d] of Object.entries(r.drift)) {
    const limit =
      maxDrift === undefined
        ? ''
        : d.gt(maxDrift)
          ? ` — above --max-drift ${maxDrift.toFixed()} ${q}`
          : ` (within --max-drift ${maxDrift.toFixed()} ${q})`;
    out.push(`drift (|live P&L − replay P&L|): ${formatMoney(d, q)}${limit}`);
  }
  for (const n of r.notes) out.push(`note: ${n}`);
  return out;
}

function side(f: DivergenceReport['strategies'][number]['live'], quote: string): string {
  return `${f.decisions} decisions, ${f.denials} denied, ${f.fills} fills, P&L ${formatMoney(f.pnl, quote)}`;
}

/** One difference on one line: number, time, strategy and decision, kind, cost, cause, detail. */
export function differenceLine(d: Difference): string {
  const follows = d.follows === undefined ? '' : ` (follows #${d.follows})`;
  return `#${d.index} ${iso(d.at)} ${d.strategy}#${d.seq} ${d.kind} cost ${formatMoney(d.cost, d.quote)} · ${d.cause}${follows} · ${d.detail}`;
}

function iso(at: number): string {
  return new Date(at).toISOString();
}

/** The report as JSON (decimals as full-precision strings, times as epoch ms). */
export function divergenceToJson(r: DivergenceReport, maxDrift: Dec | undefined): Record<string, unknown> {
  return {
    recording: r.recording,
    journal: r.journal,
    tolerance_ms: r.toleranceMs,
    latency_ms: r.latencyMs,
    run: r.inputs.run,
    initial: r.inputs.initial,
    initial_from: r.inputs.initialFrom,
    strategies: r.strategies.map((s) => ({
      name: s.name,
      market: s.market,
      quote: s.quote,
      fill_model: s.fillModel,
      mark: s.mark.toFixed(),
      paired: s.paired,
      live: sideJson(s.live),
      replay: sideJson(s.replay),
    })),
    first_difference: r.differences[0] === undefined ? null : differenceJson(r.differences[0]),
    differences: r.differences.map(differenceJson),
    cost_by_kind: decimals(r.costByKind),
    cost_by_cause: decimals(r.costByCause),
    drift: Object.fromEntries(Object.entries(r.drift).map(([q, d]) => [q, d.toFixed()])),
    max_drift: maxDrift?.toFixed() ?? null,
    drift_exceeded: driftExceeded(r, maxDrift),
    gaps: r.gaps,
    notes: r.notes,
  };
}

function sideJson(f: DivergenceReport['strategies'][number]['live']): Record<string, unknown> {
  return { decisions: f.decisions, denials: f.denials, fills: f.fills, pnl: f.pnl.toFixed() };
}

function differenceJson(d: Difference): Record<string, unknown> {
  return {
    index: d.index,
    strategy: d.strategy,
    seq: d.seq,
    at: d.at,
    kind: d.kind,
    detail: d.detail,
    cost: d.cost.toFixed(),
    quote: d.quote,
    cause: d.cause,
    cause_text: CAUSE_TEXT[d.cause],
    follows: d.follows ?? null,
    live: d.live ? decisionJson(d.live) : null,
    replay: d.replay ? decisionJson(d.replay) : null,
  };
}

function decisionJson(d: DecisionRecord): Record<string, unknown> {
  return {
    ref_id: d.refId,
    seq: d.seq,
    at: d.at,
    intent: describeIntent(d),
    kind: d.kind,
    market: d.market ?? null,
    side: d.side ?? null,
    decision: d.decision,
    denial_code: d.denialCode ?? null,
    fills: d.fills.map((f) => ({
      at: f.at,
      price: f.price.toFixed(),
      amount: f.amount.toFixed(),
      fee: f.fee.toFixed(),
      fee_asset: f.feeAsset,
    })),
  };
}

function decimals(m: Readonly<Record<string, Readonly<Partial<Record<string, Dec>>>>>): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(m).map(([q, kinds]) => [q, Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v!.toFixed()]))]),
  );
}
