/**
 * A recorded market for the book venues' contract cases: each simulated second a ten-level book around a
 * slowly moving mid, and a pair of held-rate quotes 30 s from expiry.
 */
import { type MarketSymbol, type PriceLevel } from '../../src/core/index.js';

export const WALK_MARKET = 'BTCUSD' as MarketSymbol;
/** The walk's first second. */
export const WALK_START = Date.UTC(2025, 5, 1);

export interface WalkStep {
  readonly at: number;
  readonly bids: PriceLevel[];
  readonly asks: PriceLevel[];
  readonly quotes: readonly {
    readonly quoteId: string;
    readonly side: 'BUY' | 'SELL';
    readonly price: string;
    readonly expiresAt: number;
  }[];
}

/** The walk's mid at step `k`, in cents. */
export function walkMid(k: number): number {
  return Math.round(60_000 * (1 + 0.001 * Math.sin(k / 3)) * 100) / 100;
}

/** What is recorded at step `k`, second `at`. */
export function walkStep(k: number, at: number): WalkStep {
  const mid = walkMid(k);
  const levels = (sign: 1 | -1): PriceLevel[] =>
    Array.from({ length: 10 }, (_, i) => ({ price: Math.round((mid + sign * (0.5 + i * 2)) * 100) / 100, amount: 0.5 + i * 0.25 }));
  return {
    at,
    bids: levels(-1),
    asks: levels(1),
    quotes: [
      { quoteId: `q-${k}-buy`, side: 'BUY', price: (mid * 1.002).toFixed(2), expiresAt: at + 30_000 },
      { quoteId: `q-${k}-sell`, side: 'SELL', price: (mid * 0.998).toFixed(2), expiresAt: at + 30_000 },
    ],
  };
}

/**
 * The harness of a book venue on the walk: `record` hands the venue step k's book and quotes at second
 * `at` (once at the start, then each simulated second after `arrive` lets orders reach it).
 */
export function walkHarness<V>(
  venue: V,
  record: (w: WalkStep) => void,
  arrive: (at: number) => void = () => undefined,
): { venue: V; advance(ms: number): Promise<void>; mid(): number; close(): Promise<void> } {
  let at = WALK_START;
  let step = 0;
  record(walkStep(step, at));
  return {
    venue,
    advance: async (ms) => {
      for (let end = at + ms; at + 1_000 <= end;) {
        at += 1_000;
        step++;
        arrive(at);
        record(walkStep(step, at));
      }
    },
    mid: () => walkMid(step),
    close: async () => undefined,
  };
}
