/**
 * Compares paired decisions field by field (intent, risk decision, fills) and says what each
 * difference cost and why it most likely happened. Cost is exact decimal in the quote asset: a
 * decision's P&L contribution is the quote its fills moved (sells received, buys paid, quote fees
 * paid) plus the base they moved valued at the recording's last mark; a difference costs the live
 * contribution minus the replay's, so the costs of all differences add up to the whole P&L gap.
 */
import { assetDecimals, D, splitMarket, type Dec, type Intent } from '../../src/core/index.js';
import { formatDecimal } from '../../src/core/money-format.js';
import type { DecisionRecord, FillRecord } from './journal.js';
import type { DecisionPair } from './match.js';

/** What differs. */
export type DifferenceKind = 'intent-only-live' | 'intent-only-replay' | 'intent-fields' | 'risk-decision' | 'fill';

/** The likely cause. */
export type DifferenceCause = 'fill-model' | 'latency' | 'data-gap' | 'denial-one-side' | 'unexplained';

export interface Difference {
  /** 1-based, in time order over all strategies. */
  readonly index: number;
  readonly strategy: string;
  /** The quote asset its cost is in. */
  readonly quote: string;
  /** The decision's number in its strategy's sequence (live, else replay). */
  readonly seq: number;
  readonly at: number;
  readonly kind: DifferenceKind;
  /** What differs, for a person. */
  readonly detail: string;
  /** Live P&L contribution minus the replay's, quote asset, exact (negative: live did worse). */
  readonly cost: Dec;
  readonly cause: DifferenceCause;
  /** For a difference that follows an earlier one of its strategy: that one's index (its cause is inherited). */
  readonly follows?: number;
  readonly live?: DecisionRecord;
  readonly replay?: DecisionRecord;
}

/** A recording interval with no data (longer than the gap threshold). */
export interface DataGap {
  readonly from: number;
  readonly to: number;
}

export interface CompareContext {
  readonly market: string;
  /** The last recorded mark (mid or price), the value of base held at the end. */
  readonly mark: Dec;
  readonly toleranceMs: number;
  readonly gaps: readonly DataGap[];
  /** Receive times of the recording's balances responses, ascending: when the live account view caught up. */
  readonly balancesAt: readonly number[];
  /** Every fill the live run had (time), to tell a denial made before its account heard of one. */
  readonly liveFillTimes: readonly number[];
  /** The replay's decision-to-venue latency and the recording's last time: an order arriving later has no data to fill on. */
  readonly latencyMs?: number;
  readonly recordingEnd?: number;
}

/** A decision's P&L contribution in the quote asset at `mark` (see the file's note). */
export function contribution(d: DecisionRecord | undefined, market: string, mark: Dec): Dec {
  if (d === undefined) return new D(0);
  const { base } = splitMarket(market);
  let total = new D(0);
  for (const f of d.fills) {
    const notional = f.price.times(f.amount);
    const buy = d.side === 'BUY';
    total = buy ? total.minus(notional).plus(f.amount.times(mark)) : total.plus(notional).minus(f.amount.times(mark));
    total = f.feeAsset === base ? total.minus(f.fee.times(mark)) : total.minus(f.fee);
  }
  return total;
}

/** A difference before it is numbered; `inherited`: its cause is that of its strategy's first difference. */
export type StrategyDifference = Omit<Difference, 'index' | 'follows'> & { readonly inherited: boolean };

/** The differences of one strategy's aligned pairs, each with its cost and likely cause. */
export function compareStrategy(
  strategy: string,
  pairs: readonly DecisionPair[],
  ctx: CompareContext,
  refMap: ReadonlyMap<string, string>,
): StrategyDifference[] {
  const out: StrategyDifference[] = [];
  let first: { cause: DifferenceCause; at: number } | undefined;
  for (const p of pairs) {
    const found = differenceOf(p, ctx, refMap);
    if (found === undefined) continue;
    const d = p.live ?? p.replay!;
    const own = causeOf(found.kind, p, ctx);
    // after the first difference the strategy's state (position, balances, orders) differs: later
    // intent and denial differences are that one's consequence; fills and data gaps keep their own
    const inherits = first !== undefined && found.kind !== 'fill' && own !== 'data-gap';
    const cause = inherits ? first!.cause : own;
    out.push({
      strategy,
      quote: splitMarket(ctx.market).quote,
      seq: d.seq,
      at: d.at,
      kind: found.kind,
      detail: found.detail,
      cause,
      inherited: inherits,
      cost: contribution(p.live, ctx.market, ctx.mark).minus(contribution(p.replay, ctx.market, ctx.mark)),
      ...(p.live && { live: p.live }),
      ...(p.replay && { replay: p.replay }),
    });
    first ??= { cause, at: d.at };
  }
  return out;
}

