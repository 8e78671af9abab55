/**
 * The backtest's default fill model as pure money arithmetic, in exact units. Point replay
 * (`market.ts`) decides *when* and *at which price* an order fills; these functions decide
 * *how much* moves, so the rules can be checked against hand computation one by one:
 *
 * - fee f = feeBps / 10 000 of the traded notional, taken in the quote currency;
 * - a buy by quote amount Q spends exactly Q (fee included): fee = Q × f, base = (Q × (1 − f)) / price;
 * - a sale of B base receives B × price × (1 − f): fee = gross × f with gross = B × price;
 * - a buy of B base costs B × price × (1 + f), rounded up to the quote's decimals (fee = cost − B × price);
 * - amounts credited round down: base to 8 decimals, quote to 2 (the asset's platform precision).
 *
 * Amounts are bigint units at their asset's decimals, prices and fees `Exact` values; sums and products
 * are core/exact.ts's, which are decimal.js's to the digit, so these give what the decimal.js rules
 * gave without building a Decimal per fill. A quotient is the exact one, rounded down.
 */
import { D, type Dec } from '../../core/decimal.js';
import { exactOfNumber, minus, plus, times, type Exact } from '../../core/exact.js';
import { divide, pow10, rescale } from '../../core/units.js';

/** Decimal places of the assets of one market (base 8 and quote 2 on the platform). */
export interface AssetPrecision {
  readonly baseDp: number;
  readonly quoteDp: number;
}

/** What one fill moves: base and quote (always positive) in units of their asset's decimals, the fee in full, the price. */
export interface FillAmounts {
  /** Base received (buy) or given (sell), units of 10^-baseDp. */
  readonly base: bigint;
  /** Quote spent (buy, fee included) or received (sell, fee deducted), units of 10^-quoteDp. */
  readonly quote: bigint;
  /** Fee paid in the quote currency (part of `quote` on a buy; deducted from the gross on a sell), unrounded. */
  readonly fee: Exact;
  readonly price: Exact;
}

/** The rate of `bps` basis points (10 → 0.001): exact, a finite decimal over 10^4 being one too. */
export function rateOfBps(bps: number): Exact {
  const x = exactOfNumber(bps);
  if (x === undefined) throw new RangeError(`a rate in bps must be a finite number, got ${bps}`);
  return { units: x.units, scale: x.scale + 4 };
}

const ONE: Exact = { units: 1n, scale: 0 };

/** Moves `price` against the trader by `rate`: up for a buy, down for a sell. */
export function slipped(price: Exact, side: 'BUY' | 'SELL', rate: Exact): Exact {
  if (rate.units === 0n) return price;
  return times(price, side === 'BUY' ? plus(rate, ONE) : minus(ONE, rate));
}

/** A buy spending exactly `quote` (fee included) at `price`: base received rounded down to the base's decimals. */
export function buyByQuote(quote: bigint, price: Exact, fee: Exact, p: AssetPrecision): FillAmounts {
  const spent: Exact = { units: quote, scale: p.quoteDp };
  const feePaid = times(spent, fee);
  const net = minus(spent, feePaid);
  // net / price at baseDp: net.units × 10^(price.scale + baseDp − net.scale) / price.units, rounded down
  const shift = price.scale + p.baseDp - net.scale;
  const base = shift >= 0 ? divide(net.units * pow10(shift), price.units, 'down') : divide(net.units, price.units * pow10(-shift), 'down');
  return { base, quote, fee: feePaid, price };
}

/** A buy of exactly `base` at `price`: pays the notional plus the fee, rounded up to the quote's decimals. */
export function buyByBase(base: bigint, price: Exact, fee: Exact, p: AssetPrecision): FillAmounts {
  const notional = times({ units: base, scale: p.baseDp }, price);
  const cost = atDecimals(times(notional, plus(fee, ONE)), p.quoteDp, 'up');
  return { base, quote: cost, fee: minus({ units: cost, scale: p.quoteDp }, notional), price };
}

/** A sale of exactly `base` at `price`: receives gross × (1 − f), rounded down to the quote's decimals. */
export function sellByBase(base: bigint, price: Exact, fee: Exact, p: AssetPrecision): FillAmounts {
  const gross = times({ units: base, scale: p.baseDp }, price);
  const feePaid = times(gross, fee);
  return { base, quote: atDecimals(minus(gross, feePaid), p.quoteDp, 'down'), fee: feePaid, price };
}

/** The most a base-sized buy at `limit` can cost: what a resting limit buy reserves (units of the quote's decimals). */
export function buyReservation(base: bigint, limit: Exact, fee: Exact, p: AssetPrecision): bigint {
  return buyByBase(base, limit, fee, p).quote;
}

/** `x` in units of `dp` decimals, rounded as `toDecimalPlaces` with ROUND_DOWN ('down') or ROUND_UP ('up'). */
function atDecimals(x: Exact, dp: number, rounding: 'down' | 'up'): bigint {
  return rescale(x.units, x.scale, dp, rounding);
}

/** What a held-rate quote execution moves (decimal.js: quote executions are not on the backtest's per-intent path). */
export interface QuoteAmounts {
  readonly base: Dec;
  readonly quote: Dec;
  readonly price: Dec;
}

/**
 * A held-rate quote execution at the quote's firm `price` (its spread is the cost: no fee). A buy by
 * quote receives quote / price base rounded down; a buy by base pays base × price rounded up; a sale
 * of base receives base × price rounded down; a sale sized by quote gives quote / price base rounded up.
 */
export function quoteExecution(side: 'BUY' | 'SELL', sized: { base?: Dec; quote?: Dec }, price: Dec, p: AssetPrecision): QuoteAmounts {
  const zero = new D(0);
  if (side === 'BUY') {
    if (sized.quote !== undefined)
      return { base: sized.quote.div(price).toDecimalPlaces(p.baseDp, D.ROUND_DOWN), quote: sized.quote, price };
    const base = sized.base ?? zero;
    return { base, quote: base.times(price).toDecimalPlaces(p.quoteDp, D.ROUND_UP), price };
  }
  if (sized.base !== undefined) return { base: sized.base, quote: sized.base.times(price).toDecimalPlaces(p.quoteDp, D.ROUND_DOWN), price };
  const quote = sized.quote ?? zero;
  return { base: quote.div(price).toDecimalPlaces(p.baseDp, D.ROUND_UP), quote, price };
}
