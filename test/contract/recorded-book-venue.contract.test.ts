/**
 * RecordedBookVenue (book replay of recordings, and the fills of paper mode on real data) against the
 * venue contract. The harness plays a recording as the replay does (test/contract/book-walk.ts): a book
 * and a quote pair each simulated second, and the orders that reached the venue by then meet the book in
 * force.
 */
import { RecordedBookVenue } from '../../src/fills/book/venue.js';
import { WALK_MARKET, WALK_START, walkHarness } from './book-walk.js';
import { venueContract } from './venue-contract.js';

venueContract('RecordedBookVenue (book replay)', async () => {
  let now = WALK_START;
  const venue = new RecordedBookVenue({ funding: { USD: '100000' }, now: () => now });
  const h = walkHarness(
    venue,
    (w) => {
      now = w.at;
      venue.book(WALK_MARKET, w.at, w.bids, w.asks);
      for (const q of w.quotes) venue.quote({ ...q, market: WALK_MARKET });
    },
    (at) => {
      now = at;
      venue.arrive(at, false);
    },
  );
  // a profile of the replay comes into being when a transfer first pays it
  return { ...h, newProfile: async (nickname: string) => nickname };
});