function differenceOf(
  p: DecisionPair,
  ctx: CompareContext,
  refMap: ReadonlyMap<string, string>,
): { kind: DifferenceKind; detail: string } | undefined {
  const { live, replay } = p;
  if (replay === undefined) return { kind: 'intent-only-live', detail: `only live made ${describeIntent(live!)}` };
  if (live === undefined) return { kind: 'intent-only-replay', detail: `only the replay made ${describeIntent(replay)}` };
  const fields = intentFieldDiffs(live.intent, replay.intent, refMap);
  if (fields.length > 0) return { kind: 'intent-fields', detail: `${live.kind} differs: ${fields.join('; ')}` };
  if (live.decision !== replay.decision || live.denialCode !== replay.denialCode) {
    return { kind: 'risk-decision', detail: `risk gate: live ${decisionText(live)}, replay ${decisionText(replay)}` };
  }
  const fills = fillDiffs(live.fills, replay.fills, ctx.toleranceMs, ctx.market);
  if (fills.length > 0) return { kind: 'fill', detail: `fills differ: ${fills.join('; ')}` };
  return undefined;
}

const FIELDS = ['type', 'baseAmount', 'quoteAmount', 'price', 'stopPrice', 'timeInForce', 'limitPrice', 'asset', 'amount'] as const;

/** Field differences of two intents of the same kind; cancel targets compared through the pairing. */
function intentFieldDiffs(a: Intent, b: Intent, refMap: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const f of FIELDS) {
    const [x, y] = [ra[f], rb[f]];
    if (x === y) continue;
    if (typeof x === 'string' && typeof y === 'string' && /^-?\d*\.?\d+$/.test(x) && /^-?\d*\.?\d+$/.test(y) && new D(x).eq(y)) continue;
    out.push(`${f} live ${x === undefined ? '(none)' : String(x)}, replay ${y === undefined ? '(none)' : String(y)}`);
  }
  if (a.kind === 'cancel-order' && b.kind === 'cancel-order' && refMap.get(a.orderRefId) !== b.orderRefId) {
    out.push(`cancels live ${a.orderRefId}, replay ${b.orderRefId} (not the same order)`);
  }
  return out;
}

/**
 * Two values as people read them: at `decimals` (the asset's precision), or in full when they look the
 * same there (the JSON keeps every fill in full either way).
 */
function shownPair(a: Dec, b: Dec, decimals: number): [string, string] {
  const [x, y] = [formatDecimal(a, decimals), formatDecimal(b, decimals)];
  return x === y ? [a.toFixed(), b.toFixed()] : [x, y];
}

function fillDiffs(live: readonly FillRecord[], replay: readonly FillRecord[], toleranceMs: number, market: string): string[] {
  const { base, quote } = splitMarket(market);
  const sum = (fs: readonly FillRecord[], f: (x: FillRecord) => Dec): Dec => fs.reduce((s, x) => s.plus(f(x)), new D(0));
  const [la, ra] = [sum(live, (f) => f.amount), sum(replay, (f) => f.amount)];
  const out: string[] = [];
  if (!la.eq(ra)) {
    const [x, y] = shownPair(la, ra, assetDecimals(base));
    out.push(`amount live ${x}, replay ${y}`);
  }
  const vwap = (fs: readonly FillRecord[], amount: Dec): Dec | undefined =>
    amount.isZero() ? undefined : sum(fs, (f) => f.price.times(f.amount)).div(amount);
  const [lp, rp] = [vwap(live, la), vwap(replay, ra)];
  if (lp !== undefined && rp !== undefined && !lp.eq(rp)) {
    const [x, y] = shownPair(lp, rp, assetDecimals(quote));
    out.push(`average price live ${x}, replay ${y}`);
  }
  const [lf, rf] = [sum(live, (f) => f.fee), sum(replay, (f) => f.fee)];
  if (!lf.eq(rf)) {
    const feeAsset = live[0]?.feeAsset ?? replay[0]?.feeAsset ?? quote;
    const [x, y] = shownPair(lf, rf, assetDecimals(feeAsset));
    out.push(`fee live ${x} ${feeAsset}, replay ${y} ${feeAsset}`);
  }
  const [lt, rt] = [live[0]?.at, replay[0]?.at];
  if (lt !== undefined && rt !== undefined && Math.abs(lt - rt) > toleranceMs)
    out.push(`first fill live ${new Date(lt).toISOString()}, replay ${new Date(rt).toISOString()}`);
  return out;
}

