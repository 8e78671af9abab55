/**
 * Money as people read it: amounts at their asset's precision (USD 2, BTC 8) and prices at the
 * market's tick, rounded to the nearest (halves away from zero). Only for text meant for people (the
 * live panel, the run summary, reports, tables): `--json`, CSV files and the journal keep every digit.
 */
import { D, type Dec } from './decimal.js';
import { assetDecimals } from './markets.js';

/** A number, a wire decimal string or a Decimal. */
export type MoneyValue = number | string | Dec;

/**
 * Formats `value` with exactly `decimals` places ("80000.0004151604257", 2 → "80000.00"). A negative
 * value that rounds to zero prints as "0.00", never "-0.00". Anything that is not a finite number
 * (NaN, "", undefined) prints as "-", so a gap in the data never shows up as a made-up amount.
 */
export function formatDecimal(value: MoneyValue | undefined | null, decimals: number): string {
  const d = toDecimal(value);
  if (d === undefined) return '-';
  const rounded = d.toDecimalPlaces(decimals, D.ROUND_HALF_UP);
  return (rounded.isZero() ? rounded.abs() : rounded).toFixed(decimals);
}

/** An amount of `asset` at the asset's precision: fiat 2 decimals, crypto 8 ("2061.7459188883386", USD → "2061.75"). */
export function formatAmount(value: MoneyValue | undefined | null, asset: string): string {
  return formatDecimal(value, assetDecimals(asset));
}

/** An amount followed by its asset, e.g. "80000.00 USD". */
export function formatMoney(value: MoneyValue | undefined | null, asset: string): string {
  return `${formatAmount(value, asset)} ${asset}`;
}

/**
 * A price at the market's tick decimals ("33298.01542458", 2 → "33298.02"). `priceDecimals` is the
 * instrument's (`Instrument.priceDecimals`); without it, the quote asset's precision.
 */
export function formatPrice(value: MoneyValue | undefined | null, priceDecimals: number): string {
  return formatDecimal(value, priceDecimals);
}

/** Decimals to show a price of `quote` in when the market's tick is not known: the quote asset's. */
export function fallbackPriceDecimals(quote: string): number {
  return assetDecimals(quote);
}

/**
 * Digits after the point of a formatted number ("12.345" → 3, "7" → 0); for tests and checks that
 * text shows no more than an asset allows.
 */
export function shownDecimals(text: string): number {
  const m = /^-?\d+(?:\.(\d+))?$/.exec(text.trim());
  return m?.[1]?.length ?? 0;
}

function toDecimal(value: MoneyValue | undefined | null): Dec | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  try {
    const d = new D(value);
    return d.isFinite() ? d : undefined;
  } catch {
    return undefined;
  }
}
