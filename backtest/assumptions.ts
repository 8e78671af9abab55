/**
 * The assumptions manifest (issue 25): what every backtest report states before anyone trusts its
 * figures — the fill model, fee, slippage, latency, where the data came from and where it has gaps,
 * the strategy's warm-up, and the risk rules the gate applied. The same data goes to `--json`
 * (`manifest`, snake_case), the text summary and report.html's Assumptions table.
 *
 * A gap is an interval between two points longer than GAP_FACTOR times the data's median spacing
 * (a missed poll in a recording, a weekend in a cache of weekday data, an outage).
 */
import type { RiskLimits } from '../src/risk/limits.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import type { WarmUpSource } from './recorded-series.js';
import type { LimitOrigin } from './limits.js';
import { warmUpOf } from './warm-up-note.js';

/** An interval longer than this many median spacings is a gap. */
export const GAP_FACTOR = 3;

export interface DataGaps {
  readonly count: number;
  /** Intervals longer than this (ms) count (GAP_FACTOR × the median spacing). */
  readonly thresholdMs: number | null;
  /** The longest interval between two points, and where it is. */
  readonly largest?: { readonly fromAt: number; readonly toAt: number; readonly ms: number };
  /** Total time inside the gaps (ms). */
  readonly missingMs: number;
}

export interface RiskRule {
  readonly rule: string;
  readonly value: string;
  readonly active: boolean;
  /** The config key that sets it, e.g. `risk.max_order_notional`. */
  readonly key: string;
  /** Where its value came from: the config file or the schema's default (absent: not known). */
  readonly from?: LimitOrigin;
}

export interface AssumptionsManifest {
  readonly fillModel: { readonly name: string; readonly rule: string };
  readonly feeBps: number;
  /** The --slippage-bps given (0 for the book model, where it does not apply: see `slippage`). */
  readonly slippageBps: number;
  /** The slippage a run assumed: a bps figure (point model), or none for the book model, whose walk is the slippage. */
  readonly slippage: { readonly bps: number | null; readonly note: string };
  /** Decision-to-venue latency in ms, or null for the point model (the next point is the delay). */
  readonly latency: { readonly ms: number | null; readonly note: string };
  readonly data: {
    readonly source: string;
    readonly points: number;
    readonly firstAt: number | null;
    readonly lastAt: number | null;
    readonly medianSpacingMs: number | null;
    readonly gaps: DataGaps;
  };
  readonly warmUp: { readonly points: number | null; readonly param?: string; readonly note: string };
  /** What a recording's replay built each market's declared bars from (absent: not said, or no bars). */
  readonly bars?: readonly string[];
  readonly initial: Readonly<Record<string, string>>;
  readonly riskRules: readonly RiskRule[];
}

export interface ManifestInput {
  readonly fillModel?: { readonly name: string; readonly rule: string };
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly latencyMs?: number;
  readonly source: string;
  readonly times: Float64Array;
  readonly definition?: Pick<StrategyDefinition, 'warmUp'>;
  readonly params: Readonly<Record<string, unknown>>;
  readonly initial: Readonly<Record<string, string>>;
  readonly limits: RiskLimits;
  /** Where each limit came from, by risk key (see limits.ts). */
  readonly limitsFrom?: Readonly<Record<string, LimitOrigin>>;
  /**
   * A recording's warm-up history the replay warmed the strategy on (both fill models): how many
   * events and where they came from. Absent for price files and the history cache.
   */
  readonly warmedOn?: { readonly events: number; readonly from: WarmUpSource };
  /**
   * A recording's replay of a bar strategy: what each market's bars were built from (its trades or its
   * prices, as the recorded run built them), one line per market.
   */
  readonly bars?: readonly string[];
}

/** Builds the manifest from what a run was given. */
export function buildManifest(input: ManifestInput): AssumptionsManifest {
  const t = input.times;
  const n = t.length;
  const spacing = medianSpacing(t);
  return {
    fillModel: input.fillModel ?? { name: 'points', rule: 'see docs/backtest.md, "Replay and fills"' },
    feeBps: input.feeBps,
    slippageBps: input.slippageBps,
    slippage: slippageOf(input),
    latency:
      input.latencyMs !== undefined
        ? { ms: input.latencyMs, note: `${input.latencyMs} ms from decision to venue` }
        : { ms: null, note: 'no clock latency: an order made at one point acts at the next point, so the delay is one point spacing' },
    data: {
      source: input.source,
      points: n,
      firstAt: n ? t[0]! : null,
      lastAt: n ? t[n - 1]! : null,
      medianSpacingMs: spacing,
      gaps: gapsOf(t, spacing),
    },
    warmUp: warmUpLine(input),
    ...(input.bars !== undefined && input.bars.length > 0 && { bars: input.bars }),
    initial: input.initial,
    riskRules: riskRulesOf(input.limits, input.limitsFrom),
  };
}

