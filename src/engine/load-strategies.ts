import type { Config } from '../config/index.js';
import { InputError, type MarketEvent, type MarketSymbol } from '../core/index.js';
import type { Logger } from '../log/index.js';
import { loadStrategy, marketsOf, resolveParams, type StrategyDefinition } from '../strategy/index.js';
import type { MarketSubscription } from '../venue/index.js';
import type { IntentIds } from './intent-ids.js';
import { StrategyRunner } from './strategy-runner.js';

/** A strategy loaded and validated, ready to become a runner. */
export interface LoadedStrategy {
  readonly name: string;
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketSymbol[];
}

/** Loads every configured strategy and validates its params; names must be unique. */
export async function loadConfiguredStrategies(entries: Config['strategies']): Promise<LoadedStrategy[]> {
  if (entries.length === 0) throw new InputError('strategies', 'no strategy configured: add one under strategies: in the config, or pass --strategy NAME');
  const out: LoadedStrategy[] = [];
  for (const [i, entry] of entries.entries()) {
    const definition = await loadStrategy(entry.plugin);
    const name = entry.name ?? definition.name;
    if (out.some((s) => s.name === name)) throw new InputError(`strategies[${i}].name`, `${name} is used twice: give each instance its own name`);
    const params = resolveParams(definition, entry.params, `strategies[${i}].params`) as Record<string, unknown>;
    out.push({ name, definition, params, markets: marketsOf(definition, params as never) });
  }
  return out;
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
