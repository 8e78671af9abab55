import { RateLimitedError, VenueUnreachableError } from '../../api/index.js';
import type { Rng } from '../../core/index.js';

/** How a failing stream waits before its next attempt. */
export interface BackoffSettings {
  /** Wait after the first error (default 500 ms); doubles per consecutive error. */
  readonly baseMs: number;
  /** Ceiling of the doubling (default 30 s). */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 500, maxMs: 30_000 };

/**
 * Retry delay of a poll the client refused because the venue is unreachable (its breaker is open):
 * such a poll sends nothing, so it need not back off; retrying each second keeps one of them ready
 * to be the breaker's probe, so the streams resume within about a second of the venue's return.
 */
export const UNREACHABLE_RETRY_MS = 1_000;

/**
 * Delay before retrying a stream after its `consecutiveErrors`-th error in a row: exponential with
 * "equal jitter" (half fixed, half drawn from the seeded Rng) so many streams failing together do
 * not retry in lockstep, yet a run repeats exactly for a seed. A 429's Retry-After is a floor.
 */
export function backoffDelayMs(consecutiveErrors: number, err: unknown, settings: BackoffSettings, rng: Rng): number {
  if (err instanceof VenueUnreachableError) return UNREACHABLE_RETRY_MS;
  const n = Math.max(1, consecutiveErrors);
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.min(n - 1, 30));
  const jittered = ceiling / 2 + rng.next() * (ceiling / 2);
  const floor = err instanceof RateLimitedError && err.retryAfterMs !== undefined ? err.retryAfterMs : 0;
  return Math.round(Math.max(jittered, floor));
}