/** The book model adds no slippage figure: its fills are the recorded levels' prices, so the walk is the slippage. */
function slippageOf(input: ManifestInput): AssumptionsManifest['slippage'] {
  if (input.fillModel?.name === 'book') {
    return {
      bps: null,
      note: "none added: the book model fills at the recorded levels' prices, so walking the book is the slippage (a thin book fills worse, or only in part); no bps figure applies",
    };
  }
  return { bps: input.slippageBps, note: `${input.slippageBps} bps against the trader` };
}

function warmUpLine(input: ManifestInput): AssumptionsManifest['warmUp'] {
  const w = warmUpOf(input.params, input.definition);
  const warmed = input.warmedOn !== undefined && input.warmedOn.events > 0 ? input.warmedOn : undefined;
  const before =
    warmed === undefined
      ? `the strategy starts cold at the first point (${input.warmedOn === undefined ? 'no history is loaded before it' : 'the recording holds no warm-up history: neither its header nor history lines'})`
      : `warmed first on the recorded run's warm-up history, as it was live: ${warmed.events.toLocaleString('en-US')} price${warmed.events === 1 ? '' : 's'} from ${warmed.from === 'header' ? "the recording's header" : 'its history: lines (a recording from before headers held them)'}`;
  if (w === undefined) return { points: null, note: `not declared and no period param: ${before}` };
  const by = w.param !== undefined ? ` (${w.param}=${w.points})` : ' (declared by the strategy)';
  // N points seen before it can decide: the Nth can bring its first decision
  const left = w.points - (warmed?.events ?? 0);
  const then =
    warmed === undefined
      ? `so it cannot decide in its first ${w.points} points`
      : left <= 1
        ? 'so it can decide from the first recorded point'
        : `so it needs ${left.toLocaleString('en-US')} more points before it can decide`;
  return { points: w.points, ...(w.param !== undefined && { param: w.param }), note: `${w.points} points${by}: ${before}, ${then}` };
}

/** The median of the intervals between consecutive points (null with fewer than 2 points). */
export function medianSpacing(times: Float64Array): number | null {
  if (times.length < 2) return null;
  // most series have one spacing for more than half their intervals: that spacing is then the median
  // (its run in the sorted intervals covers the middle), found in two passes with no copy or sort
  const common = majoritySpacing(times);
  if (common !== undefined) return common;
  const d = new Float64Array(times.length - 1);
  for (let i = 1; i < times.length; i++) d[i - 1] = times[i]! - times[i - 1]!;
  d.sort();
  const mid = d.length >> 1;
  return d.length % 2 ? d[mid]! : (d[mid - 1]! + d[mid]!) / 2;
}

/** The spacing of more than half the intervals (Boyer-Moore's majority vote, then a count), or undefined. */
function majoritySpacing(times: Float64Array): number | undefined {
  let candidate = 0;
  let votes = 0;
  for (let i = 1; i < times.length; i++) {
    const d = times[i]! - times[i - 1]!;
    if (votes === 0) candidate = d;
    votes += d === candidate ? 1 : -1;
  }
  let count = 0;
  for (let i = 1; i < times.length; i++) if (times[i]! - times[i - 1]! === candidate) count++;
  return count * 2 > times.length - 1 ? candidate : undefined;
}

/** The intervals longer than GAP_FACTOR × the median spacing. */
export function gapsOf(times: Float64Array, spacing = medianSpacing(times)): DataGaps {
  if (spacing === null || !(spacing > 0)) return { count: 0, thresholdMs: null, missingMs: 0 };
  const threshold = GAP_FACTOR * spacing;
  let count = 0;
  let missing = 0;
  let largest: DataGaps['largest'];
  for (let i = 1; i < times.length; i++) {
    const ms = times[i]! - times[i - 1]!;
    if (largest === undefined || ms > largest.ms) largest = { fromAt: times[i - 1]!, toAt: times[i]!, ms };
    if (ms > threshold) {
      count++;
      missing += ms - spacing;
    }
  }
  return { count, thresholdMs: threshold, ...(largest && { largest }), missingMs: missing };
}

