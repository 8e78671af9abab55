import type { Clock } from '../clock/index.js';
import { InputError, type MarketEvent, type MarketSymbol } from '../core/index.js';
import { errorMessage } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { MarketSource } from '../venue/index.js';

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
        log.warn(`warm-up history could not be loaded (${attempt} attempts, last: ${why}): starting without it; indicators warm up on live prices`);
        return [];
      }
      log.warn(`warm-up history could not be loaded (${why}): trying again (attempt ${attempt + 1} of ${WARM_UP_ATTEMPTS})`);
      await clock.sleep(1_000 * attempt);
    }
  }
}
