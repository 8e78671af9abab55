import { delay, interval, of, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ClockScheduler } from './rx-scheduler.js';
import { TestClock } from './test-clock.js';

describe('ClockScheduler', () => {
  it('runs timer() on the injected clock: nothing happens until the clock moves', () => {
    const clock = new TestClock(1_000);
    const scheduler = new ClockScheduler(clock);
    const seen: number[] = [];
    timer(500, scheduler).subscribe(() => seen.push(clock.now()));
    expect(seen).toEqual([]);
    clock.advance(499);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual([1_500]);
    expect(scheduler.now()).toBe(1_500);
  });

  it('repeats periodic work at the exact period (interval rescheduling its own action)', () => {
    const clock = new TestClock(0);
    const seen: number[] = [];
    interval(100, new ClockScheduler(clock))
      .pipe(take(4))
      .subscribe(() => seen.push(clock.now()));
    clock.advance(1_000);
    expect(seen).toEqual([100, 200, 300, 400]);
    expect(clock.pending()).toBe(0);
  });

  it('cancels the clock timer when the subscription ends', () => {
    const clock = new TestClock(0);
    let fired = false;
    const sub = of(1)
      .pipe(delay(50, new ClockScheduler(clock)))
      .subscribe(() => (fired = true));
    sub.unsubscribe();
    expect(clock.pending()).toBe(0);
    clock.advance(100);
    expect(fired).toBe(false);
  });

  it('lets an action move its own due time by rescheduling', () => {
    const clock = new TestClock(0);
    const scheduler = new ClockScheduler(clock);
    const seen: number[] = [];
    scheduler.schedule<number>(
      function (n = 0) {
        seen.push(clock.now());
        if (n < 2) this.schedule(n + 1, 10 * (n + 1));
      },
      5,
      0,
    );
    clock.advance(100);
    expect(seen).toEqual([5, 15, 35]);
  });
});
