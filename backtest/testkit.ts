/**
 * The test kit's backtest: a plugin author's test runs a strategy over a short price list through the
 * same kernel as `tradeloop backtest` (risk gate, journal, executors, point replay's fills), and asserts
 * on what happened: round trips, orders, denials, balances. Exported from `tradeloop/testkit`.
 */
import { InputError, type MarketSymbol } from '../src/core/index.js';
import { seriesOf as plotSeriesOf, type PlotSeries } from '../src/engine/plots.js';
import { RiskLimitsSchema } from '../src/risk/limits.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import { resolveParams } from '../src/strategy/params.js';
import type { BacktestMetrics, RoundTrip } from './metrics.js';
import { runBacktest, type DenialSummary, type IntentTrace, type OrderOutcomes } from './run.js';
import { seriesSource } from './verify/checks.js';
import { verifyStrategy as verifyOn, type VerifyReport } from './verify/verify.js';

export interface TestBacktestOptions {
  /** The strategy's params (validated by its schema, defaults filled). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Prices, one point every `stepMs` from `startMs`; or explicit times (epoch ms, increasing). */
  readonly prices: readonly number[] | { readonly times: readonly number[]; readonly prices: readonly number[] };
  /** Spacing of a plain price list (default one minute). */
  readonly stepMs?: number;
  /** Time of the first point of a plain price list (default 2025-01-01T00:00:00Z). */
  readonly startMs?: number;
  /** The market the prices are of (default the strategy's only market). */
  readonly market?: MarketSymbol;
  /** Starting balances, asset → decimal string (default USD 10000). */
  readonly initial?: Readonly<Record<string, string>>;
  /** Fee in basis points of traded notional (default 10). */
  readonly feeBps?: number;
  /** Slippage against the trader in basis points (default 0). */
  readonly slippageBps?: number;
  /** Risk limits written as the config's `risk:` section (default the built-in limits). */
  readonly risk?: Readonly<Record<string, unknown>>;
}

export interface TestBacktestResult {
  /** Completed round trips, oldest first (money as decimal strings). */
  readonly trades: readonly RoundTrip[];
  /** Every decision on an intent: time, kind, market, side, and outcome (`approve` or a denial code). */
  readonly intents: readonly IntentTrace[];
  /** Risk decisions by outcome ("approve" or a denial code). */
  readonly decisions: Readonly<Record<string, number>>;
  /** Denials by code, with the first and last reason. */
  readonly denials: Readonly<Record<string, DenialSummary>>;
  /** Reports heard by kind, and orders still open at the last point. */
  readonly orders: OrderOutcomes;
  /** Balances after the last point, asset → decimal string. */
  readonly finalBalances: Readonly<Record<string, string>>;
  /** Fees paid in the quote currency, a decimal string. */
  readonly feesPaid: string;
  readonly metrics: BacktestMetrics;
  /** Why the strategy was stopped (it threw, or returned something that is not an intent). */
  readonly strategyStopped?: string;
  /** What a reader must know before trusting the figures (e.g. data shorter than the warm-up). */
  readonly warnings: readonly string[];
  /** The series the strategy plotted (`ctx.plot`), every point, gaps as null; empty when it plots none. */
  readonly plots: readonly PlotSeries[];
}

/**
 * Backtests a strategy on a short price list through the whole engine, in memory:
 *
 *   const r = await backtestStrategy(plugin, { params: { stop_pct: 2 }, prices: [100, 101, 97, 96] });
 *   assert.equal(r.trades.length, 1);
 *
 * An intent is filled at the next point's price (see docs/backtest.md, "fill model").
 */
