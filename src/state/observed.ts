/**
 * Every value the stores hold carries the time it was observed on the engine's clock (`at`) and,
 * when the server said so, the server's own time (`serverAt`). Freshness is always judged by `at`:
 * server clock skew can never make fresh data look like future data.
 */
export interface Observed<T> {
  readonly value: T;
  /** Local receive time on the injected clock, epoch ms. */
  readonly at: number;
  /** The server's `snapshot_at`, when given; informational only. */
  readonly serverAt?: number;
}

/** Age of an observation at `now`, in ms (never negative). */
export function ageMs(observed: Observed<unknown> | undefined, now: number): number {
  return observed === undefined ? Number.POSITIVE_INFINITY : Math.max(0, now - observed.at);
}

/** True when the observation is missing or older than `maxAgeMs`. */
export function isStale(observed: Observed<unknown> | undefined, now: number, maxAgeMs: number): boolean {
  return ageMs(observed, now) > maxAgeMs;
}
