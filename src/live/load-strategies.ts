import { ConfigError, configIssueMessage, type Config, type ConfigProblem } from '../config/index.js';
import { InputError, type MarketEvent, type MarketSymbol } from '../core/index.js';
import type { Logger } from '../log/index.js';
import { decimalsAsWritten, loadStrategy, marketsOf, resolveParams, type StrategyDefinition } from '../strategy/index.js';
import type { MarketSubscription } from '../venue/index.js';
import type { IntentIds } from '../engine/intent-ids.js';
import { StrategyRunner } from '../engine/strategy-runner.js';

/** A strategy loaded and validated, ready to become a runner. */
export interface LoadedStrategy {
  readonly name: string;
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketSymbol[];
}

/** Where the strategy entries came from, for the paths problems are reported under. */
export interface StrategySource {
  /** The config file's name in messages; undefined for entries made from --strategy/--params. */
  readonly file?: string;
  /** Entries made from `--strategy` and `--params`: problems name those flags. */
  readonly flags?: boolean;
}

/**
 * Loads every configured strategy and validates every params block; names must be unique. Every
 * problem of every entry is reported at once (a plugin that does not load, params its schema
 * refuses, a name used twice), as one ConfigError naming each field, so a check such as
 * `tradeloop start` finds them all before anything trades.
 */
export async function loadConfiguredStrategies(entries: Config['strategies'], source: StrategySource = {}): Promise<LoadedStrategy[]> {
  if (entries.length === 0)
    throw new InputError('strategies', 'no strategy configured: add one under strategies: in the config, or pass --strategy NAME');
  const out: LoadedStrategy[] = [];
  const problems: ConfigProblem[] = [];
  for (const [i, entry] of entries.entries()) {
    const at = (field: 'plugin' | 'params' | 'name'): string =>
      source.flags ? (field === 'plugin' ? '--strategy' : '--params') : `strategies.${i}.${field}`;
    let definition: StrategyDefinition;
    try {
      definition = await loadStrategy(entry.plugin);
    } catch (e) {
      problems.push({ path: at('plugin'), message: `${JSON.stringify(entry.plugin)}: ${messageOf(e)}` });
      continue;
    }
    const name = entry.name ?? definition.name;
    if (out.some((s) => s.name === name))
      problems.push({ path: at('name'), message: `${name} is used twice: give each instance its own name` });
    const refused = paramsProblems(definition, entry.params, at('params'));
    if (refused.length) {
      problems.push(...refused);
      continue;
    }
    try {
      const params = resolveParams(definition, entry.params, at('params')) as Record<string, unknown>;
      out.push({ name, definition, params, markets: marketsOf(definition, params as never) });
    } catch (e) {
      problems.push({ path: at('params'), message: `${definition.name} refuses them: ${messageOf(e)}` });
    }
  }
  if (problems.length === 0) return out;
  throw new ConfigError(source.flags ? 'command line' : source.file, problems);
}

/**
 * The problems of a config file's well-formed strategy entries (their plugins and params) when the
 * file failed elsewhere: added to that failure, so one report holds every problem of the file.
 */
export async function withStrategyProblems(e: ConfigError): Promise<ConfigError> {
  if (e.strategiesUnchecked.length === 0) return e;
  try {
    await loadConfiguredStrategies(
      e.strategiesUnchecked.map((u) => u.entry),
      { file: e.file },
    );
    return e;
  } catch (found) {
    if (!(found instanceof ConfigError)) return e;
    // entry k of the checked list is entry index of the file
    const extra = found.problems.map((p) => {
      const m = /^strategies\.(\d+)(.*)$/.exec(p.path);
      return m === null ? p : { ...p, path: `strategies.${e.strategiesUnchecked[Number(m[1])]!.index}${m[2]}` };
    });
    return new ConfigError(e.file, [...e.problems, ...extra]);
  }
}

/** Each parameter the plugin's schema refuses, as its own problem in our words (the plugin's own messages kept). */
function paramsProblems(definition: StrategyDefinition, raw: Record<string, unknown>, at: string): ConfigProblem[] {
  const known = Object.keys(definition.params.shape);
  const problems: ConfigProblem[] = Object.keys(raw)
    .filter((k) => !known.includes(k))
    .map((k) => ({
      path: `${at}.${k}`,
      message: `not a parameter of ${definition.name}: remove it or check the spelling (known: ${known.join(', ') || 'none'})`,
    }));
  const asWritten = decimalsAsWritten(definition, raw);
  problems.push(...asWritten.problems.map((p) => ({ path: `${at}.${p.key}`, message: p.message })));
  const result = definition.params.safeParse(asWritten.params, { error: configIssueMessage });
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys' || asWritten.problems.some((p) => p.key === issue.path[0])) continue;
      problems.push({
        path: issue.path.length ? `${at}.${issue.path.map(String).join('.')}` : at,
        message: `${issue.message} (${definition.name})`,
      });
    }
  }
  return problems;
}

/** An error's message without the field its InputError already put first (the problem names it). */
function messageOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  if (e instanceof InputError) {
    const rest = e.message.slice(e.field.length + 2);
    // resolveParams names "<field> of strategy X": the problem's path says the field, the message the strategy
    return e.message.startsWith(`${e.field}: `) ? rest : e.message;
  }
  return e.message;
}

/** Runner factory for LiveRun (intent ids come from the run). */
export function runnersFor(loaded: readonly LoadedStrategy[], log?: Logger): (ids: IntentIds) => StrategyRunner[] {
  return (ids) => loaded.map((s) => new StrategyRunner(s.name, s.definition, s.params, s.markets, ids, log));
}

/** What the market source must poll: per market, the union of what its strategies need. */
export function subscriptionsFor(loaded: readonly LoadedStrategy[]): MarketSubscription[] {
  const byMarket = new Map<MarketSymbol, Set<'price' | 'ticker' | 'book' | 'quote'>>();
  for (const s of loaded) {
    const needs = (s.definition.needs ?? ['price']).filter((k): k is Exclude<MarketEvent['kind'], 'timer'> => k !== 'timer');
    for (const m of s.markets) {
      const kinds = byMarket.get(m) ?? new Set();
      for (const k of needs) kinds.add(k);
      byMarket.set(m, kinds);
    }
  }
  return [...byMarket].map(([market, kinds]) => ({ market, kinds }));
}
