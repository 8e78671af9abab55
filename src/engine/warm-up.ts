import type { Clock } from '../clock/index.js';
import { InputError, type MarketEvent, type MarketSymbol } from '../core/index.js';
import { errorMessage } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { MarketSource } from '../venue/index.js';
import { DEFAULT_BAR_CAPACITY, parseTimeframe, type BarNeed } from '../bars/index.js';

/** Attempts at loading warm-up history before a run starts without it. */
export const WARM_UP_ATTEMPTS = 3;

/**
 * Loads warm-up history for a run. A failed load (a fault, a malformed page, the platform busy) is
 * tried again up to WARM_UP_ATTEMPTS times, 1 s then 2 s apart; after that the run starts without
 * history, with a warning, and its indicators warm up on live prices. A bad setting (InputError) is
 * not retried: it names what to fix.
 */
export async function warmUpWithRetry(
  source: Pick<MarketSource, 'warmUp'>,
  markets: readonly MarketSymbol[],
  points: number,
  clock: Pick<Clock, 'sleep'>,
  log: Pick<Logger, 'warn'>,
): Promise<readonly MarketEvent[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await source.warmUp(markets, points);
    } catch (e) {
      if (e instanceof InputError) throw e;
      const why = errorMessage(e);
      if (attempt >= WARM_UP_ATTEMPTS) {
        log.warn(
          `warm-up history could not be loaded (${attempt} attempts, last: ${why}): starting without it; indicators warm up on live prices`,
        );
        return [];
      }
      log.warn(`warm-up history could not be loaded (${why}): trying again (attempt ${attempt + 1} of ${WARM_UP_ATTEMPTS})`);
      await clock.sleep(1_000 * attempt);
    }
  }
}

/** The most historical prices one warm-up loads per market (the platform's page). */
export const MAX_WARM_UP_PRICES = 1_000;

/**
 * How many historical prices (one per `incrementMs`, the warm-up's increment) the warm-up loads so
 * the longest declared bar series fills: its `history` bars and the bar open now. At least `configured`
 * (`streams.warmup_points`), at most MAX_WARM_UP_PRICES; `short` says which series the cap leaves
 * partly filled (its first bars then come from live data). A `configured` 0 turns the warm-up off.
 */
export function warmUpPointsFor(configured: number, needs: readonly BarNeed[], incrementMs = 60_000): { points: number; short?: string } {
  if (configured === 0) return { points: 0 };
  let points = configured;
  let longest: BarNeed | undefined;
  for (const n of needs) {
    const tf = parseTimeframe(n.timeframe);
    const want = Math.ceil((((n.history ?? DEFAULT_BAR_CAPACITY) + 1) * tf.ms) / incrementMs);
    if (want > points) {
      points = want;
      longest = n;
    }
  }
  if (points <= MAX_WARM_UP_PRICES) return { points };
  const bars = Math.floor((MAX_WARM_UP_PRICES * incrementMs) / parseTimeframe(longest!.timeframe).ms);
  return {
    points: MAX_WARM_UP_PRICES,
    short: `the warm-up loads at most ${MAX_WARM_UP_PRICES} historical prices (1 a minute): about ${bars} of the ${longest!.history ?? DEFAULT_BAR_CAPACITY} ${longest!.timeframe} bars of ${longest!.market} fill from history, the rest from live data`,
  };
}
