/**
 * The Clock port: the only place where wall time and timers enter tradeloop. Live code gets a
 * LiveClock; tests and backtests get a TestClock that moves only when told to.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Current time, epoch milliseconds. */
  now(): number;
  /** Runs `fn` once after `delayMs` (≥ 0). */
  setTimeout(fn: () => void, delayMs: number): TimerHandle;
  /** Resolves after `delayMs` on this clock; rejects with the signal's reason when aborted. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
}

/** Shared implementation of `sleep` on top of `setTimeout`. */
export function sleepOn(clock: Pick<Clock, 'setTimeout'>, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      handle.cancel();
      reject(signal?.reason ?? new Error('aborted'));
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
