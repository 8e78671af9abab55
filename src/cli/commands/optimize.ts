import { type Command } from 'commander';
import { availableParallelism } from 'node:os';
import type { DataFlags } from '../../../backtest/data-source.js';
import { OPTIMIZE_METRICS } from '../../../backtest/optimize/metric-names.js';
import { INTRABAR_RULES } from '../../fills/point/intrabar.js';
import type { CliContext } from '../context.js';
import { addDataOptions } from './data-options.js';

export interface OptimizeFlags extends Omit<DataFlags, 'data'> {
  readonly data?: string[];
  readonly objective?: string;
  readonly strategy: string;
  readonly grid?: string;
  readonly search?: string;
  readonly trials?: string;
  readonly seed?: string;
  readonly resume?: boolean;
  readonly studyDir?: string;
  readonly metric?: string;
  readonly workers?: string;
  readonly walkForward?: string;
  readonly params?: string;
  readonly feeBps?: string;
  readonly slippageBps?: string;
  readonly initial: string;
  readonly config?: string;
  readonly top?: string;
  readonly json?: boolean;
  readonly queue?: string;
  readonly out?: string;
  readonly intrabar?: string;
}

/**
 * `tradeloop optimize`: every combination of a parameter grid backtested across worker threads,
 * optionally in walk-forward folds, ranked by one metric (a table, or `--json`). Combinations that
 * failed (refused params, a strategy that threw) are listed apart, below the ranked rows, with the
 * reason; when every one failed the command exits 1.
 */
export function registerOptimize(program: Command, ctx: CliContext): void {
  const command = program
    .command('optimize')
    .description('backtest every combination of a parameter grid on all cores and rank them by a metric')
    .requiredOption(
      '-s, --strategy <name>',
      'built-in strategy name or path to a plugin file; with --config FILE, the name of one of its strategies to tune inside the whole config',
    );
  addDataOptions(command, true)
    .option(
      '--grid <spec>',
      "parameter grid, e.g. fast=5..30:5,slow=20..100:10 (ranges from..to:step, lists a|b, fixed values); with --search random|tpe the ranges to search (from..to, from..to:step, from..to:log), default the params schema's bounds",
    )
    .option('--search <method>', 'grid (every combination), random or tpe (tree-structured Parzen estimator)', 'grid')
    .option('--trials <n>', 'trials of --search random|tpe (default 100)')
    .option('--seed <n>', 'seed of --search random|tpe (default 1): the same seed, the same trials')
    .option('--study-dir <dir>', 'where --search random|tpe keeps its studies (default .tradeloop/studies)')
    .option('--resume', 'continue the saved study of these settings (the same command again does too); fails when there is none')
    .option(
      '--metric <name>',
      `metric to rank by: ${Object.keys(OPTIMIZE_METRICS).join(', ')}; several (return,max_drawdown) also give the Pareto front, the first ranking (default sharpe; return for a strategy tuned inside a config)`,
    )
    .option(
      '--objective <what>',
      "with --config FILE --strategy NAME: strategy (default) ranks by NAME's own P&L in the portfolio, portfolio by the whole account's figures",
    )
    .option('--workers <n>', `worker threads (default all ${availableParallelism()} cores)`)
    .option('--walk-forward <k>', 'K folds: choose on each segment, score on the next (out of sample)')
    .option('-p, --params <k=v,...>', 'fixed strategy parameters under the grid')
    .option('--fee-bps <n>', 'fee in basis points (default 10)')
    .option('--slippage-bps <n>', 'slippage in basis points (default 0)')
    .option('--initial <ASSET=AMOUNT,...>', 'starting balances', 'USD=10000')
    .option(
      '--intrabar <rule>',
      `on OHLCV rows, which extreme of a bar came first where the data cannot say: ${INTRABAR_RULES.join(', ')} (default adverse), as in backtest`,
    )
    .option(
      '-c, --config <file>',
      'YAML config whose risk: section sets the risk limits (default: ./config/default.yaml, else the built-in defaults, as tradeloop run); with --strategy naming one of its strategies, that strategy is tuned inside the whole config (every strategy, market and limit of it, on one account)',
    )
    .option('--top <n>', 'rows of the table (default 20)')
    .option('--json', 'print the ranked result as one JSON line')
    .option(
      '--queue <url>',
      'run the trials on `tradeloop worker` processes through Redis: redis://HOST:PORT or rediss:// (password from TRADELOOP_REDIS_PASSWORD)',
    )
    .option(
      '--out <dir>',
      'write report.html (the stability heat map, walk-forward efficiency, ranked rows, assumptions) and results.csv here',
    )
    .action(async (flags: OptimizeFlags) => (await import('./optimize-action.js')).optimizeAction(flags, ctx));
}
