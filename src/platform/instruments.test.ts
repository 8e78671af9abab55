import { describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { HISTORICAL_MARKETS, MARKET_DATA_MARKETS, TRADING_MARKETS } from '../core/markets.js';
import { instrumentOf, LISTED_MARKETS, platformInstrument, platformNotionalCaps, tradingInstruments } from './instruments.js';

const btc = instrumentOf({ market: 'BTCUSD', tickRate: '0.01' });
const quarter = instrumentOf({ market: 'BTCUSD', tickRate: '0.25' });
const matic = instrumentOf({ market: 'MATICUSD', tickRate: '0.0001' });

describe('instrumentOf', () => {
  it('takes base, quote and price decimals from the listing and amount decimals from the assets', () => {
    expect(btc).toMatchObject({ market: 'BTCUSD', base: 'BTC', quote: 'USD', priceDecimals: 2, baseDecimals: 8, quoteDecimals: 2 });
    expect(btc.tick.toFixed()).toBe('0.01');
    expect(quarter.priceDecimals).toBe(2);
    expect(matic.priceDecimals).toBe(4);
    expect(instrumentOf({ market: 'ETHEUR', tickRate: '5' }).priceDecimals).toBe(0);
  });

  it('carries the platform notional caps: market 500,000 USD, limit 1,500,000 on BTCUSD and ETHUSD, 1,000,000 elsewhere', () => {
    expect(btc.maxNotionalUsd.market.toFixed()).toBe('500000');
    expect(btc.maxNotionalUsd.limit.toFixed()).toBe('1500000');
    expect(platformNotionalCaps('ETHUSD').limit.toFixed()).toBe('1500000');
    expect(platformNotionalCaps('LTCUSD').limit.toFixed()).toBe('1000000');
    expect(btc.minBaseAmount).toBeUndefined();
    expect(btc.maxBaseAmount).toBeUndefined();
  });

  it('refuses a listing whose tick is zero, negative or not a number, naming tick_rate', () => {
    for (const tickRate of ['0', '-0.01', 'abc', '']) {
      expect(() => instrumentOf({ market: 'BTCUSD', tickRate })).toThrow(InputError);
      expect(() => instrumentOf({ market: 'BTCUSD', tickRate })).toThrow(/^tick_rate: /);
    }
  });
});

describe('the instrument table', () => {
  it('lists every market of the trading, market-data and historical lists once, trading markets in ListMarkets order', () => {
    expect(new Set(LISTED_MARKETS)).toEqual(new Set([...MARKET_DATA_MARKETS, ...HISTORICAL_MARKETS]));
    expect(LISTED_MARKETS).toHaveLength(new Set(LISTED_MARKETS).size);
    expect(tradingInstruments().map((i) => i.market)).toEqual([...TRADING_MARKETS]);
  });

  it('holds the ticks the platform quotes: 0.0001 where a unit is worth under 5 of the quote, 0.01 elsewhere', () => {
    expect(platformInstrument('BTCUSD').tick.toFixed()).toBe('0.01');
    expect(platformInstrument('USDPUSD').tick.toFixed()).toBe('0.0001');
    expect(platformInstrument('MATICEUR').priceDecimals).toBe(4);
    expect(platformInstrument('USDPBRL').priceDecimals).toBe(2);
  });

  it('gives a listing of a known market the same instrument as its row', () => {
    for (const m of LISTED_MARKETS) {
      const row = platformInstrument(m);
      expect(instrumentOf({ market: m, tickRate: row.tick.toFixed() })).toEqual(row);
    }
  });

  it('refuses a market it does not list with a RangeError naming it', () => {
    expect(() => platformInstrument('DOGEUSD')).toThrow(/DOGEUSD is not listed/);
  });
});
