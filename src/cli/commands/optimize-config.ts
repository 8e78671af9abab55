/**
 * `tradeloop optimize --config FILE --strategy NAME`: one strategy of a config tuned inside the
 * portfolio (backtest/optimize/portfolio-job.ts). Chosen when `--config` is given and NAME is one of
 * its strategies (an entry's `name`, or its plugin's when it has none); otherwise `--strategy` is a
 * plugin tuned alone and the config gives only the limits. Every problem names its flag and the fix.
 */
import {
  loadPortfolioStrategies,
  STRATEGY_OBJECTIVE_METRICS,
  type PortfolioJobSpec,
  type PortfolioObjective,
} from '../../../backtest/optimize/portfolio-job.js';
import type { ResolvedLimits } from '../../../backtest/limits.js';
import type { PortfolioStrategy } from '../../../backtest/portfolio.js';
import { InputError } from '../../core/index.js';
import type { PriceSeriesLike } from '../../sim/prices/price-data.js';
import { loadStrategy, type StrategyDefinition } from '../../strategy/index.js';
import { loadPortfolioData, marketOrder, type PortfolioFlags } from './backtest-portfolio.js';

export interface ConfigOptimizeFlags extends Omit<PortfolioFlags, 'strategy'> {
  readonly strategy: string;
  readonly config?: string;
  readonly objective?: string;
  readonly params?: string;
  readonly walkForward?: string;
}

export interface ConfigOptimize {
  readonly portfolio: PortfolioJobSpec;
  /** The tuned strategy as the config loads it. */
  readonly target: PortfolioStrategy;
  /** The first market's series (the optimizer's count of points); the trials replay every market's. */
  readonly first: PriceSeriesLike;
}

/** The strategies of the config named by an explicit `--config`, when `--strategy` names one of them. */
export function configTarget(flags: ConfigOptimizeFlags, resolved: ResolvedLimits): string | undefined {
  if (flags.config === undefined || resolved.located.source.kind === 'builtin') return undefined;
  const names = resolved.located.config.strategies.map((s) => s.name ?? s.plugin);
  return names.includes(flags.strategy) ? flags.strategy : undefined;
}

/**
 * The plugin `--strategy` names when it is not a strategy of the config: a name that is neither says
 * what the config holds.
 */
export async function pluginOrConfigHint(flags: ConfigOptimizeFlags, resolved: ResolvedLimits): Promise<StrategyDefinition> {
  try {
    return await loadStrategy(flags.strategy);
  } catch (e) {
    if (flags.config === undefined) throw e;
    const names = resolved.located.config.strategies.map((s) => s.name ?? s.plugin);
    throw new InputError(
      '--strategy',
      `${JSON.stringify(flags.strategy)} is not a strategy of ${flags.config} (${names.length > 0 ? `its strategies: ${names.join(', ')}` : 'it has none'}) nor a built-in strategy or plugin file: give the name of one of the config's strategies to tune it inside the config`,
      { cause: e },
    );
  }
}

/** `--objective`: the tuned strategy's own figures (default) or the whole account's. */
export function parseObjective(text: string | undefined, inConfig: boolean): PortfolioObjective {
  if (text !== undefined && !inConfig)
    throw new InputError(
      '--objective',
      'applies to a strategy tuned inside a config: give --config FILE and --strategy NAME of one of its strategies',
    );
  const o = text ?? 'strategy';
  if (o !== 'strategy' && o !== 'portfolio')
    throw new InputError(
      '--objective',
      `unknown objective ${JSON.stringify(o)}; use strategy (its own P&L) or portfolio (the whole account)`,
    );
  return o;
}

/** The metric a config optimize ranks by must be one its objective has. */
export function checkObjectiveMetric(objective: PortfolioObjective, metric: string): void {
  if (objective === 'portfolio' || (STRATEGY_OBJECTIVE_METRICS as readonly string[]).includes(metric)) return;
  throw new InputError(
    '--metric',
    `${metric} is a figure of an equity curve, which a strategy sharing the account does not have of its own: rank by ${STRATEGY_OBJECTIVE_METRICS.join(', ')}, or give --objective portfolio to rank by the whole account's ${metric}`,
  );
}

/** Loads the config's strategies; `target` is the one tuned. Flags of a plugin tuned alone are refused. */
export async function loadConfigStrategies(
  flags: ConfigOptimizeFlags,
  resolved: ResolvedLimits,
  target: string,
): Promise<{ strategies: PortfolioStrategy[]; target: PortfolioStrategy }> {
  if (flags.params !== undefined)
    throw new InputError(
      '--params',
      `a strategy tuned inside a config takes its fixed params from the config: set them under ${target}'s params: and drop the flag`,
    );
  if (flags.walkForward !== undefined)
    throw new InputError(
      '--walk-forward',
      'applies to one strategy on one series; a strategy tuned inside a config is scored over the whole replay: drop the flag',
    );
  const strategies = await loadPortfolioStrategies({ entries: resolved.located.config.strategies, file: configFile(flags, resolved) });
  return { strategies, target: strategies.find((s) => s.name === target)! };
}

/** Every grid key must be a param of the tuned strategy. */
export function checkGridNames(target: PortfolioStrategy, names: readonly string[]): void {
  const unknown = names.filter((n) => !(n in target.definition.params.shape));
  if (unknown.length > 0)
    throw new InputError(
      '--grid',
      `${unknown.join(', ')}: not a param of ${target.name} (plugin ${target.definition.name}, params: ${Object.keys(target.definition.params.shape).join(', ')}); grid only the tuned strategy's params`,
    );
}

/** The data of every market the config trades, and the trial spec built on it. */
export async function loadConfigData(
  flags: ConfigOptimizeFlags,
  resolved: ResolvedLimits,
  loaded: { strategies: readonly PortfolioStrategy[]; target: PortfolioStrategy },
  objective: PortfolioObjective,
): Promise<ConfigOptimize> {
  const series = await loadPortfolioData(flags, marketOrder(loaded.strategies));
  const first = series[0]!;
  const entries = resolved.located.config.strategies;
  return {
    portfolio: { entries, file: configFile(flags, resolved), target: loaded.target.name, objective, series },
    target: loaded.target,
    first: {
      source: series.map((s) => `${s.market}: ${s.source}`).join('; '),
      length: first.times.length,
      times: first.times,
      prices: first.prices,
    },
  };
}

function configFile(flags: ConfigOptimizeFlags, resolved: ResolvedLimits): string {
  return resolved.file ?? flags.config!;
}

/** The one --data of a plugin tuned alone (several, or MARKET=FILE, belong to a strategy inside a config). */
export function singleData(data: readonly string[] | string | undefined): string | undefined {
  if (data === undefined || typeof data === 'string') return data;
  if (data.length > 1)
    throw new InputError(
      '--data',
      'several --data files belong to a strategy tuned inside a config: give --config FILE and --strategy NAME of one of its strategies',
    );
  return data[0];
}