/** Every rule of the risk gate with its value; the kill switch's two rules are active only when set. */
export function riskRulesOf(l: RiskLimits, from?: Readonly<Record<string, LimitOrigin>>): RiskRule[] {
  const positions = Object.entries(l.max_position)
    .map(([a, v]) => `${a} ${v}`)
    .join(', ');
  const rule = (key: keyof RiskLimits, name: string, value: string, active: boolean): RiskRule => ({
    rule: name,
    value,
    active,
    key: `risk.${key}`,
    ...(from?.[key] !== undefined && { from: from[key] }),
  });
  return [
    rule(
      'allowed_markets',
      'allowed markets',
      l.allowed_markets.length ? l.allowed_markets.join(', ') : 'any trading market',
      l.allowed_markets.length > 0,
    ),
    rule('max_order_notional', 'max order notional', l.max_order_notional, true),
    rule('min_order_notional', 'min order notional', l.min_order_notional, true),
    rule('max_position', 'max position', positions || 'no cap per asset', positions !== ''),
    rule('max_open_orders', 'max open orders', String(l.max_open_orders), true),
    rule('max_intents_per_minute', 'max intents per minute', String(l.max_intents_per_minute), true),
    rule('price_band_bps', 'price band', `${l.price_band_bps} bps from mid`, true),
    rule('stale_after_ms', 'stale data', `older than ${l.stale_after_ms} ms blocks orders`, true),
    rule('min_quote_time_left_ms', 'min quote time left', `${l.min_quote_time_left_ms} ms`, true),
    rule('fee_bps', 'fee assumed by the balance check', `${l.fee_bps} bps`, true),
    rule('daily_loss_limit', 'kill switch: daily loss limit', l.daily_loss_limit ?? 'off', l.daily_loss_limit !== undefined),
    rule(
      'max_drawdown_pct',
      'kill switch: max drawdown',
      l.max_drawdown_pct !== undefined ? `${l.max_drawdown_pct} %` : 'off',
      l.max_drawdown_pct !== undefined,
    ),
  ];
}

/** The manifest as `--json` prints it (snake_case). */
export function manifestToJson(m: AssumptionsManifest): Record<string, unknown> {
  const g = m.data.gaps;
  return {
    fill_model: m.fillModel.name,
    fill_rule: m.fillModel.rule,
    fee_bps: m.feeBps,
    slippage_bps: m.slippage.bps,
    slippage: m.slippage.note,
    latency_ms: m.latency.ms,
    latency: m.latency.note,
    data: {
      source: m.data.source,
      points: m.data.points,
      first: iso(m.data.firstAt),
      last: iso(m.data.lastAt),
      median_spacing_ms: m.data.medianSpacingMs,
      gaps: {
        count: g.count,
        threshold_ms: g.thresholdMs,
        missing_ms: g.missingMs,
        ...(g.largest && { largest: { from: iso(g.largest.fromAt), to: iso(g.largest.toAt), ms: g.largest.ms } }),
      },
    },
    warm_up: { points: m.warmUp.points, ...(m.warmUp.param !== undefined && { param: m.warmUp.param }), note: m.warmUp.note },
    ...(m.bars !== undefined && { bars: m.bars }),
    initial: m.initial,
    risk_rules: m.riskRules.map((r) => ({
      rule: r.rule,
      value: r.value,
      active: r.active,
      key: r.key,
      ...(r.from !== undefined && { from: r.from }),
    })),
  };
}

/** Label/value rows for people: the report's Assumptions table and the text summary. */
export function manifestRows(m: AssumptionsManifest, durationText: (ms: number) => string): [string, string][] {
  const d = m.data;
  const g = d.gaps;
  const span = d.firstAt !== null && d.lastAt !== null ? `${iso(d.firstAt)} to ${iso(d.lastAt)}` : 'no points';
  const every = d.medianSpacingMs !== null ? `, every ${durationText(d.medianSpacingMs)} (median)` : '';
  const gaps =
    g.count === 0
      ? `none (no interval longer than ${g.thresholdMs === null ? 'the spacing' : durationText(g.thresholdMs)})`
      : `${g.count} interval${g.count === 1 ? '' : 's'} longer than ${durationText(g.thresholdMs!)}, ${durationText(g.missingMs)} missing in all; the longest ${durationText(g.largest!.ms)} from ${iso(g.largest!.fromAt)} to ${iso(g.largest!.toAt)}`;
  const active = m.riskRules
    .filter((r) => r.active)
    .map((r) => `${r.rule} ${r.value}${r.from !== undefined ? ` (${r.from === 'file' ? r.key : 'default'})` : ''}`);
  const off = m.riskRules.filter((r) => !r.active).map((r) => r.rule);
  return [
    ['Fill model', `${m.fillModel.name}: ${m.fillModel.rule}`],
    ['Fee', `${m.feeBps} bps (${(m.feeBps / 100).toFixed(2)} % of traded notional)`],
    ['Slippage', m.slippage.note],
    ['Latency', m.latency.note],
    ['Data', `${d.source}: ${d.points.toLocaleString('en-US')} points, ${span}${every}`],
    ['Data gaps', gaps],
    ['Warm-up', m.warmUp.note],
    ...(m.bars ?? []).map((line): [string, string] => ['Bars', line]),
    [
      'Initial balance',
      Object.entries(m.initial)
        .map(([a, v]) => `${a}=${v}`)
        .join(', '),
    ],
    ['Risk rules active', active.join('; ')],
    ['Risk rules off', off.length ? off.join('; ') : 'none'],
  ];
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z');
}
