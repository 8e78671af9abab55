import { sleepOn, type Clock, type TimerHandle } from './clock.js';

/** Wall-clock time and real timers. `unref` timers do not keep the process alive. */
export class LiveClock implements Clock {
  constructor(private readonly options: { unref?: boolean } = {}) {}

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, delayMs));
    if (this.options.unref) t.unref();
    return { cancel: () => clearTimeout(t) };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }
}

/**
 * Accelerated wall clock: time runs `speed` times faster than real time from `startMs`.
 * Used by the local sandbox and soak runs to compress hours into minutes.
 */
export class ScaledClock implements Clock {
  private readonly realStart = Date.now();

  constructor(
    private readonly startMs: number,
    private readonly speed: number,
  ) {
    if (!(speed > 0)) throw new RangeError('speed must be > 0');
  }

  now(): number {
    return Math.floor(this.startMs + (Date.now() - this.realStart) * this.speed);
  }

  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, delayMs / this.speed));
    return { cancel: () => clearTimeout(t) };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }
}
