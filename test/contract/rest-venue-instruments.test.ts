import { describe, expect, it } from 'vitest';
import type { ApiClient, MarketDetails } from '../../src/api/index.js';
import { RestVenue } from '../../src/venue/index.js';

/** A RestVenue whose client answers ListMarkets with `markets` (and records the call's priority). */
function venueListing(markets: ReadonlyArray<Partial<MarketDetails>>, seen: unknown[] = []): RestVenue {
  const api = {
    listMarkets: async (opts?: unknown) => {
      seen.push(opts);
      return { markets };
    },
  };
  return new RestVenue(api as unknown as ApiClient, 'p');
}

describe('RestVenue.instruments (ListMarkets)', () => {
  it('builds each listed market from its row: base and quote as listed, tick, decimals and caps, at low priority', async () => {
    const seen: unknown[] = [];
    const listed = await venueListing(
      [
        { market: 'BTCUSD', base_asset: 'BTC', quote_asset: 'USD', tick_rate: '0.25' },
        { market: 'ETHEUR', base_asset: 'ETH', quote_asset: 'EUR', tick_rate: '0.05' },
      ],
      seen,
    ).instruments();
    expect(
      listed.map((i) => ({
        market: i.market,
        base: i.base,
        quote: i.quote,
        tick: i.tick.toFixed(),
        priceDecimals: i.priceDecimals,
        baseDecimals: i.baseDecimals,
        quoteDecimals: i.quoteDecimals,
        limitCap: i.maxNotionalUsd.limit.toFixed(),
      })),
    ).toEqual([
      {
        market: 'BTCUSD',
        base: 'BTC',
        quote: 'USD',
        tick: '0.25',
        priceDecimals: 2,
        baseDecimals: 8,
        quoteDecimals: 2,
        limitCap: '1500000',
      },
      {
        market: 'ETHEUR',
        base: 'ETH',
        quote: 'EUR',
        tick: '0.05',
        priceDecimals: 2,
        baseDecimals: 8,
        quoteDecimals: 2,
        limitCap: '1000000',
      },
    ]);
    expect(seen).toEqual([{ priority: 'low' }]);
  });

  it('leaves out a row it cannot use (tick missing, zero, negative or not a number; a symbol it cannot split) and keeps the others', async () => {
    const listed = await venueListing([
      { market: 'BTCUSD', base_asset: 'BTC', quote_asset: 'USD', tick_rate: '0.01' },
      { market: 'ETHUSD', base_asset: 'ETH', quote_asset: 'USD' },
      { market: 'LTCUSD', base_asset: 'LTC', quote_asset: 'USD', tick_rate: '0' },
      { market: 'BCHUSD', base_asset: 'BCH', quote_asset: 'USD', tick_rate: '-0.01' },
      { market: 'AAVEUSD', base_asset: 'AAVE', quote_asset: 'USD', tick_rate: 'cheap' },
      { market: 'DOGEXYZ', tick_rate: '0.01' },
      { market: 'MATICUSD', tick_rate: '0.0001' },
    ]).instruments();
    expect(listed.map((i) => `${i.market} ${i.base}/${i.quote} ${i.tick.toFixed()}`)).toEqual([
      'BTCUSD BTC/USD 0.01',
      'MATICUSD MATIC/USD 0.0001',
    ]);
  });
});
