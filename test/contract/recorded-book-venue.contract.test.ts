/**
 * RecordedBookVenue (book replay of recordings, and the fills of paper mode on real data) against the
 * venue contract. The harness plays a recording as the replay does: a ten-level book around a slowly
 * moving mid and a pair of held-rate quotes (30 s to expiry) each simulated second, and the orders that
 * reached the venue by then meet the book in force.
 */
import { type MarketSymbol, type PriceLevel } from '../../src/core/index.js';
import { RecordedBookVenue } from '../../src/venue/recorded-book-venue.js';
import { venueContract } from './venue-contract.js';

const MARKET = 'BTCUSD' as MarketSymbol;

venueContract('RecordedBookVenue (book replay)', async () => {
  let at = Date.UTC(2025, 5, 1);
  let step = 0;
  const venue = new RecordedBookVenue({ funding: { USD: '100000' }, now: () => at });
  const midAt = (k: number): number => Math.round(60_000 * (1 + 0.001 * Math.sin(k / 3)) * 100) / 100;
  const levels = (mid: number, sign: 1 | -1): PriceLevel[] => Array.from({ length: 10 }, (_, i) => ({ price: Math.round((mid + sign * (0.5 + i * 2)) * 100) / 100, amount: 0.5 + i * 0.25 }));
  const record = (): void => {
    const mid = midAt(step);
    venue.book(MARKET, at, levels(mid, -1), levels(mid, 1));
    venue.quote({ quoteId: `q-${step}-buy`, market: MARKET, side: 'BUY', price: (mid * 1.002).toFixed(2), expiresAt: at + 30_000 });
    venue.quote({ quoteId: `q-${step}-sell`, market: MARKET, side: 'SELL', price: (mid * 0.998).toFixed(2), expiresAt: at + 30_000 });
  };
  record();
  return {
    venue,
    advance: async (ms) => {
      for (let end = at + ms; at + 1_000 <= end; ) {
        at += 1_000;
        step++;
        venue.arrive(at, false);
        record();
      }
    },
    mid: () => midAt(step),
    // a profile of the replay comes into being when a transfer first pays it
    newProfile: async (nickname) => nickname,
    close: async () => undefined,
  };
});
