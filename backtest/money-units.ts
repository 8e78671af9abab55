/**
 * How a backtest's money and fills are shown, apart from the report that draws them: the run driver
 * and the optimizer's threads need these, and importing them from report.ts loaded the whole report
 * (HTML, charts, robustness sections) into every backtest and every optimizer thread.
 */
import { fallbackPriceDecimals, splitMarket } from '../src/core/index.js';

/** A buy or sell to mark on the price chart. */
export interface FillMarker {
  readonly at: number;
  readonly side: 'buy' | 'sell';
  readonly price: number;
}

/**
 * The units money is shown in for people: amounts of the base and quote asset at their precision,
 * prices at the market's tick. (trades.csv and equity.csv keep every digit.)
 */
export interface MoneyUnits {
  readonly base: string;
  readonly quote: string;
  readonly priceDecimals: number;
}

/**
 * The units of a market: base and quote from its symbol, prices at `priceDecimals` (the instrument's
 * tick decimals, which a run knows) or else at the quote asset's precision.
 */
export function unitsOf(market: string, priceDecimals?: number): MoneyUnits {
  try {
    const { base, quote } = splitMarket(market);
    return { base, quote, priceDecimals: priceDecimals ?? fallbackPriceDecimals(quote) };
  } catch {
    return { base: market, quote: 'USD', priceDecimals: priceDecimals ?? 2 };
  }
}
