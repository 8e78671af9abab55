/**
 * Why a backtest made no decision at all, in words a user can act on. Strategies decide once their
 * indicators have seen enough points (their warm-up); a replay shorter than that can only show the
 * starting balances, which is easy to misread as a flat strategy. The warm-up is read from the
 * params that name a period (`slow`, `period`, `window`, `lookback`, `length`, `*_period` …): the
 * longest of them is the number of points the strategy needs before its first signal.
 */
import type { StrategyDefinition } from '../src/strategy/define.js';

const PERIOD_NAME = /^(fast|slow|period|window|lookback|length|span|bars|warmup|warm_up)$|_(period|window|lookback|length|span|bars)$/i;

/** A strategy's warm-up: the points it needs, and the param that sets it when that is how it is known. */
export interface WarmUp {
  readonly points: number;
  /** The period-like param the warm-up was read from (absent when the strategy declares it). */
  readonly param?: string;
}

/**
 * The strategy's warm-up: what its definition declares (`warmUp(params)`), else the longest
 * period-like param, when the params have one.
 */
export function warmUpOf(params: Readonly<Record<string, unknown>>, definition?: Pick<StrategyDefinition, 'warmUp'>): WarmUp | undefined {
  if (definition?.warmUp !== undefined) {
    let declared: number;
    try {
      declared = definition.warmUp(params as never);
    } catch {
      declared = Number.NaN;
    }
    if (Number.isInteger(declared) && declared >= 0) return { points: declared };
  }
  let best: WarmUp | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (!PERIOD_NAME.test(name) || typeof value !== 'number' || !Number.isInteger(value) || value < 1) continue;
    if (best === undefined || value > best.points) best = { points: value, param: name };
  }
  return best;
}

/** "slow=30 needs more than 30 points before its first signal", or "it needs 31 points before its first decision". */
function needs(w: WarmUp): string {
  const n = w.points.toLocaleString('en-US');
  return w.param !== undefined
    ? `${w.param}=${w.points} needs more than ${n} points before its first signal`
    : `it needs ${n} points before its first decision`;
}

/**
 * The warning of a run that made no intent, or undefined when it made one: with `points` fewer than
 * the warm-up, that no decision was possible and why; otherwise that none was made in the data.
 */
export function noDecisionWarning(
  definition: Pick<StrategyDefinition, 'name' | 'warmUp'>,
  params: Readonly<Record<string, unknown>>,
  points: number,
  intents: number,
): string | undefined {
  if (intents > 0) return undefined;
  const warm = warmUpOf(params, definition);
  const replayed = `${points.toLocaleString('en-US')} point${points === 1 ? '' : 's'}`;
  if (warm !== undefined && points <= warm.points) {
    const shorter = warm.param !== undefined ? ` or a shorter ${warm.param}` : '';
    return `no decision was possible: the ${replayed} replayed are not enough for the warm-up of ${definition.name} (${needs(warm)}), so the figures below only show the starting balances; give more data (--from earlier, or a longer file)${shorter}`;
  }
  return `no decision was made: ${definition.name} made no intent in ${replayed}${warm ? ` (${needs(warm)})` : ''}, so the figures below only show the starting balances; the data may give no signal, or the strategy's warm-up may be longer than the data`;
}
