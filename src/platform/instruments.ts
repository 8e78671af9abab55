/**
 * The platform's instruments as data: each market's price tick, the decimals of its amounts, its size
 * limits (the platform states none) and its notional caps in USD (TRADING.md §2.1). The risk gate,
 * every venue, the fill models, the simulator and the sandbox's ListMarkets read them here; to change
 * a market's tick, change its row.
 */
import { D } from '../core/decimal.js';
import { InputError } from '../core/errors.js';
import { toDec, type Instrument, type MarketListing, type NotionalCaps } from '../core/instrument.js';
import {
  assetDecimals,
  HISTORICAL_MARKETS,
  MARKET_DATA_MARKETS,
  splitMarket,
  TRADING_MARKETS,
  type MarketSymbol,
} from '../core/markets.js';

/** The caps of BTCUSD and ETHUSD: MARKET 500,000 USD, LIMIT 1,500,000. */
const MAJOR: NotionalCaps = Object.freeze({ market: new D(500_000), limit: new D(1_500_000) });
/** The caps of every other market: MARKET 500,000 USD, LIMIT 1,000,000. */
const STANDARD: NotionalCaps = Object.freeze({ market: new D(500_000), limit: new D(1_000_000) });

/** One row of the table: market, tick, base decimals, quote decimals, notional caps. */
type Row = readonly [market: MarketSymbol, tick: string, baseDecimals: number, quoteDecimals: number, caps: NotionalCaps];

/** Every market the platform lists (trading, market data and historical prices), trading markets first in ListMarkets order. */
const ROWS: readonly Row[] = [
  ['ETHEUR', '0.01', 8, 2, STANDARD],
  ['ETHSGD', '0.01', 8, 2, STANDARD],
  ['ETHUSD', '0.01', 8, 2, MAJOR],
  ['BTCEUR', '0.01', 8, 2, STANDARD],
  ['BTCSGD', '0.01', 8, 2, STANDARD],
  ['BTCUSD', '0.01', 8, 2, MAJOR],
  ['PAXGUSD', '0.01', 8, 2, STANDARD],
  ['BCHUSD', '0.01', 8, 2, STANDARD],
  ['LTCUSD', '0.01', 8, 2, STANDARD],
  ['USDPUSD', '0.0001', 8, 2, STANDARD],
  ['LINKUSD', '0.01', 8, 2, STANDARD],
  ['MATICUSD', '0.0001', 8, 2, STANDARD],
  ['AAVEUSD', '0.01', 8, 2, STANDARD],
  ['UNIUSD', '0.01', 8, 2, STANDARD],
  ['ETHBRL', '0.01', 8, 2, STANDARD],
  ['BTCBRL', '0.01', 8, 2, STANDARD],
  ['LTCBRL', '0.01', 8, 2, STANDARD],
  ['BCHBRL', '0.01', 8, 2, STANDARD],
  ['USDPGBP', '0.0001', 8, 2, STANDARD],
  ['USDPBRL', '0.01', 8, 2, STANDARD],
  ['AAVEMXN', '0.01', 8, 2, STANDARD],
  ['BCHMXN', '0.01', 8, 2, STANDARD],
  ['BTCMXN', '0.01', 8, 2, STANDARD],
  ['ETHMXN', '0.01', 8, 2, STANDARD],
  ['LTCMXN', '0.01', 8, 2, STANDARD],
  ['USDPMXN', '0.01', 8, 2, STANDARD],
  ['AAVEEUR', '0.01', 8, 2, STANDARD],
  ['BCHEUR', '0.01', 8, 2, STANDARD],
  ['LTCEUR', '0.01', 8, 2, STANDARD],
  ['LINKEUR', '0.01', 8, 2, STANDARD],
  ['MATICEUR', '0.0001', 8, 2, STANDARD],
  ['PAXGEUR', '0.01', 8, 2, STANDARD],
  ['SOLEUR', '0.01', 8, 2, STANDARD],
  ['USDPEUR', '0.0001', 8, 2, STANDARD],
  ['UNIEUR', '0.01', 8, 2, STANDARD],
  ['PYUSDEUR', '0.0001', 8, 2, STANDARD],
  ['ETHGBP', '0.01', 8, 2, STANDARD],
  ['BTCGBP', '0.01', 8, 2, STANDARD],
  ['LTCGBP', '0.01', 8, 2, STANDARD],
  ['BCHGBP', '0.01', 8, 2, STANDARD],
  ['PYUSDGBP', '0.0001', 8, 2, STANDARD],
];

function instrumentOfRow([market, tickRate, baseDecimals, quoteDecimals, caps]: Row): Instrument {
  const { base, quote } = splitMarket(market);
  const tick = new D(tickRate);
  return Object.freeze({
    market,
    base,
    quote,
    tick,
    priceDecimals: tick.decimalPlaces(),
    baseDecimals,
    quoteDecimals,
    maxNotionalUsd: caps,
  });
}

/** The table, built once: every order is checked against one of these objects. */
const INSTRUMENTS: ReadonlyMap<string, Instrument> = new Map(ROWS.map((r) => [r[0], instrumentOfRow(r)]));

/** The platform's notional caps of `market`: its row's, or the standard caps for a market the table does not list. */
export function platformNotionalCaps(market: MarketSymbol): NotionalCaps {
  return INSTRUMENTS.get(market)?.maxNotionalUsd ?? STANDARD;
}

/** The instrument of a market the platform lists; throws a RangeError for one it does not. */
export function platformInstrument(market: string): Instrument {
  const i = INSTRUMENTS.get(market);
  if (i === undefined) throw new RangeError(`market ${market} is not listed by the platform`);
  return i;
}

/** Every market of the table: the union of the trading, market-data and historical-price lists. */
export const LISTED_MARKETS: readonly string[] = [...INSTRUMENTS.keys()];

/** The instruments of the trading markets, in ListMarkets order: what the sandbox's ListMarkets lists. */
export function tradingInstruments(): readonly Instrument[] {
  return TRADING_MARKETS.map((m) => INSTRUMENTS.get(m)!);
}

/**
 * Builds the instrument of a listed market (a venue's ListMarkets row): the tick as the venue says,
 * decimals of amounts the platform's per asset (fiat 2, crypto 8), caps the platform's. Throws an
 * InputError when the tick is not a positive decimal, so a venue's bad row is reported where it is read
 * rather than checked against later.
 */
export function instrumentOf(listing: MarketListing): Instrument {
  const { base, quote } =
    listing.base !== undefined && listing.quote !== undefined ? { base: listing.base, quote: listing.quote } : splitMarket(listing.market);
  const tick = toDec(listing.tickRate, 'tick_rate');
  if (!tick.gt(0)) throw new InputError('tick_rate', `the tick of ${listing.market} must be greater than zero, got ${tick.toFixed()}`);
  return Object.freeze({
    market: listing.market,
    base,
    quote,
    tick,
    priceDecimals: tick.decimalPlaces(),
    baseDecimals: assetDecimals(base),
    quoteDecimals: assetDecimals(quote),
    maxNotionalUsd: platformNotionalCaps(listing.market),
  });
}

// every list the platform names is in the table
for (const m of [...MARKET_DATA_MARKETS, ...HISTORICAL_MARKETS])
  if (!INSTRUMENTS.has(m)) throw new RangeError(`market ${m} has no row in the instrument table`);
