import { sleepOn, type Clock, type TimerHandle } from './clock.js';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when the test or the backtest says so. Timers fire in time order (ties
 * in creation order) as `advance`/`advanceTo` pass them, with `now()` set to each timer's time.
 */
export class TestClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    const timer: Timer = { id: this.seq++, at: this.current + Math.max(0, delayMs), fn, cancelled: false };
    this.insert(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }

  /** Number of timers still waiting. */
  pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward by `ms`, firing due timers synchronously in order. */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  /** Moves time to `targetMs` (never backwards), firing due timers in order. */
  advanceTo(targetMs: number): void {
    if (targetMs < this.current) throw new RangeError(`TestClock cannot go back from ${this.current} to ${targetMs}`);
    for (;;) {
      const next = this.timers[0];
      if (next === undefined || next.at > targetMs) break;
      this.timers.shift();
      if (next.cancelled) continue;
      this.current = next.at;
      next.fn();
    }
    this.current = targetMs;
  }

  /**
   * Advances in steps, letting promise callbacks run between timers, so async code driven by the
   * clock (await sleep, RxJS over promises) makes progress. Use in tests of async components.
   */
  async advanceAsync(ms: number, stepMs = ms): Promise<void> {
    const target = this.current + ms;
    await flushMicrotasks();
    while (this.current < target) {
      const nextTimer = this.timers.find((t) => !t.cancelled);
      const stepTarget = Math.min(target, this.current + stepMs, nextTimer ? Math.max(nextTimer.at, this.current) : target);
      this.advanceTo(stepTarget);
      await flushMicrotasks();
    }
  }

  private insert(timer: Timer): void {
    let lo = 0;
    let hi = this.timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.timers[mid] as Timer;
      if (t.at < timer.at || (t.at === timer.at && t.id < timer.id)) lo = mid + 1;
      else hi = mid;
    }
    this.timers.splice(lo, 0, timer);
  }
}

/** Lets pending promise reactions run (several turns, for chained awaits). */
export async function flushMicrotasks(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}
