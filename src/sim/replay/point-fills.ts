/**
 * The backtest's default fill model as pure money arithmetic (decimal.js, exact). Point replay
 * (`point-market.ts`) decides *when* and *at which price* an order fills; these functions decide
 * *how much* moves, so the rules can be checked against hand computation one by one:
 *
 * - fee f = feeBps / 10 000 of the traded notional, taken in the quote currency;
 * - a buy by quote amount Q spends exactly Q (fee included): fee = Q × f, base = (Q × (1 − f)) / price;
 * - a sale of B base receives B × price × (1 − f): fee = gross × f with gross = B × price;
 * - a buy of B base costs B × price × (1 + f), rounded up to the quote's decimals (fee = cost − B × price);
 * - amounts credited round down: base to 8 decimals, quote to 2 (the asset's platform precision).
 */
import { D, type Dec } from '../../core/decimal.js';

/** What one fill moves: base and quote amounts (always positive), the fee and the price. */
export interface FillAmounts {
  /** Base received (buy) or given (sell). */
  readonly base: Dec;
  /** Quote spent (buy, fee included) or received (sell, fee deducted). */
  readonly quote: Dec;
  /** Fee paid in the quote currency (part of `quote` on a buy; deducted from the gross on a sell). */
  readonly fee: Dec;
  readonly price: Dec;
}

/** Decimal places of the assets of one market (base 8 and quote 2 on the platform). */
export interface AssetPrecision {
  readonly baseDp: number;
  readonly quoteDp: number;
}

/** The fee rate of `feeBps` basis points (10 → 0.001). */
export function feeRate(feeBps: number): Dec {
  return new D(feeBps).div(10_000);
}

/** Moves `price` against the trader by `bps`: up for a buy, down for a sell. */
export function slipped(price: Dec, side: 'BUY' | 'SELL', bps: number): Dec {
  if (bps === 0) return price;
  const k = new D(bps).div(10_000);
  return side === 'BUY' ? price.times(k.plus(1)) : price.times(new D(1).minus(k));
}

/** A buy spending exactly `quote` (fee included) at `price`. */
export function buyByQuote(quote: Dec, price: Dec, fee: Dec, p: AssetPrecision): FillAmounts {
  const feePaid = quote.times(fee);
  const base = divideDown(quote.minus(feePaid), price, p.baseDp);
  return { base, quote, fee: feePaid, price };
}

const POWERS_OF_TEN: bigint[] = [1n];
function pow10(n: number): bigint {
  while (POWERS_OF_TEN.length <= n) POWERS_OF_TEN.push(POWERS_OF_TEN[POWERS_OF_TEN.length - 1]! * 10n);
  return POWERS_OF_TEN[n]!;
}

/** A non-negative decimal as a whole number of units of 10^-scale: 12.345 → [12345n, 3]. */
function scaled(x: Dec): [bigint, number] {
  const text = x.toFixed();
  const dot = text.indexOf('.');
  return dot < 0 ? [BigInt(text), 0] : [BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1];
}

/**
 * `a / b` rounded down to `dp` decimals (a ≥ 0, b > 0), by integer division of the two amounts in
 * units of their last decimal place: exact, and a fraction of the cost of a 40-digit decimal
 * division. The same value as `a.div(b).toDecimalPlaces(dp, ROUND_DOWN)` whenever the quotient's first
 * 40 digits carry no run of nines across the `dp`-th place, which the amounts and prices of a fill
 * (a few significant digits each) cannot produce; where they could, this one is the exact floor.
 */
export function divideDown(a: Dec, b: Dec, dp: number): Dec {
  const [na, sa] = scaled(a);
  const [nb, sb] = scaled(b);
  const shift = sb - sa + dp;
  const q = shift >= 0 ? (na * pow10(shift)) / nb : na / (nb * pow10(-shift));
  return new D(dp === 0 ? q.toString() : `${q}e-${dp}`);
}

/** A buy of exactly `base` at `price`: pays the notional plus the fee, rounded up to quote precision. */
export function buyByBase(base: Dec, price: Dec, fee: Dec, p: AssetPrecision): FillAmounts {
  const notional = base.times(price);
  const cost = notional.times(fee.plus(1)).toDecimalPlaces(p.quoteDp, D.ROUND_UP);
  return { base, quote: cost, fee: cost.minus(notional), price };
}

/** A sale of exactly `base` at `price`: receives gross × (1 − f), rounded down to quote precision. */
export function sellByBase(base: Dec, price: Dec, fee: Dec, p: AssetPrecision): FillAmounts {
  const gross = base.times(price);
  const feePaid = gross.times(fee);
  const quote = gross.minus(feePaid).toDecimalPlaces(p.quoteDp, D.ROUND_DOWN);
  return { base, quote, fee: feePaid, price };
}

/** The most a base-sized buy at `limit` can cost: what a resting limit buy reserves. */
export function buyReservation(base: Dec, limit: Dec, fee: Dec, p: AssetPrecision): Dec {
  return buyByBase(base, limit, fee, p).quote;
}

/**
 * A held-rate quote execution at the quote's firm `price` (its spread is the cost: no fee). A buy by
 * quote receives quote / price base rounded down; a buy by base pays base × price rounded up; a sale
 * of base receives base × price rounded down; a sale sized by quote gives quote / price base rounded up.
 */
export function quoteExecution(side: 'BUY' | 'SELL', sized: { base?: Dec; quote?: Dec }, price: Dec, p: AssetPrecision): FillAmounts {
  const zero = new D(0);
  if (side === 'BUY') {
    if (sized.quote !== undefined) return { base: sized.quote.div(price).toDecimalPlaces(p.baseDp, D.ROUND_DOWN), quote: sized.quote, fee: zero, price };
    const base = sized.base ?? zero;
    return { base, quote: base.times(price).toDecimalPlaces(p.quoteDp, D.ROUND_UP), fee: zero, price };
  }
  if (sized.base !== undefined) return { base: sized.base, quote: sized.base.times(price).toDecimalPlaces(p.quoteDp, D.ROUND_DOWN), fee: zero, price };
  const quote = sized.quote ?? zero;
  return { base: quote.div(price).toDecimalPlaces(p.baseDp, D.ROUND_UP), quote, fee: zero, price };
}
