import type { SchedulerAction, SchedulerLike } from 'rxjs';
// rxjs's own modules of these classes, not its index: the index loads every operator (some 220 files),
// which a backtest, which uses none, would load at start (the same modules the index re-exports)
import { Subscription } from 'rxjs/internal/Subscription';
import type { Clock, TimerHandle } from './clock.js';

/**
 * One scheduled unit of work. Like RxJS's own AsyncAction, an action that does not reschedule
 * itself while running is finished and unsubscribes; `schedule()` again moves its due time.
 */
class ClockAction<T> extends Subscription implements SchedulerAction<T> {
  private timer: TimerHandle | undefined;
  private state: T | undefined;
  private rescheduled = false;

  constructor(
    private readonly clock: Clock,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
  ) {
    super();
    this.add(() => this.cancelTimer());
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.rescheduled = true;
    this.cancelTimer();
    this.timer = this.clock.setTimeout(() => this.execute(), Math.max(0, delay));
    return this;
  }

  private execute(): void {
    this.timer = undefined;
    if (this.closed) return;
    this.rescheduled = false;
    try {
      this.work.call(this, this.state);
    } catch (err) {
      this.unsubscribe();
      throw err;
    }
    if (!this.rescheduled) this.unsubscribe();
  }

  private cancelTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}

/**
 * An RxJS scheduler over the Clock port, so operators that wait (`timer`, `delay`, `repeat` with a
 * delay, `retry` with a delay) run on the engine's clock: real time under a LiveClock, exact and
 * instant steps under a TestClock. Live streams use this instead of `interval()` or raw timers,
 * which would escape the injected clock and make tests sleep on wall time.
 */
export class ClockScheduler implements SchedulerLike {
  constructor(private readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    return new ClockAction<T>(this.clock, work).schedule(state, delay);
  }
}
