/**
 * RecordedBookVenue (book replay of recordings, and the fills of paper mode on real data) against the
 * venue contract. The harness plays a recording as the replay does (test/contract/book-walk.ts): a book
 * and a quote pair each simulated second, and the orders that reached the venue by then meet the book in
 * force.
 */
import { RecordedBookVenue } from '../../src/venue/recorded-book-venue.js';
import { WALK_MARKET, walkMid, walkStep } from './book-walk.js';
import { venueContract } from './venue-contract.js';

venueContract('RecordedBookVenue (book replay)', async () => {
  let at = Date.UTC(2025, 5, 1);
  let step = 0;
  const venue = new RecordedBookVenue({ funding: { USD: '100000' }, now: () => at });
  const record = (): void => {
    const w = walkStep(step, at);
    venue.book(WALK_MARKET, at, w.bids, w.asks);
    for (const q of w.quotes) venue.quote({ ...q, market: WALK_MARKET });
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
    mid: () => walkMid(step),
    // a profile of the replay comes into being when a transfer first pays it
    newProfile: async (nickname) => nickname,
    close: async () => undefined,
  };
});
