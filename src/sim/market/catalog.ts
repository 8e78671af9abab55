import { HISTORICAL_MARKETS, MARKET_DATA_MARKETS, splitMarket } from '../../core/markets.js';
import { platformInstrument } from '../../platform/instruments.js';

/**
 * Static facts of the simulated markets: where prices start, how volatile they are, how deep the
 * synthetic book is and how busy the background tape is. Every market of one base asset shares
 * that asset's USD price path (BTCEUR = BTCUSD path × EUR rate), so cross markets stay consistent.
 */
export interface AssetProfile {
  /** Price in USD at the anchor of the price process. */
  readonly usdPrice: number;
  /** Annualised volatility of log returns (0.6 = 60 %). */
  readonly annualVol: number;
  /** USD notional of one synthetic book level, on average. */
  readonly levelUsd: number;
  /** Background trades per second, on average. */
  readonly tradesPerSecond: number;
  /** Quoted spread in basis points of mid. */
  readonly spreadBps: number;
}

const ASSETS: Readonly<Record<string, AssetProfile>> = {
  BTC: { usdPrice: 62_000, annualVol: 0.6, levelUsd: 25_000, tradesPerSecond: 1.0, spreadBps: 2 },
  ETH: { usdPrice: 3_100, annualVol: 0.7, levelUsd: 20_000, tradesPerSecond: 0.8, spreadBps: 2 },
  PAXG: { usdPrice: 2_350, annualVol: 0.15, levelUsd: 8_000, tradesPerSecond: 0.2, spreadBps: 6 },
  BCH: { usdPrice: 420, annualVol: 0.8, levelUsd: 8_000, tradesPerSecond: 0.3, spreadBps: 8 },
  LTC: { usdPrice: 85, annualVol: 0.8, levelUsd: 8_000, tradesPerSecond: 0.3, spreadBps: 8 },
  USDP: { usdPrice: 1, annualVol: 0.004, levelUsd: 50_000, tradesPerSecond: 0.2, spreadBps: 2 },
  PYUSD: { usdPrice: 1, annualVol: 0.004, levelUsd: 50_000, tradesPerSecond: 0.2, spreadBps: 2 },
  LINK: { usdPrice: 15, annualVol: 0.9, levelUsd: 6_000, tradesPerSecond: 0.3, spreadBps: 8 },
  MATIC: { usdPrice: 0.7, annualVol: 0.9, levelUsd: 6_000, tradesPerSecond: 0.3, spreadBps: 10 },
  AAVE: { usdPrice: 110, annualVol: 0.9, levelUsd: 6_000, tradesPerSecond: 0.3, spreadBps: 8 },
  UNI: { usdPrice: 8, annualVol: 0.9, levelUsd: 6_000, tradesPerSecond: 0.3, spreadBps: 8 },
  SOL: { usdPrice: 150, annualVol: 0.9, levelUsd: 10_000, tradesPerSecond: 0.5, spreadBps: 5 },
};

/** Units of each quote currency per USD (fixed rates: the sandbox does not simulate FX). */
export const FX_PER_USD: Readonly<Record<string, number>> = { USD: 1, EUR: 0.92, SGD: 1.35, BRL: 5.1, GBP: 0.79, MXN: 17.2 };

export interface MarketSpec {
  readonly market: string;
  readonly base: string;
  readonly quote: string;
  readonly asset: AssetProfile;
  /** Units of quote currency per USD. */
  readonly fx: number;
  /** Price increment as a wire string, e.g. "0.01" (the platform's instrument table). */
  readonly tickRate: string;
  /** Decimal places of prices (digits of tickRate). */
  readonly priceDecimals: number;
}

/** Every market the sandbox simulates: the union of the market-data and historical-price lists. */
export const SIMULATED_MARKETS: readonly string[] = [...new Set<string>([...MARKET_DATA_MARKETS, ...HISTORICAL_MARKETS])];

/**
 * Builds the spec of one market, its tick from the platform's instrument table
 * (src/platform/instruments.ts); throws a RangeError for a market the sandbox does not know.
 */
export function marketSpec(market: string): MarketSpec {
  const { base, quote } = splitMarket(market);
  const asset = ASSETS[base];
  const fx = FX_PER_USD[quote];
  if (asset === undefined || fx === undefined) throw new RangeError(`market ${market} is not simulated`);
  const { tick, priceDecimals } = platformInstrument(market);
  return { market, base, quote, asset, fx, tickRate: tick.toFixed(priceDecimals), priceDecimals };
}

/** Every asset a balance can be held in: the bases and quotes of the simulated markets. */
export const KNOWN_ASSETS: readonly string[] = [...Object.keys(FX_PER_USD), ...Object.keys(ASSETS)];
