/**
 * The static checks of `tradeloop verify`: the plugin's params schema (every default passes its own
 * schema, number ranges are not empty, a log scale starts above 0), its declared markets (ones the
 * platform trades), event kinds and bar series (timeframes we build, on a market it trades). Zod returns a `.default()` value without checking it, so a default
 * outside its own range is found only here (or when a run misbehaves).
 */
import type { z } from 'zod';
import { isTradingMarket, TRADING_MARKETS } from '../../src/core/index.js';
import { barsOf, marketsOf, type StrategyDefinition } from '../../src/strategy/define.js';
import { describe } from '../search/space.js';
import type { CheckResult } from './checks.js';

const EVENT_KINDS = ['ticker', 'book', 'price', 'quote', 'timer'];

interface Wrapped {
  readonly def: { readonly type: string; readonly innerType?: Wrapped; readonly defaultValue?: unknown };
  safeParse(v: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ message: string }> } };
}

/** Defaults valid against their own schema, ranges that hold a value, log scales above 0. */
export function checkParams(definition: StrategyDefinition): CheckResult {
  const shape = definition.params.shape as Record<string, z.ZodType>;
  const problems: string[] = [];
  const unbounded: string[] = [];
  for (const [name, schema] of Object.entries(shape)) {
    problems.push(...defaultProblems(name, schema as unknown as Wrapped));
    const d = describe(schema);
    if (d.kind !== 'number') continue;
    const { low, high, log } = d.n;
    if (low !== undefined && high !== undefined && low > high)
      problems.push(`${name}: its minimum ${low} is above its maximum ${high}, so no value passes; swap or fix the bounds`);
    if (log && (low === undefined || low <= 0))
      problems.push(`${name}: a log scale needs a minimum above 0 (.gt(0) or .min(…)); got ${low ?? 'none'}`);
    if (low === undefined || high === undefined) unbounded.push(name);
  }
  const whole = definition.params.safeParse({});
  if (!whole.success)
    problems.push(
      `the params without any given do not pass the schema (${whole.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}): give each a .default(...)`,
    );
  if (problems.length > 0)
    return { check: 'params', verdict: 'fail', summary: `${problems.length} problem(s) in the params schema`, problems };
  const note =
    unbounded.length === 0
      ? ''
      : `; ${unbounded.join(', ')} ${unbounded.length === 1 ? 'has' : 'have'} no min and max, so optimize --search samples ${unbounded.length === 1 ? 'it' : 'them'} only with --grid ranges`;
  return {
    check: 'params',
    verdict: 'pass',
    summary: `${Object.keys(shape).length} param(s): every default passes its schema and every range holds a value${note}`,
  };
}

/** The param's default, when it has one, checked against the schema it defaults. */
function defaultProblems(name: string, schema: Wrapped): string[] {
  let s = schema;
  while (s.def.type === 'optional' || s.def.type === 'nullable') s = s.def.innerType!;
  if (s.def.type !== 'default' || s.def.innerType === undefined) return [];
  const value = s.def.defaultValue;
  const parsed = s.def.innerType.safeParse(value);
  if (parsed.success) return [];
  return [
    `${name}: its default ${JSON.stringify(value)} fails its own schema (${parsed.error?.issues.map((i) => i.message).join('; ')}): change the default or the bounds`,
  ];
}

/** Markets the platform trades, for the params given; event kinds the market source knows. */
export function checkMarkets(definition: StrategyDefinition, params: Readonly<Record<string, unknown>>): CheckResult {
  const problems: string[] = [];
  let markets: readonly string[] = [];
  try {
    markets = marketsOf(definition, params as never);
  } catch (e) {
    problems.push(`markets(params) threw: ${(e as Error).message}`);
  }
  if (problems.length === 0 && markets.length === 0)
    problems.push('it declares no market: return at least one, e.g. markets: (p) => [p.market]');
  for (const m of markets)
    if (!isTradingMarket(m)) problems.push(`${JSON.stringify(m)} is not a market the platform trades (${TRADING_MARKETS.join(', ')})`);
  for (const k of definition.needs ?? [])
    if (!EVENT_KINDS.includes(k)) problems.push(`needs: ${JSON.stringify(k)} is not an event kind (${EVENT_KINDS.join(', ')})`);
  const bars = declaredBars(definition, params, markets, problems);
  if (problems.length > 0)
    return { check: 'markets', verdict: 'fail', summary: `${problems.length} problem(s) in the declared markets`, problems };
  return {
    check: 'markets',
    verdict: 'pass',
    summary: `trades ${markets.join(', ')} on ${(definition.needs ?? ['price']).join(', ')} events${bars.length > 0 ? `; bars ${bars.join(', ')}` : ''}`,
  };
}

/** The bar series the plugin declares for these params, as `MARKET timeframe`; problems added for bad ones. */
function declaredBars(
  definition: StrategyDefinition,
  params: Readonly<Record<string, unknown>>,
  markets: readonly string[],
  problems: string[],
): string[] {
  try {
    const needs = barsOf(definition, params as never);
    for (const [i, n] of needs.entries())
      if (!markets.includes(n.market))
        problems.push(
          `bars[${i}]: ${n.market} ${n.timeframe} is on a market the strategy does not declare (${markets.join(', ')}): add it to markets or drop the series`,
        );
    return needs.map((n) => `${n.market} ${n.timeframe}`);
  } catch (e) {
    problems.push(`bars(params): ${(e as Error).message}`);
    return [];
  }
}
