import { type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { LazyProgress, parseBps, parseInitial, parsePositiveInt } from '../../../backtest/cli-input.js';
import { parseGrid } from '../../../backtest/grid.js';
import { loadDataFile } from '../../../backtest/recorded-series.js';
import { OPTIMIZE_METRICS, runOptimize, type OptimizeMetric, type OptimizeResult } from '../../../backtest/optimize.js';
import { LiveClock } from '../../clock/index.js';
import { loadConfigFile } from '../../config/load.js';
import { InputError } from '../../core/index.js';
import { loadStrategy, marketsOf, parseParamString, resolveParams } from '../../strategy/index.js';
import { type CliContext, writeLine } from '../context.js';
import { formatTable } from '../table.js';

interface OptimizeFlags {
  readonly strategy: string;
  readonly data: string;
  readonly grid: string;
  readonly metric: string;
  readonly workers?: string;
  readonly walkForward?: string;
  readonly params?: string;
  readonly feeBps?: string;
  readonly slippageBps?: string;
  readonly initial: string;
  readonly config?: string;
  readonly top?: string;
  readonly json?: boolean;
}

/**
 * `tradeloop optimize`: every combination of a parameter grid backtested across worker threads,
 * optionally in walk-forward folds, ranked by one metric (a table, or `--json`).
 */
export function registerOptimize(program: Command, ctx: CliContext): void {
  program
    .command('optimize')
    .description('backtest every combination of a parameter grid on all cores and rank them by a metric')
    .requiredOption('-s, --strategy <name>', 'built-in strategy name or path to a plugin file')
    .requiredOption('--data <file>', 'price file (CSV or List Historical Prices JSON) or a stream recording of a live run')
    .requiredOption('--grid <spec>', 'parameter grid, e.g. fast=5..30:5,slow=20..100:10 (ranges from..to:step, lists a|b, fixed values)')
    .option('--metric <name>', `metric to rank by: ${Object.keys(OPTIMIZE_METRICS).join(', ')}`, 'sharpe')
    .option('--workers <n>', `worker threads (default all ${availableParallelism()} cores)`)
    .option('--walk-forward <k>', 'K folds: choose on each segment, score on the next (out of sample)')
    .option('-p, --params <k=v,...>', 'fixed strategy parameters under the grid')
    .option('--fee-bps <n>', 'fee in basis points (default 10)')
    .option('--slippage-bps <n>', 'slippage in basis points (default 0)')
    .option('--initial <ASSET=AMOUNT,...>', 'starting balances', 'USD=10000')
    .option('-c, --config <file>', 'YAML config whose risk: section sets the risk limits')
    .option('--top <n>', 'rows of the table (default 20)')
    .option('--json', 'print the ranked result as one JSON line')
    .action(async (flags: OptimizeFlags) => {
      if (!(flags.metric in OPTIMIZE_METRICS)) throw new InputError('--metric', `unknown metric ${JSON.stringify(flags.metric)}; use one of ${Object.keys(OPTIMIZE_METRICS).join(', ')}`);
      const grid = parseGrid(flags.grid);
      const definition = await loadStrategy(flags.strategy);
      const baseParams = flags.params === undefined ? {} : parseParamString(flags.params);
      const first = resolveParams(definition, { ...baseParams, ...grid.combinations[0] }, '--grid'); // unknown names fail here, before any thread starts
      const markets = marketsOf(definition, first as never);
      const series = await loadDataFile(flags.data, markets.length === 1 ? markets[0] : undefined);
      const clock = new LiveClock();
      const progress = new LazyProgress(ctx.stderr, () => clock.now(), 'optimize');
      const t0 = clock.now();
      let result: OptimizeResult;
      try {
        result = await runOptimize({
          strategy: flags.strategy, series, grid, metric: flags.metric as OptimizeMetric, baseParams,
          workers: parsePositiveInt(flags.workers, '--workers'), walkForward: parsePositiveInt(flags.walkForward, '--walk-forward'),
          feeBps: parseBps(flags.feeBps, '--fee-bps', 10), slippageBps: parseBps(flags.slippageBps, '--slippage-bps', 0), initial: parseInitial(flags.initial),
          ...(flags.config !== undefined && { limits: loadConfigFile(flags.config).risk }),
          onProgress: (d, t) => progress.update(d, t),
        });
      } finally {
        progress.stop();
      }
      const elapsedMs = clock.now() - t0;
      if (flags.json) {
        writeLine(ctx.stdout, JSON.stringify({ strategy: definition.name, points: series.length, elapsed_ms: elapsedMs, ...result }));
        return;
      }
      printTable(ctx, result, grid.names, parsePositiveInt(flags.top, '--top') ?? 20);
      writeLine(ctx.stdout, `${result.combinations} combinations × ${series.length.toLocaleString('en-US')} points on ${result.workers} workers in ${elapsedMs} ms`);
    });
}

function printTable(ctx: CliContext, r: OptimizeResult, names: readonly string[], top: number): void {
  const walk = r.walkForward !== undefined;
  const key = OPTIMIZE_METRICS[r.metric];
  const header = ['rank', ...names, walk ? `${key} (in sample)` : key, ...(walk ? [`${key} (out of sample)`] : ['return_pct', 'max_drawdown_pct', 'trades'])];
  const rows = r.rows.slice(0, top).map((row) => [
    String(row.rank), ...names.map((n) => String(row.params[n])), fmt(row.score),
    ...(walk ? [fmt(row.outOfSampleScore ?? null)] : [fmt(num(row.metrics?.return_pct)), fmt(num(row.metrics?.max_drawdown_pct)), String(row.metrics?.trades ?? '')]),
  ].map((c, i) => (i === names.length + 1 && row.error ? `error: ${row.error}` : c)));
  writeLine(ctx.stdout, formatTable(header, rows));
  for (const p of r.walkForward ?? []) {
    writeLine(ctx.stdout, `fold ${p.fold}: chose ${names.map((n) => `${n}=${String(p.params[n])}`).join(',')} (in sample ${fmt(p.inSampleScore)}); out of sample ${key} ${fmt(num(p.outOfSample[key]))}, return ${fmt(num(p.outOfSample.return_pct))} %`);
  }
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function fmt(v: number | null): string {
  return v === null ? 'n/a' : v.toFixed(3);
}
