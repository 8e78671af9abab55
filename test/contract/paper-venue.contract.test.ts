/**
 * PaperVenue (paper mode on the platform's real market data) against the venue contract. The harness
 * hands it what the polling streams would (test/contract/book-walk.ts): a book and a quote pair each
 * second. Transfer cases do not apply: paper mode moves no money between profiles (it refuses, saying
 * so), so the harness names no second profile.
 */
import { PaperVenue } from '../../src/fills/paper/venue.js';
import { WALK_MARKET, WALK_START, walkHarness } from './book-walk.js';
import { venueContract } from './venue-contract.js';

venueContract('PaperVenue (paper on real data)', async () => {
  let now = WALK_START;
  const venue = await PaperVenue.open({ funding: { USD: '100000' }, feeBps: 0, latencyMs: 0, now: () => now });
  return walkHarness(venue, (w) => {
    now = w.at;
    venue.observe({ kind: 'book', market: WALK_MARKET, at: w.at, bids: w.bids, asks: w.asks });
    for (const q of w.quotes) venue.observe({ kind: 'quote', market: WALK_MARKET, at: w.at, ...q });
  });
});
