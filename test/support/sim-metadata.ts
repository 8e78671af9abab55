import { TRANSFER_INTENT_TYPE, type VenueMetadata } from '../../src/engine/venue-metadata.js';
import { tradingInstruments } from '../../src/platform/instruments.js';
import type { SimPlatform } from '../../src/sim/sim.js';

/**
 * A venue's metadata read straight from a simulated platform (what the sandbox serves as ListMarkets
 * and List Transfer Limits), with a switch to make every read fail and a count of reads.
 */
export function simMetadata(sim: SimPlatform): VenueMetadata & { fail: boolean; reads: { markets: number; limits: number } } {
  const m = {
    fail: false,
    reads: { markets: 0, limits: 0 },
    instruments: async () => {
      m.reads.markets++;
      if (m.fail) throw new Error('503 Service Unavailable');
      return tradingInstruments();
    },
    transferLimits: async () => {
      m.reads.limits++;
      if (m.fail) throw new Error('503 Service Unavailable');
      return sim
        .transferLimits(TRANSFER_INTENT_TYPE)
        .map((l) => ({ limitAsset: l.limitAsset, remaining: l.remaining.toFixed(), periodSeconds: String(l.periodSeconds) }));
    },
  };
  return m;
}