/** The likely cause of a difference seen on its own (before what came earlier is considered). */
function causeOf(kind: DifferenceKind, p: DecisionPair, ctx: CompareContext): DifferenceCause {
  const d = p.live ?? p.replay!;
  const ends = [d.at, ...(p.live?.fills ?? []).map((f) => f.at), ...(p.replay?.fills ?? []).map((f) => f.at)];
  const until = Math.max(...ends);
  if (ctx.gaps.some((g) => g.from <= until && g.to >= d.at - ctx.toleranceMs)) return 'data-gap';
  if (
    kind === 'fill' &&
    p.replay?.fills.length === 0 &&
    ctx.recordingEnd !== undefined &&
    p.replay.at + (ctx.latencyMs ?? 0) > ctx.recordingEnd
  )
    return 'data-gap';
  switch (kind) {
    case 'risk-decision':
      return staleAccount(p, ctx) ? 'latency' : 'denial-one-side';
    case 'fill':
      return latencyShows(p, ctx.toleranceMs) ? 'latency' : 'fill-model';
    case 'intent-only-live':
      // a live intent the replay never made, decided before the polled balances showed a live fill
      // (a second exit right after the first filled): the live account view lagged, not the data
      return p.live !== undefined && ctx.balancesAt.length > 0 && unpolledFillBefore(p.live.at, ctx) ? 'latency' : 'unexplained';
    case 'intent-only-replay':
    case 'intent-fields':
      return 'unexplained';
  }
}

const ACCOUNT_CODES = new Set(['INSUFFICIENT_BALANCE', 'MAX_POSITION']);

/**
 * A live denial for balance or position that the replay approved, made after a live fill but before
 * the next balances response: the live account view had not caught up with its own fill (it is
 * polled), while the replay's venue reports a fill at once.
 */
function staleAccount(p: DecisionPair, ctx: CompareContext): boolean {
  const { live, replay } = p;
  // without recorded balances (a paper run on real data polls none) there is no polled view to lag
  if (
    ctx.balancesAt.length === 0 ||
    live?.decision !== 'deny' ||
    replay?.decision !== 'approve' ||
    !ACCOUNT_CODES.has(live.denialCode ?? '')
  )
    return false;
  return unpolledFillBefore(live.at, ctx);
}

/** Whether a live fill came at or before `at` with no balances response between them (the polled account had not heard of it). */
function unpolledFillBefore(at: number, ctx: CompareContext): boolean {
  return ctx.liveFillTimes.some((t) => t <= at && !ctx.balancesAt.some((b) => b >= t && b <= at));
}

/** An order meant to fill at once whose fills came later than the tolerance on one side only. */
function latencyShows(p: DecisionPair, toleranceMs: number): boolean {
  const immediate = (d: DecisionRecord): boolean => {
    const i = d.intent;
    return (
      i.kind === 'execute-quote' ||
      (i.kind === 'place-order' && (i.type === 'MARKET' || i.timeInForce === 'IOC' || i.timeInForce === 'FOK'))
    );
  };
  const late = (d: DecisionRecord | undefined): boolean => d !== undefined && d.fills.length > 0 && d.fills[0]!.at - d.at > toleranceMs;
  return p.live !== undefined && immediate(p.live) && late(p.live) !== late(p.replay);
}

function decisionText(d: DecisionRecord): string {
  return d.decision === 'approve' ? 'approved' : `denied ${d.denialCode ?? ''}`.trim();
}

/** A one-line description of an intent: kind, side, amount and price, market. */
export function describeIntent(d: DecisionRecord): string {
  const i = d.intent;
  switch (i.kind) {
    case 'place-order':
      return `${i.type} ${i.side} ${i.baseAmount ?? `${i.quoteAmount ?? '?'} quote`}${i.price === undefined ? '' : ` @ ${i.price}`} ${i.market}`;
    case 'execute-quote':
      return `execute-quote ${i.side} ${i.baseAmount ?? `${i.quoteAmount ?? '?'} quote`} ${i.market}`;
    case 'cancel-order':
      return `cancel-order ${i.orderRefId}`;
    case 'transfer':
      return `transfer ${i.amount} ${i.asset}`;
  }
}
