/**
 * A portfolio trial of `tradeloop optimize --config FILE --strategy NAME`: the whole config replayed
 * (every strategy on every market it declares, one account, the config's limits and allocations)
 * with only NAME's params changed by the trial; the others keep the config's. What the trial is
 * scored by is its objective:
 *
 * - `strategy` (the default): NAME's own figures from the portfolio result: its P&L (realized plus
 *   open at the last prices, fees included) as `final_equity` less the starting equity, `return_pct`
 *   that P&L over the account's starting equity (its share of the account's return), its round trips
 *   and wins, its fees. Figures of an equity curve (sharpe, sortino, drawdown, cagr) are not a
 *   strategy's own in a shared account: they are null, and the command refuses to rank by them.
 * - `portfolio`: the account's figures, every metric computed from the portfolio's equity curve.
 */
import type { Config } from '../../src/config/index.js';
import { InputError } from '../../src/core/index.js';
import { holdingsOf } from '../../src/live/holdings.js';
import { loadConfiguredStrategies } from '../../src/live/load-strategies.js';
import type { RiskLimits } from '../../src/risk/limits.js';
import type { IntrabarRule } from '../../src/fills/point/bar-range.js';
import { resolveParams } from '../../src/strategy/params.js';
import { fingerprintStrategy, sha256 } from '../../src/strategy/plugin-hash.js';
import type { MarketSeries } from '../merge.js';
import { computeMetrics, metricsToJson } from '../metrics.js';
import { runPortfolioBacktest, type PortfolioHolding, type PortfolioRun, type PortfolioStrategy } from '../portfolio.js';
import type { Job, JobMetrics, JobResult } from './job.js';

export type PortfolioObjective = 'strategy' | 'portfolio';

/** Metrics a `strategy` objective can rank by (the others are figures of the whole account). */
export const STRATEGY_OBJECTIVE_METRICS = ['return', 'final_equity', 'win_rate'] as const;

/** What a portfolio trial needs besides its params: the config's strategies, the target, the data. */
export interface PortfolioJobSpec {
  /** The config's `strategies:` entries as written (plugins as the config names them). */
  readonly entries: Config['strategies'];
  /** The config file: plugin paths are read relative to the directory the command runs in, as `run` does. */
  readonly file: string;
  /** The strategy tuned: an entry's name (or its plugin's name when it has none). */
  readonly target: string;
  readonly objective: PortfolioObjective;
  /** One series per market, in the config's market order. */
  readonly series: readonly MarketSeries[];
}

/** Every strategy of the config, loaded, with its allocation and holdings (as the portfolio backtest takes them). */
export async function loadPortfolioStrategies(spec: {
  readonly entries: PortfolioJobSpec['entries'];
  readonly file?: string;
}): Promise<PortfolioStrategy[]> {
  const loaded = await loadConfiguredStrategies(spec.entries, { file: spec.file });
  // one loaded strategy per entry, in the config's order (an unnamed entry is named by its plugin's definition)
  const all = holdingsOf(
    spec.entries,
    loaded.map((s) => s.name),
  );
  return loaded.map((s, i) => {
    const entry = spec.entries[i]!;
    const holdings: PortfolioHolding[] = all.filter((h) => h.strategy === s.name).map(({ strategy: _s, ...h }) => h);
    return { ...s, ...(entry.allocation !== undefined && { allocation: entry.allocation }), ...(holdings.length > 0 && { holdings }) };
  });
}

export interface PortfolioJobContext {
  readonly portfolio: PortfolioJobSpec;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly initial: Readonly<Record<string, string>>;
  readonly limits?: RiskLimits;
  /** Over OHLCV rows, which extreme of a bar came first (default adverse). */
  readonly intrabar?: IntrabarRule;
}

/** Runs one trial: the config with the target's params merged with the trial's. */
export async function runPortfolioJob(strategies: readonly PortfolioStrategy[], ctx: PortfolioJobContext, job: Job): Promise<JobResult> {
  const spec = ctx.portfolio;
  try {
    const tuned = strategies.map((s) =>
      s.name === spec.target ? { ...s, params: resolveParams(s.definition, { ...s.params, ...job.params }, 'grid') } : s,
    );
    const run = await runPortfolioBacktest({
      strategies: tuned,
      series: spec.series,
      initial: ctx.initial,
      feeBps: ctx.feeBps,
      slippageBps: ctx.slippageBps,
      ...(ctx.limits && { limits: ctx.limits }),
      ...(ctx.intrabar !== undefined && { intrabar: ctx.intrabar }),
    });
    if (run.stopped.length > 0) return { id: job.id, ok: false, error: `strategy stopped: ${run.stopped.join('; ')}` };
    return { id: job.id, ok: true, metrics: spec.objective === 'portfolio' ? accountFigures(run) : ownFigures(run, spec.target) };
  } catch (e) {
    if (e instanceof InputError) return { id: job.id, ok: false, error: e.message };
    throw e;
  }
}

/** The tuned strategy's own figures (see the module comment). */
export function ownFigures(run: PortfolioRun, target: string): JobMetrics {
  const s = run.strategies.find((x) => x.name === target);
  if (s === undefined) throw new Error(`strategy ${target} is not in the portfolio's result`);
  const initial = run.equity.length > 0 ? run.equity[0]! : 0;
  return {
    pnl: s.pnl,
    final_equity: initial + s.pnl,
    return_pct: initial > 0 ? (s.pnl / initial) * 100 : null,
    trades: s.roundTrips,
    win_rate_pct: s.roundTrips > 0 ? (s.wins / s.roundTrips) * 100 : null,
    profit_factor: null,
    fees: Number(s.fees),
    sharpe: null,
    sortino: null,
    cagr_pct: null,
    max_drawdown_pct: null,
  };
}

/** The account's figures from the portfolio's equity curve (every market's round trips). */
export function accountFigures(run: PortfolioRun): JobMetrics {
  const trades = run.markets.flatMap((m) => m.trades).sort((a, b) => a.exitAt - b.exitAt);
  const m = computeMetrics({ times: run.times, equity: run.equity, prices: run.equity, trades, feesPaid: run.feesPaid });
  return { ...metricsToJson(m), fees: Number(run.feesPaid) };
}

/**
 * What a study of a strategy inside a config depends on besides its settings: the config's
 * strategies as written, the tuned one and the objective, every plugin's files, every market's data.
 * Any of them changed, the key changes (a saved study or Redis results are not reused).
 */
export function portfolioFingerprint(spec: PortfolioJobSpec, cwd = process.cwd()): string {
  const bytes = (a: Float64Array): string => sha256(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return sha256(
    JSON.stringify({
      entries: spec.entries,
      target: spec.target,
      objective: spec.objective,
      plugins: [...new Set(spec.entries.map((e) => e.plugin))].map((p) => fingerprintStrategy(p, cwd).hash),
      series: spec.series.map((s) => ({ market: s.market, times: bytes(s.times), prices: bytes(s.prices) })),
    }),
  );
}
