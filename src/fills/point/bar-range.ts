/**
 * Fills inside a bar, for point replay over OHLCV rows (see docs/backtest.md, "Fills inside a bar").
 * A row is a bar: its open, high and low say where the price went between the previous row's close and
 * this one's, so an order waiting through the bar meets the prices the bar reached, not its close only:
 *
 * - a market order (or a stop that fired) takes the price where its chance begins: the open;
 * - a sell stop fires when the low reaches its stop, and fills at the stop, or at the open when the bar
 *   opened at or below it (gapped through it: no better price was there to take);
 * - a limit fills at the open when the bar opened through it (a better price than the limit), else at
 *   its limit when the high or low reached it;
 * - when one bar reaches several waiting orders, the stops go first (the adverse outcome: of a
 *   stop-loss and a take-profit in one bar, the loss is assumed to have come first), unless the run's
 *   intrabar rule (`IntrabarRule`) takes the high as reached first in that bar;
 * - a position helper's exit decided on the bar (its stop-loss or trailing stop reached by the low, its
 *   take-profit by the high: `exitFillPrice`) fills inside the same bar, at its level, or at the open
 *   when the bar opened beyond it.
 *
 * Prices here are numbers, as a row's are; the fill amounts are worked in exact units by `fills.ts`.
 * The triggers are the platform's (`stopFires`, `crosses`), applied to the bar's extremes.
 */
import { byNumber, crosses, stopFires } from '../../platform/order-life.js';
import { INTRABAR_RULES, type IntrabarRule } from './intrabar.js';

/** The open, high and low of the row a point closes (its price is the close). */
export interface BarRange {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  /** Whether the low is taken as reached before the high (undefined: yes, the adverse order). */
  readonly lowFirst?: boolean;
}

export { INTRABAR_RULES, type IntrabarRule };

/** Whether `rule` takes the low of the bar (open, high, low) as reached before its high. */
export function lowFirstOf(rule: IntrabarRule, open: number, high: number, low: number): boolean {
  if (rule === 'adverse') return true;
  if (rule === 'favorable') return false;
  return open - low <= high - open;
}

/** The rule in one sentence, for the manifest. */
export function describeIntrabar(rule: IntrabarRule): string {
  switch (rule) {
    case 'adverse':
      return 'inside a bar the low is taken as reached before the high (the adverse order for a long: its stop-loss before its take-profit)';
    case 'open-nearest':
      return 'inside a bar the extreme nearer the open is taken as reached first (the low on a tie)';
    case 'favorable':
      return 'inside a bar the high is taken as reached before the low (the favourable order for a long: its take-profit before its stop-loss)';
  }
}

/**
 * Where a position helper's exit at `level` fills inside the bar it was decided on: `by` 'low' (a
 * stop-loss or trailing stop) at the level, or at the open when the bar opened at or below it; 'high'
 * (a take-profit) at the level, or at the open when the bar opened at or above it. Undefined when the
 * bar never came to the level (the sell is then an ordinary MARKET order).
 */
export function exitFillPrice(level: number, by: 'low' | 'high', r: BarRange): number | undefined {
  if (by === 'low') return stopTrigger(level, r);
  const touch = limitTouch('SELL', level, r);
  return touch === undefined ? undefined : touch === 'open' ? r.open : level;
}

/** The price a sell stop at `stop` fires at inside the bar, or undefined when the low stays above it. */
export function stopTrigger(stop: number, r: BarRange): number | undefined {
  if (!stopFires(r.low, stop, byNumber)) return undefined;
  return stopFires(r.open, stop, byNumber) ? r.open : stop;
}

/**
 * Where a limit at `limit` fills inside the bar: 'open' when the bar opened through it (a buy's open at
 * or below its limit, a sell's at or above), 'limit' when the low (buy) or high (sell) reached it,
 * undefined when the bar never came to it.
 */
export function limitTouch(side: 'BUY' | 'SELL', limit: number, r: BarRange): 'open' | 'limit' | undefined {
  if (crosses(side, r.open, limit, byNumber)) return 'open';
  return crosses(side, side === 'BUY' ? r.low : r.high, limit, byNumber) ? 'limit' : undefined;
}

/** A range that is a bar (finite, low ≤ open ≤ high), else undefined: a point without a bar fills by its price alone. */
export function barRangeOf(open: number, high: number, low: number): BarRange | undefined {
  return Number.isFinite(open) && Number.isFinite(high) && Number.isFinite(low) && low <= open && open <= high && low > 0
    ? { open, high, low }
    : undefined;
}
