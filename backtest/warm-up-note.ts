/**
 * Why a backtest made no decision at all, in words a user can act on. Strategies decide once their
 * indicators have seen enough points (their warm-up); a replay shorter than that can only show the
 * starting balances, which is easy to misread as a flat strategy. The warm-up is read from the
 * params that name a period (`slow`, `period`, `window`, `lookback`, `length`, `*_period` …): the
 * longest of them is the number of points the strategy needs before its first signal.
 */
import type { StrategyDefinition } from '../src/strategy/define.js';

const PERIOD_NAME = /^(fast|slow|period|window|lookback|length|span|bars|warmup|warm_up)$|_(period|window|lookback|length|span|bars)$/i;

/** The longest period-like param, as [name, points], when the params have one. */
export function warmUpOf(params: Readonly<Record<string, unknown>>): [string, number] | undefined {
  let best: [string, number] | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (!PERIOD_NAME.test(name) || typeof value !== 'number' || !Number.isInteger(value) || value < 1) continue;
    if (best === undefined || value > best[1]) best = [name, value];
  }
  return best;
}

/**
 * The warning of a run that made no intent, or undefined when it made one: with `points` fewer than
 * the warm-up, that no decision was possible and why; otherwise that none was made in the data.
 */
export function noDecisionWarning(definition: Pick<StrategyDefinition, 'name'>, params: Readonly<Record<string, unknown>>, points: number, intents: number): string | undefined {
  if (intents > 0) return undefined;
  const warm = warmUpOf(params);
  const replayed = `${points.toLocaleString('en-US')} point${points === 1 ? '' : 's'}`;
  if (warm !== undefined && points <= warm[1]) {
    return `no decision was possible: the ${replayed} replayed are not enough for the warm-up of ${definition.name} (${warm[0]}=${warm[1]} needs more than ${warm[1]} points before its first signal), so the figures below only show the starting balances; give more data (--from earlier, or a longer file) or a shorter ${warm[0]}`;
  }
  return `no decision was made: ${definition.name} made no intent in ${replayed}${warm ? ` (${warm[0]}=${warm[1]})` : ''}, so the figures below only show the starting balances; the data may give no signal, or the strategy's warm-up may be longer than the data`;
}
