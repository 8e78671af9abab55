/**
 * `backtest --robustness N` after the run: the Monte Carlo over its trips and returns, and the cost
 * sweep, which re-runs the same backtest (same strategy, params, data, balances and risk limits) at
 * other fees and slippages without progress output.
 */
import { InputError } from '../../src/core/index.js';
import { costSensitivity, type CostRunFigures } from './costs.js';
import type { RobustnessReport } from './report.js';
import { monteCarlo, type MonteCarloOptions } from './robustness.js';
import { runBacktest, type BacktestConfig, type BacktestRun } from '../run.js';

/** The default seed: fixed, so two runs with the same flags print the same distributions. */
export const DEFAULT_SEED = 1;

/** The figures of a run the sweep compares. */
export function costFiguresOf(run: BacktestRun): CostRunFigures {
  const m = run.metrics;
  return { returnPct: m.totalReturnPct, finalEquity: m.finalEquity, feesPaid: run.feesPaid, trades: m.trades, sharpe: m.sharpe };
}

/** Monte Carlo over `run`, then the cost sweep over `cfg` (skipped with `costs: false`). */
export async function runRobustness(
  cfg: BacktestConfig,
  run: BacktestRun,
  opts: MonteCarloOptions & { readonly costs?: boolean },
): Promise<RobustnessReport> {
  const m = run.metrics;
  const mc = monteCarlo(
    { initialEquity: m.initialEquity, tradePnls: run.trades.map((t) => t.pnl), equity: run.equity, startAt: m.startAt, endAt: m.endAt },
    opts,
  );
  if (opts.costs === false) return { monteCarlo: mc };
  // the sweep reads only each run's figures: no intent trace or fill markers kept
  const quiet: BacktestConfig = { ...cfg, onProgress: undefined, journalFile: undefined, figuresOnly: true, charts: false };
  const costs = await costSensitivity(cfg.feeBps ?? 10, cfg.slippageBps ?? 0, costFiguresOf(run), async (feeBps, slippageBps) =>
    costFiguresOf(await runBacktest({ ...quiet, feeBps, slippageBps })),
  );
  return { monteCarlo: mc, costs };
}

/** `--seed`: a whole number, or any text (hashed), default DEFAULT_SEED. */
export function parseSeed(value: string | undefined): number | string {
  if (value === undefined) return DEFAULT_SEED;
  if (value.trim() === '') throw new InputError('--seed', 'empty: give a whole number such as 42 (or any text)');
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** `--ruin-pct`: a drawdown percent in (0, 100]. */
export function parseRuinPct(value: string | undefined): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (value.trim() === '' || !(n > 0 && n <= 100))
    throw new InputError('--ruin-pct', `expected a drawdown percent above 0 and at most 100 such as 50, got ${JSON.stringify(value)}`);
  return n;
}