export async function backtestStrategy(definition: StrategyDefinition, options: TestBacktestOptions): Promise<TestBacktestResult> {
  const { times, prices } = seriesOf(options);
  const params = resolveParams(definition, { ...options.params }, 'params');
  let limits;
  if (options.risk !== undefined) {
    const parsed = RiskLimitsSchema.safeParse(options.risk);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `risk.${i.path.join('.')}: ${i.message}`);
      throw new InputError(
        'risk',
        `${problems.join('; ')}: write the limits as in the config's risk: section (money as strings, e.g. max_order_notional: "25000")`,
      );
    }
    limits = parsed.data;
  }
  const run = await runBacktest({
    definition,
    params,
    series: { source: 'test prices', length: times.length, times, prices },
    charts: true,
    ...(options.market !== undefined && { market: options.market }),
    ...(options.initial !== undefined && { initial: options.initial }),
    ...(options.feeBps !== undefined && { feeBps: options.feeBps }),
    ...(options.slippageBps !== undefined && { slippageBps: options.slippageBps }),
    ...(limits !== undefined && { limits }),
  });
  return {
    trades: run.trades,
    intents: run.intents,
    decisions: run.decisions,
    denials: run.denials,
    orders: run.orders,
    finalBalances: run.finalBalances,
    feesPaid: run.feesPaid,
    metrics: run.metrics,
    ...(run.strategyStopped !== undefined && { strategyStopped: run.strategyStopped }),
    warnings: run.warnings,
    plots: (run.plots ?? []).map(plotSeriesOf),
  };
}

/**
 * Runs the checks of `tradeloop verify` on a price list (determinism, look-ahead, warm-up, the params
 * schema and markets) and returns a verdict per check; `passed` is false when one failed:
 *
 *   const r = await verifyStrategy(plugin, { prices });
 *   assert.deepEqual(r.checks.filter((c) => c.verdict === 'fail'), []);
 *
 * Give enough prices for twice the warm-up and decisions after it (a few hundred are plenty).
 */
export async function verifyStrategy(
  definition: StrategyDefinition,
  options: Pick<TestBacktestOptions, 'params' | 'prices' | 'stepMs' | 'startMs' | 'market' | 'initial' | 'feeBps' | 'slippageBps'>,
): Promise<VerifyReport> {
  const { times, prices } = seriesOf(options);
  const params = resolveParams(definition, { ...options.params }, 'params');
  return verifyOn({
    definition,
    params,
    source: seriesSource({ source: 'test prices', length: times.length, times, prices }),
    ...(options.initial !== undefined && { initial: options.initial }),
    ...(options.feeBps !== undefined && { feeBps: options.feeBps }),
    ...(options.slippageBps !== undefined && { slippageBps: options.slippageBps }),
  });
}

function seriesOf(o: TestBacktestOptions): { times: Float64Array; prices: Float64Array } {
  const list = Array.isArray(o.prices) ? (o.prices as readonly number[]) : (o.prices as { prices: readonly number[] }).prices;
  const given = Array.isArray(o.prices) ? undefined : (o.prices as { times: readonly number[] }).times;
  if (list.length < 2) throw new InputError('prices', `${list.length} point(s): give at least 2 prices`);
  list.forEach((p, i) => {
    if (typeof p !== 'number' || !Number.isFinite(p) || p <= 0)
      throw new InputError('prices', `prices[${i}] is ${String(p)}: every price must be a finite number above 0`);
  });
  const step = o.stepMs ?? 60_000;
  if (!(step > 0)) throw new InputError('stepMs', `${step}: give a spacing in ms above 0`);
  const start = o.startMs ?? Date.UTC(2025, 0, 1);
  const times = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const t = given === undefined ? start + i * step : given[i];
    if (t === undefined || !Number.isFinite(t))
      throw new InputError('prices.times', `times[${i}] is ${String(t)}: give one epoch-ms time per price`);
    if (i > 0 && t <= times[i - 1]!)
      throw new InputError('prices.times', `times[${i}] (${t}) is not after times[${i - 1}]: times must increase`);
    times[i] = t;
  }
  if (given !== undefined && given.length !== list.length)
    throw new InputError('prices.times', `${given.length} times for ${list.length} prices: give one time per price`);
  return { times, prices: Float64Array.from(list) };
}
