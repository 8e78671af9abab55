/**
 * The books of journal-trades.ts (`applyFill`, `positionOf`) in exact bigint units, for the figures a
 * position shows: the same steps on the same values in the same order, so every sum, product and
 * quotient is the one decimal.js gives (core/exact.ts rounds as it does), without a Decimal made per
 * step. The kernel's position book (engine/positions.ts) keeps its books so, at every fill of a run,
 * and `tradeloop positions` reads a journal's so (journal-positions.ts).
 */
import { splitMarket } from '../core/index.js';
import { compare, EXACT_ZERO, minus, plus, dividedBy, times, toText, type Exact } from '../core/exact.js';
import { rescale, unitsToString } from '../core/units.js';
import { RATIO_DP, type StrategyPosition } from './journal-trades.js';

/** One strategy's book in one market, in exact units: journal-trades.ts's Book less what only round trips need. */
export interface ExactBook {
  readonly strategy: string;
  readonly market: string;
  /** The market's base asset, read when first needed (splitMarket refuses an unknown market, as applyFill does). */
  base: string | undefined;
  position: Exact;
  cost: Exact;
  realized: Exact;
  fees: Exact;
  trips: number;
  wins: number;
  lastAt: number;
  lastPrice: string;
  /** The open round trip's quote spent and received (its P&L decides the win); undefined while none is open. */
  trip: { spent: Exact; received: Exact } | undefined;
}

/** A flat book of one strategy in one market. */
export function openExactBook(strategy: string, market: string, lastPrice = '0'): ExactBook {
  return {
    strategy,
    market,
    base: undefined,
    position: EXACT_ZERO,
    cost: EXACT_ZERO,
    realized: EXACT_ZERO,
    fees: EXACT_ZERO,
    trips: 0,
    wins: 0,
    lastAt: 0,
    lastPrice,
    trip: undefined,
  };
}

/**
 * Applies one fill, its values already read (`priceText` is the price as the fill gave it, kept as
 * the book's last price): `applyFill` of journal-trades.ts in exact units. A commission taken in the
 * base asset of a buy leaves the position smaller by it and is counted among the fees, not the cost.
 */
export function applyExactFill(
  b: ExactBook,
  side: string,
  amount: Exact,
  price: Exact,
  priceText: string,
  commission: Exact,
  commissionAsset: string,
  at: number,
): void {
  // the fee in the quote asset: as charged, or converted at the fill's price when charged in the base asset
  const fee = commission.units === 0n ? EXACT_ZERO : commissionAsset === baseOf(b) ? times(commission, price) : commission;
  const baseFee = side === 'BUY' && commissionAsset === baseOf(b);
  b.fees = plus(b.fees, fee);
  b.lastAt = at;
  b.lastPrice = priceText;
  if (side === 'BUY') {
    const t = (b.trip ??= { spent: EXACT_ZERO, received: EXACT_ZERO });
    // a base commission is already in the cost: the quote paid bought a position smaller by it
    const spent = baseFee ? times(amount, price) : plus(times(amount, price), fee);
    const held = baseFee ? minus(amount, commission) : amount;
    t.spent = plus(t.spent, spent);
    b.position = plus(b.position, held);
    b.cost = plus(b.cost, spent);
    return;
  }
  const t = b.trip;
  if (t === undefined || b.position.units === 0n) return;
  const sold = compare(amount, b.position) < 0 ? amount : b.position;
  // the fee of a sale larger than the position is shared in proportion
  const share = amount.units === 0n ? fee : dividedBy(times(fee, sold), amount)!;
  const received = minus(times(sold, price), share);
  const costOut = dividedBy(times(b.cost, sold), b.position)!;
  b.realized = plus(b.realized, minus(received, costOut));
  b.cost = minus(b.cost, costOut);
  b.position = minus(b.position, sold);
  t.received = plus(t.received, received);
  if (b.position.units !== 0n) return;
  b.cost = EXACT_ZERO;
  b.trip = undefined;
  b.trips++;
  if (minus(t.received, t.spent).units > 0n) b.wins++;
}

/** The position as `positionOf` of journal-trades.ts writes it, to the digit. */
export function exactPositionOf(b: ExactBook): StrategyPosition {
  return {
    strategy: b.strategy,
    market: b.market,
    position: toText(b.position),
    ...(b.position.units > 0n && { averageCost: truncated(dividedBy(b.cost, b.position)!, RATIO_DP) }),
    costBasis: truncated(b.cost, RATIO_DP),
    realizedPnl: truncated(b.realized, RATIO_DP),
    fees: toText(b.fees),
    roundTrips: b.trips,
    wins: b.wins,
    lastFillAt: b.lastAt,
    lastPrice: b.lastPrice,
  };
}

function baseOf(b: ExactBook): string {
  return (b.base ??= splitMarket(b.market).base);
}

/** `toWire(value, dp)`: at most `dp` decimals, cut toward zero. */
function truncated(x: Exact, dp: number): string {
  return x.scale <= dp ? toText(x) : unitsToString(rescale(x.units, x.scale, dp, 'down'), dp);
}
