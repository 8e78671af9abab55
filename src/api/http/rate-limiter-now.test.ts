/**
 * RateLimiter.tryAcquire, the order path's way past a promise per request: it takes a request at
 * once only when acquire would have let it through at once, and never jumps a queue or a pause.
 */
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { budgetFor, type Budget } from './budgets.js';
import { RateLimiter } from './rate-limiter.js';

const budget = { name: 'd', pattern: '*', ratePerSec: 10, burst: 2 };

describe('RateLimiter.tryAcquire', () => {
  it('takes from the burst, then refuses until the bucket refills, sharing the count with acquire', async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ clock, defaultBudget: budget, safety: 1 });
    expect(limiter.tryAcquire('/orders')).toBe(true);
    await limiter.acquire('/orders');
    expect(limiter.tryAcquire('/orders')).toBe(false);
    clock.advance(99);
    expect(limiter.tryAcquire('/orders')).toBe(false);
    clock.advance(1);
    expect(limiter.tryAcquire('/orders')).toBe(true);
    expect(limiter.tryAcquire('/orders')).toBe(false);
  });

  it('never passes a request that is waiting, nor during a pause', async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ clock, defaultBudget: budget, safety: 1 });
    limiter.tryAcquire('/orders');
    limiter.tryAcquire('/orders');
    let waited = false;
    void limiter.acquire('/orders', 'low').then(() => (waited = true));
    clock.advance(150); // a token back, but the low-priority request queued first gets it
    expect(limiter.tryAcquire('/orders')).toBe(false);
    await clock.advanceAsync(0);
    expect(waited).toBe(true);
    clock.advance(1_000);
    limiter.pause(500);
    expect(limiter.tryAcquire('/orders')).toBe(false);
    clock.advance(500);
    expect(limiter.tryAcquire('/orders')).toBe(true);
  });
});

describe('budgetFor with its patterns cut once per list', () => {
  it('maps paths as before, and follows a pattern changed in place', () => {
    const list: Budget[] = [{ name: 'books', pattern: 'markets/*/order-book', ratePerSec: 1, burst: 1 }, { name: 'orders', pattern: 'profiles/*/orders', ratePerSec: 1, burst: 1 }];
    expect(budgetFor('/markets/BTCUSD/order-book?x=1', list).name).toBe('books');
    expect(budgetFor('/profiles/p1/orders/o-1', list).name).toBe('orders');
    expect(budgetFor('/markets/BTCUSD/ticker', list).name).toBe('default');
    list[0] = { ...list[0]!, pattern: 'markets/*/ticker' };
    expect(budgetFor('/markets/BTCUSD/ticker', list).name).toBe('books');
    expect(budgetFor('/markets/BTCUSD/order-book', list).name).toBe('default');
  });
});
