/**
 * What a venue says about one market that an order must respect: the price tick, the decimals of
 * amounts, and the platform's size caps. Strategies read it (through `ctx.instrument(market)`) to
 * round their prices and amounts before they ask, so an order is never refused for precision; the
 * order rules (`src/platform/order-rules.ts`) read it to refuse what the platform would. The
 * platform's own instruments are data in `src/platform/instruments.ts`.
 */
import { D, type Dec } from './decimal.js';
import { InputError } from './errors.js';
import { type MarketSymbol } from './markets.js';
import { decimalsOf, MAX_DECIMALS, rescale, unitsOf, unitsToFixed, unitsToString, type UnitRounding } from './units.js';
import { exactOfDecimal } from './exact.js';

/** The platform's largest order notional in USD, by order kind (TRADING.md §2.1, CreateOrder). */
export interface NotionalCaps {
  /** MARKET and STOP_MARKET orders. */
  readonly market: Dec;
  /** LIMIT, POST_ONLY_LIMIT and STOP_LIMIT orders. */
  readonly limit: Dec;
}

/** One tradable market as the venue describes it (ListMarkets, plus the platform's fixed rules). */
export interface Instrument {
  readonly market: MarketSymbol;
  readonly base: string;
  readonly quote: string;
  /** Price increment (ListMarkets `tick_rate`): every price and stop price is a multiple of it. */
  readonly tick: Dec;
  /** Decimal places of the tick ("0.01" → 2, "0.25" → 2, "5" → 0). */
  readonly priceDecimals: number;
  /** Most decimal places a base amount may have (8 for crypto). */
  readonly baseDecimals: number;
  /** Most decimal places a quote amount may have (2 for fiat). */
  readonly quoteDecimals: number;
  /** Smallest base amount of one order, when the venue has one (the platform states none). */
  readonly minBaseAmount?: Dec;
  /** Largest base amount of one order, when the venue has one (the platform states none). */
  readonly maxBaseAmount?: Dec;
  /** Largest order notional in USD; an order above it is refused 403 notional-value-too-large. */
  readonly maxNotionalUsd: NotionalCaps;
}

/** A ListMarkets row in our own words; base and quote default to the symbol's split. */
export interface MarketListing {
  readonly market: MarketSymbol;
  readonly tickRate: string | Dec;
  readonly base?: string;
  readonly quote?: string;
}

/** How a helper rounds a value that is not representable: toward zero, away from it, or to the closer (halves up). */
export type Rounding = 'down' | 'up' | 'nearest';

/** A price or amount as a strategy may hold it: a float from its signal math, a wire string or a Decimal. */
export type Numeric = number | string | Dec;

const MODES = { down: D.ROUND_DOWN, up: D.ROUND_UP, nearest: D.ROUND_HALF_UP } as const;

/**
 * Rounds a price to the instrument's tick and returns it as a wire decimal string with the tick's
 * decimals ("100.50" on a 0.01 tick). A buy usually rounds `down` (never pays more than meant), a sell
 * `up`. Throws an InputError naming `price` for a value that is not a finite number ≥ 0; a price that
 * rounds to zero is returned as zero ("0.00"), and the order rules then refuse it.
 */
export function roundPrice(i: Instrument, price: Numeric, mode: Rounding = 'nearest'): string {
  const steps = toDec(price, 'price').div(i.tick).toDecimalPlaces(0, modeOf(mode));
  return steps.times(i.tick).toFixed(i.priceDecimals);
}

/** Rounds a base amount to the instrument's base decimals (`down` by default: never more than held). */
export function roundBase(i: Instrument, amount: Numeric, mode: Rounding = 'down'): string {
  const units = roundedUnits(amount, i.baseDecimals, mode);
  if (units !== undefined) return unitsToString(units, i.baseDecimals);
  return toDec(amount, 'base_amount').toDecimalPlaces(i.baseDecimals, modeOf(mode)).toFixed();
}

/** Rounds a quote amount to the instrument's quote decimals, written with all of them ("25.00"; `down` by default: never more than meant to spend). */
export function roundQuote(i: Instrument, amount: Numeric, mode: Rounding = 'down'): string {
  const units = roundedUnits(amount, i.quoteDecimals, mode);
  if (units !== undefined) return unitsToFixed(units, i.quoteDecimals);
  return toDec(amount, 'quote_amount').toDecimalPlaces(i.quoteDecimals, modeOf(mode)).toFixed(i.quoteDecimals);
}

/**
 * `value` as units of 10^-decimals rounded as `mode` says: exact bigint arithmetic, several times
 * cheaper than decimal.js's rounding and formatting (strategies round every amount they ask for).
 * Undefined for what is not a plain decimal of 0 or more in units' reach (a negative, NaN, hex text,
 * a bad mode): the caller's decimal.js path then reads it, or refuses it with the error it always gave.
 */
function roundedUnits(value: Numeric, decimals: number, mode: Rounding): bigint | undefined {
  const rounding: UnitRounding | undefined = mode === 'down' ? 'down' : mode === 'up' ? 'up' : mode === 'nearest' ? 'half-up' : undefined;
  if (rounding === undefined) return undefined;
  let text: string;
  if (typeof value === 'string') text = value;
  // -0 is refused as negative by the decimal.js path, though String(-0) is "0"
  else if (typeof value === 'number') text = value > 0 || Object.is(value, 0) ? String(value) : '-';
  else if (D.isDecimal(value)) {
    // a Decimal's digits are read as they are (no text in between: writing it out was most of the cost)
    if (value.isNegative()) return undefined;
    const x = exactOfDecimal(value);
    return x === undefined || x.scale > MAX_DECIMALS ? undefined : rescale(x.units, x.scale, decimals, rounding);
  } else return undefined;
  if (text.charCodeAt(0) === 45) return undefined; // '-'
  const exact = decimalsOf(text);
  if (exact === undefined || exact > MAX_DECIMALS) return undefined;
  const scale = Math.max(exact, decimals);
  const units = unitsOf(text, scale);
  return units === undefined ? undefined : rescale(units, scale, decimals, rounding);
}

/** True when `price` is a whole number of ticks. */
export function onTick(i: Instrument, price: Dec): boolean {
  return price.mod(i.tick).isZero();
}

function modeOf(mode: Rounding): (typeof MODES)[Rounding] {
  const m = (MODES as Partial<typeof MODES>)[mode];
  if (m === undefined) throw new InputError('mode', `${JSON.stringify(mode)} is not a rounding: use down, up or nearest`);
  return m;
}

/** `value` as a Decimal of 0 or more, or an InputError naming `field`. */
export function toDec(value: Numeric, field: string): Dec {
  let d: Dec | undefined;
  try {
    d = typeof value === 'number' && !Number.isFinite(value) ? undefined : new D(value);
  } catch {
    d = undefined;
  }
  if (d === undefined || !d.isFinite() || d.isNegative()) {
    throw new InputError(
      field,
      `expected a finite number of 0 or more, got ${JSON.stringify(typeof value === 'object' ? String(value) : value)}`,
    );
  }
  return d;
}
