/**
 * The platform's market lists, and the increments of its historical prices. Different operations
 * accept different lists (trading, market data, historical prices, prices), so each is named
 * separately. Symbols are base + quote with no separator.
 */

/** Markets of orders, executions, quotes and quote executions. */
export const TRADING_MARKETS = [
  'ETHEUR',
  'ETHSGD',
  'ETHUSD',
  'BTCEUR',
  'BTCSGD',
  'BTCUSD',
  'PAXGUSD',
  'BCHUSD',
  'LTCUSD',
  'USDPUSD',
  'LINKUSD',
  'MATICUSD',
  'AAVEUSD',
  'UNIUSD',
] as const;

/** Markets of GetOrderBook, ListRecentExecutions and GetTicker. */
export const MARKET_DATA_MARKETS = [
  ...TRADING_MARKETS,
  'ETHBRL',
  'BTCBRL',
  'LTCBRL',
  'BCHBRL',
  'USDPGBP',
  'USDPBRL',
  'AAVEMXN',
  'BCHMXN',
  'BTCMXN',
  'ETHMXN',
  'LTCMXN',
  'USDPMXN',
  'AAVEEUR',
  'BCHEUR',
  'LTCEUR',
  'LINKEUR',
  'MATICEUR',
  'PAXGEUR',
  'SOLEUR',
  'USDPEUR',
  'UNIEUR',
  'PYUSDEUR',
] as const;

/** Markets of ListHistoricalPrices. */
export const HISTORICAL_MARKETS = [
  ...MARKET_DATA_MARKETS.filter((m) => m !== 'ETHSGD' && m !== 'BTCSGD'),
  'ETHGBP',
  'BTCGBP',
  'LTCGBP',
  'BCHGBP',
  'PYUSDGBP',
] as const;

/** The platform's historical-price increments, in milliseconds, finest first. */
export const INCREMENTS_MS = {
  ONE_MINUTE: 60_000,
  FIVE_MINUTES: 300_000,
  FIFTEEN_MINUTES: 900_000,
  THIRTY_MINUTES: 1_800_000,
  ONE_HOUR: 3_600_000,
  TWO_HOURS: 7_200_000,
  TWELVE_HOURS: 43_200_000,
  ONE_DAY: 86_400_000,
  ONE_WEEK: 604_800_000,
  TWO_WEEKS: 1_209_600_000,
  FOUR_WEEKS: 2_419_200_000,
} as const;
export type Increment = keyof typeof INCREMENTS_MS;

/** Markets of ListPrices. */
export const PRICE_MARKETS = [
  'ETHUSD',
  'BTCUSD',
  'PAXGUSD',
  'BCHUSD',
  'LTCUSD',
  'USDPUSD',
  'LINKUSD',
  'MATICUSD',
  'AAVEUSD',
  'UNIUSD',
] as const;

export type TradingMarket = (typeof TRADING_MARKETS)[number];
export type MarketDataMarket = (typeof MARKET_DATA_MARKETS)[number];
export type PriceMarket = (typeof PRICE_MARKETS)[number];
/** A market symbol; known values autocomplete, unknown ones from the server still type-check. */
export type MarketSymbol = TradingMarket | MarketDataMarket | (string & {});

const QUOTE_ASSETS = ['USD', 'EUR', 'SGD', 'BRL', 'GBP', 'MXN'] as const;

export interface MarketAssets {
  readonly base: string;
  readonly quote: string;
}

/** Splits a market symbol into base and quote asset ("BTCUSD" → BTC, USD). */
export function splitMarket(market: string): MarketAssets {
  for (const quote of QUOTE_ASSETS) {
    if (market.length > quote.length && market.endsWith(quote)) {
      return { base: market.slice(0, -quote.length), quote };
    }
  }
  throw new RangeError(`unknown market symbol ${JSON.stringify(market)}: expected base+quote such as BTCUSD`);
}

export function isTradingMarket(market: string): market is TradingMarket {
  return (TRADING_MARKETS as readonly string[]).includes(market);
}

export function isMarketDataMarket(market: string): market is MarketDataMarket {
  return (MARKET_DATA_MARKETS as readonly string[]).includes(market);
}

export function isHistoricalMarket(market: string): boolean {
  return (HISTORICAL_MARKETS as readonly string[]).includes(market);
}

export function isPriceMarket(market: string): market is PriceMarket {
  return (PRICE_MARKETS as readonly string[]).includes(market);
}

/** Decimal places of amounts per asset on the platform: fiat 2, crypto 8. */
export function assetDecimals(asset: string): number {
  return (QUOTE_ASSETS as readonly string[]).includes(asset) ? 2 : 8;
}

export function isFiat(asset: string): boolean {
  return (QUOTE_ASSETS as readonly string[]).includes(asset);
}
