/**
 * PointVenue (point replay, the backtest's venue) against the venue contract. Every case applies:
 * the harness steps the replay one point per simulated second along a fixed walk, so an order placed
 * now fills at the next point, as the contract's `advance` expects. (Cases that point replay answers
 * differently from a matching engine — a cancel takes effect at once rather than after a delay — still
 * meet the contract, which waits for the final state.)
 */
import { PointMarket } from '../../src/fills/point/market.js';
import { PointVenue } from '../../src/fills/point/venue.js';
import { venueContract } from './venue-contract.js';

venueContract('PointVenue (point replay)', async () => {
  const market = new PointMarket({ funding: { USD: '100000' } });
  let at = Date.UTC(2025, 5, 1);
  let step = 0;
  const priceAt = (k: number): number => 60_000 * (1 + 0.001 * Math.sin(k / 3));
  market.point('BTCUSD', at, priceAt(step));
  return {
    venue: new PointVenue(market),
    advance: async (ms) => {
      for (let end = at + ms; at + 1_000 <= end;) {
        at += 1_000;
        market.point('BTCUSD', at, priceAt(++step));
      }
    },
    mid: (m) => market.price(m) ?? Number.NaN,
    // a profile of the replay comes into being when a transfer first pays it
    newProfile: async (nickname) => nickname,
    close: async () => undefined,
  };
});
