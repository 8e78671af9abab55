import { describe, expect, it } from 'vitest';
import { platformInstrument } from '../../platform/instruments.js';
import { marketSpec, SIMULATED_MARKETS } from './catalog.js';

describe('the market catalog', () => {
  it("takes every simulated market's tick from the platform's instrument table", () => {
    for (const m of SIMULATED_MARKETS) {
      const i = platformInstrument(m);
      expect(marketSpec(m)).toMatchObject({ tickRate: i.tick.toFixed(i.priceDecimals), priceDecimals: i.priceDecimals });
    }
  });

  it("simulates prices the table's ticks fit: four decimals where a unit is worth under 5 of the quote, two elsewhere", () => {
    for (const m of SIMULATED_MARKETS) {
      const s = marketSpec(m);
      expect([m, s.priceDecimals]).toEqual([m, s.asset.usdPrice * s.fx < 5 ? 4 : 2]);
    }
  });

  it('refuses a market it does not simulate with a RangeError naming it', () => {
    expect(() => marketSpec('DOGEUSD')).toThrow(/DOGEUSD is not simulated/);
  });
});
