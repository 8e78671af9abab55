/**
 * What the platform does with an order once it is entered (TRADING.md §2.1), as pure functions: when
 * a stop triggers, when a GTT order expires (and how soon it may), when a post-only order is refused,
 * whether a price crosses a limit, and what becomes of the remainder the taker phase leaves. The
 * simulator's matching (src/sim/exchange) and every fill model (src/fills) call these, so each rule is
 * written once.
 *
 * Prices come as numbers (point replay, the stop triggers), as Decimals (the simulator's and the
 * recorded books' levels) or any other ordered value: the rules that compare prices take the values
 * with their comparison (`byNumber`, `byDecimal`), so no caller converts a price per event.
 */
import { type Dec, ZERO } from '../core/decimal.js';
import type { OrderType, Side, TimeInForce } from '../core/messages.js';

/** A comparison of two values of one kind: negative, zero or positive as `a` is below, at or above `b`. */
export type Compare<T> = (a: T, b: T) => number;

/** Numbers compared (NaN, an absent limit, compares as neither below nor above anything). */
export const byNumber: Compare<number> = (a, b) => a - b;

/** Decimals compared. */
export const byDecimal: Compare<Dec> = (a, b) => a.comparedTo(b);

/**
 * The stop trigger: a stop (STOP_MARKET, STOP_LIMIT: sell-only stop losses) fires once the market's
 * reference price (the book's mid, a replay's price) is at or below its `stop_price`. From then on it
 * is the order it turns into.
 */
export function stopFires<T>(reference: T, stopPrice: T, compare: Compare<T>): boolean {
  return compare(reference, stopPrice) <= 0;
}

/** The order types that wait for a trigger before their taker phase. */
export function isStopType(type: OrderType | string): boolean {
  return type === 'STOP_MARKET' || type === 'STOP_LIMIT';
}

/** GTT expiry: an order with an `expiration_date` closes (CANCELLED) at that time, at or after it. */
export function gttExpired(expiresAt: number | undefined, at: number): boolean {
  return expiresAt !== undefined && expiresAt <= at;
}

/** A GTT order must expire more than this long after it is placed (10 s). */
export const MIN_GTT_MS = 10_000;

/** Whether a GTT order placed at `placedAt` expires too soon: not more than `minGttMs` after placement (the platform rejects it). */
export function gttTooSoon(expiresAt: number | undefined, placedAt: number, minGttMs: number = MIN_GTT_MS): boolean {
  return expiresAt !== undefined && expiresAt <= placedAt + minGttMs;
}

/** Why the platform rejects a post-only order that would take at entry (status REJECTED). */
export const POST_ONLY_TAKES = 'post-only order would take liquidity';

/** The post-only rule: a POST_ONLY_LIMIT that would take liquidity at entry is rejected (the reason), else undefined. */
export function postOnlyRefusal(type: OrderType | string, wouldTake: boolean): string | undefined {
  return wouldTake && type === 'POST_ONLY_LIMIT' ? POST_ONLY_TAKES : undefined;
}

/**
 * Whether `price` (a level of the book, a replay's price) crosses the order's `limit`: a buy takes
 * at or below its limit, a sell at or above it.
 */
export function crosses<T>(side: Side, price: T, limit: T, compare: Compare<T>): boolean {
  const c = compare(price, limit);
  return side === 'BUY' ? c <= 0 : c >= 0;
}

/**
 * Partial fills: whether the remainder an order's taker phase leaves is cancelled rather than left
 * resting. MARKET and STOP_MARKET orders and IOC and FOK orders only take; the others rest with what
 * is left (and fill further as makers).
 */
export function takesOnly(type: OrderType | string, timeInForce: TimeInForce | undefined): boolean {
  return type === 'MARKET' || type === 'STOP_MARKET' || timeInForce === 'IOC' || timeInForce === 'FOK';
}

/**
 * Fill-or-kill: whether the levels that cross the order hold all of `wanted` (a FOK order fills
 * nothing otherwise: it is cancelled).
 */
export function fokCovered(wanted: Dec, crossing: readonly { readonly amount: Dec }[]): boolean {
  return !wanted.gt(crossing.reduce((sum, l) => sum.plus(l.amount), ZERO));
}
