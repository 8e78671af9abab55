/**
 * The decisions `tradeloop verify` compares: every risk decision of a backtest (the intent whole, its
 * outcome and time) through the same kernel and point replay as `tradeloop backtest`, and a strategy's
 * failure as one more entry (a plugin that throws in one run and not the other decides differently).
 * The intent id and the strategy instance's name are left out: the rest is what the strategy chose.
 */
import type { Decision, Intent } from '../../src/core/index.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { runBacktest, type BacktestConfig } from '../run.js';
import type { RecordedWarmUp } from '../recorded-series.js';

/** One decision as verify compares it: its time and what was decided, in words. */
export interface VerifyDecision {
  readonly at: number;
  readonly text: string;
}

/** The first place two decision lists part: the n-th decision (1-based), and what each run decided there. */
export interface FirstDifference {
  readonly index: number;
  /** The time of the first of the two decisions (the earlier, when both exist). */
  readonly at: number;
  /** The reference run's decision (absent: it had no more). */
  readonly expected?: VerifyDecision;
  /** The compared run's decision (absent: it had no more). */
  readonly got?: VerifyDecision;
}

/** The backtest settings every verify run shares: the strategy, its params and the costs, without the points. */
export type VerifyRunConfig = Omit<BacktestConfig, 'series' | 'range' | 'onDecision' | 'onProgress'>;

/** The decisions of one backtest of `series`, warmed first on `warmUp` when given. */
export async function decisionsOf(cfg: VerifyRunConfig, series: PriceSeriesLike, warmUp?: RecordedWarmUp): Promise<VerifyDecision[]> {
  const out: VerifyDecision[] = [];
  const run = await runBacktest({
    ...cfg,
    series: warmUp === undefined ? series : { ...series, warmUp },
    figuresOnly: true,
    onDecision: (d) => out.push({ at: d.at, text: describeDecision(d) }),
  });
  if (run.strategyFailure !== undefined && run.stoppedAt !== undefined)
    out.push({ at: run.stoppedAt.at, text: `strategy stopped in ${run.strategyFailure.handler}: ${run.strategyFailure.message}` });
  return out;
}

/** `place-order BUY BTCUSD MARKET quoteAmount=500.00: approve`, or `...: deny INSUFFICIENT_BALANCE`. */
export function describeDecision(d: Decision): string {
  return `${describeIntent(d.intent)}: ${d.kind === 'approve' ? 'approve' : `deny ${d.reason.code}`}`;
}

function describeIntent(intent: Intent): string {
  const { intentId: _id, strategy: _name, kind, ...rest } = intent;
  const r = rest as Record<string, unknown>;
  const head = ['side', 'market', 'type'].map((k) => r[k]).filter((v) => v !== undefined);
  const fields = Object.keys(r)
    .filter((k) => !['side', 'market', 'type'].includes(k))
    .sort()
    .map((k) => `${k}=${String(r[k])}`);
  return [kind, ...head.map(String), ...fields].join(' ');
}

/** Where `got` first differs from `expected`, or undefined when they are the same decisions at the same times. */
export function firstDifference(expected: readonly VerifyDecision[], got: readonly VerifyDecision[]): FirstDifference | undefined {
  const n = Math.max(expected.length, got.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const g = got[i];
    if (e !== undefined && g !== undefined && e.at === g.at && e.text === g.text) continue;
    const at = Math.min(e?.at ?? Number.POSITIVE_INFINITY, g?.at ?? Number.POSITIVE_INFINITY);
    return { index: i + 1, at, ...(e && { expected: e }), ...(g && { got: g }) };
  }
  return undefined;
}

/** The first `end` points of `series` (a view, no copy). */
export function headOf(series: PriceSeriesLike, end: number): PriceSeriesLike {
  return { source: series.source, length: end, times: series.times.subarray(0, end), prices: series.prices.subarray(0, end) };
}
