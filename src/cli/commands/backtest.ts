import { type Command } from 'commander';
import type { DataFlags } from '../../../backtest/data-source.js';
import { INTRABAR_RULES } from '../../fills/point/intrabar.js';
import type { CliContext } from '../context.js';
import { addDataOptions } from './data-options.js';

export interface BacktestFlags extends Omit<DataFlags, 'data'> {
  readonly data?: readonly string[];
  readonly strategy?: string;
  readonly params?: string;
  readonly feeBps?: string;
  readonly slippageBps?: string;
  readonly initial: string;
  readonly config?: string;
  readonly json?: boolean;
  readonly out?: string;
  readonly robustness?: string;
  readonly ruinPct?: string;
  readonly seed?: string;
  readonly blockLength?: string;
  readonly fillModel?: string;
  readonly latencyMs?: string;
  readonly intrabar?: string;
}

/**
 * `tradeloop backtest`: replays historical prices through a strategy with the same engine, risk gate
 * and executors as live (see docs/backtest.md), then prints a summary table — or one JSON line with
 * `--json` — and writes trades.csv, equity.csv and report.html with `--out DIR`.
 */
export function registerBacktest(program: Command, ctx: CliContext): void {
  const command = program
    .command('backtest')
    .description('replay historical prices through a strategy, risk gate and executors; print metrics')
    .option(
      '-s, --strategy <name>',
      'built-in strategy name or path to a plugin file; or the name of one strategy of the config to backtest alone (default: every strategy of the config)',
    );
  addDataOptions(command, true)
    .option('-p, --params <k=v,...>', 'strategy parameters, e.g. fast=10,slow=30')
    .option('--fee-bps <n>', "fee in basis points of traded notional (default: the config's risk.fee_bps, 10)")
    .option('--slippage-bps <n>', 'slippage against the trader in basis points (default 0)')
    .option(
      '--initial <ASSET=AMOUNT,...>',
      "starting balances (a base asset is the strategy's own, bought at the first price; with --config, strategies[].holdings assigns it)",
      'USD=10000',
    )
    .option(
      '-c, --config <file>',
      'YAML config: without --strategy (or with the name of one of its strategies) its strategies on their markets on one account; its risk: section sets the limits in every form (default: ./config/default.yaml, else the built-in defaults, as tradeloop run; a key the file does not set takes the schema default, and the report lists each limit with where it came from)',
    )
    .option(
      '--fill-model <model>',
      "book: fill against a recording's order books (the default for recordings that hold them); points: fill at the next point",
    )
    .option('--latency-ms <n>', 'with --fill-model book: milliseconds from decision to venue (default 0)')
    .option(
      '--intrabar <rule>',
      `on OHLCV rows, which extreme of a bar came first where the data cannot say: ${INTRABAR_RULES.join(', ')} (default adverse: the low, so a stop-loss before a take-profit)`,
    )
    .option('--json', 'print one JSON object on one line (logs go to stderr)')
    .option('--out <dir>', 'write trades.csv, equity.csv and report.html here')
    .option(
      '--robustness <n>',
      'N Monte Carlo paths per method (trips reshuffled and resampled, returns block-bootstrapped) and the fee/slippage sweep',
    )
    .option('--ruin-pct <pct>', 'with --robustness: the drawdown that counts as ruin (default 50)')
    .option('--seed <n>', 'with --robustness: the Monte Carlo seed (default 1, so runs repeat)')
    .option('--block-length <n>', 'with --robustness: points per block of the returns bootstrap (default the cube root of the points)')
    .action(async (all: BacktestFlags) => (await import('./backtest-action.js')).backtestAction(all, ctx));
}
