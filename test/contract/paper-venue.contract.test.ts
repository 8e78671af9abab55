/**
 * PaperVenue (paper mode on the platform's real market data) against the venue contract. The harness
 * plays what the polling streams would hand it: a ten-level book around a slowly moving mid and a pair of
 * held-rate quotes (30 s to expiry) each second. Transfer cases do not apply: paper mode moves no money
 * between profiles (it refuses, saying so), so the harness names no second profile.
 */
import { type MarketSymbol, type PriceLevel } from '../../src/core/index.js';
import { PaperVenue } from '../../src/venue/paper-venue.js';
import { venueContract } from './venue-contract.js';

const MARKET = 'BTCUSD' as MarketSymbol;

venueContract('PaperVenue (paper on real data)', async () => {
  let at = Date.UTC(2025, 5, 1);
  let step = 0;
  const venue = await PaperVenue.open({ funding: { USD: '100000' }, feeBps: 0, latencyMs: 0, now: () => at });
  const midAt = (k: number): number => Math.round(60_000 * (1 + 0.001 * Math.sin(k / 3)) * 100) / 100;
  const levels = (mid: number, sign: 1 | -1): PriceLevel[] => Array.from({ length: 10 }, (_, i) => ({ price: Math.round((mid + sign * (0.5 + i * 2)) * 100) / 100, amount: 0.5 + i * 0.25 }));
  const observe = (): void => {
    const mid = midAt(step);
    venue.observe({ kind: 'book', market: MARKET, at, bids: levels(mid, -1), asks: levels(mid, 1) });
    venue.observe({ kind: 'quote', market: MARKET, at, quoteId: `q-${step}-buy`, side: 'BUY', price: (mid * 1.002).toFixed(2), expiresAt: at + 30_000 });
    venue.observe({ kind: 'quote', market: MARKET, at, quoteId: `q-${step}-sell`, side: 'SELL', price: (mid * 0.998).toFixed(2), expiresAt: at + 30_000 });
  };
  observe();
  return {
    venue,
    advance: async (ms) => {
      for (let end = at + ms; at + 1_000 <= end; ) {
        at += 1_000;
        step++;
        observe();
      }
    },
    mid: () => midAt(step),
    close: async () => undefined,
  };
});
