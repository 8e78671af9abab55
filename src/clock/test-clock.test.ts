import { describe, expect, it } from 'vitest';
import { TestClock } from './test-clock.js';

describe('TestClock', () => {
  it('fires timers in time order with now() at each timer', () => {
    const clock = new TestClock(1000);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 20);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 10);
    clock.setTimeout(() => seen.push(['c', clock.now()]), 20);
    clock.advance(15);
    expect(seen).toEqual([['a', 1010]]);
    clock.advance(100);
    expect(seen).toEqual([
      ['a', 1010],
      ['b', 1020],
      ['c', 1020],
    ]);
    expect(clock.now()).toBe(1115);
  });

  it('does not fire cancelled timers and refuses to go back in time', () => {
    const clock = new TestClock(0);
    let fired = false;
    clock.setTimeout(() => (fired = true), 5).cancel();
    clock.advance(10);
    expect(fired).toBe(false);
    expect(() => clock.advanceTo(5)).toThrow(RangeError);
  });

  it('resolves sleep when advanced asynchronously', async () => {
    const clock = new TestClock(0);
    let done = false;
    void clock.sleep(50).then(() => (done = true));
    await clock.advanceAsync(49);
    expect(done).toBe(false);
    await clock.advanceAsync(1);
    expect(done).toBe(true);
  });
});
