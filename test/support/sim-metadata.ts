import { TRADING_MARKETS } from '../../src/core/markets.js';
import type { VenueMetadata } from '../../src/engine/venue-metadata.js';
import { marketSpec } from '../../src/sim/catalog.js';
import type { SimPlatform } from '../../src/sim/sim.js';

/**
 * VenueMetadata read straight from a simulated platform (what the sandbox serves as ListMarkets and
 * List Transfer Limits), with a switch to make every read fail and a count of reads.
 */
export function simMetadata(sim: SimPlatform): VenueMetadata & { fail: boolean; reads: { markets: number; limits: number } } {
  const m = {
    fail: false,
    reads: { markets: 0, limits: 0 },
    listMarkets: async () => {
      m.reads.markets++;
      if (m.fail) throw new Error('503 Service Unavailable');
      return TRADING_MARKETS.map((market) => ({ market, tickRate: marketSpec(market).tickRate }));
    },
    listTransferLimits: async (type: string) => {
      m.reads.limits++;
      if (m.fail) throw new Error('503 Service Unavailable');
      return sim.transferLimits(type).map((l) => ({ limitAsset: l.limitAsset, remaining: l.remaining.toFixed(), periodSeconds: String(l.periodSeconds) }));
    },
  };
  return m;
}
