import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { budgetFor } from './budgets.js';
import { RateLimiter } from './rate-limiter.js';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('RateLimiter', () => {
  it('maps paths to the platform budgets', () => {
    expect(budgetFor('/markets/BTCUSD/order-book').name).toBe('order-book');
    expect(budgetFor('/profiles/p1/quote-executions/q1').name).toBe('quote-executions');
    expect(budgetFor('/transfer/internal').name).toBe('internal-transfers');
    expect(budgetFor('/identity/identities/i1/documents').name).toBe('identities');
    expect(budgetFor('/profiles/p1/orders').name).toBe('default');
  });

  it('lets a burst through, then spaces requests at 80 % of the limit', async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ clock });
    const done: number[] = [];
    for (let i = 0; i < 12; i++) void limiter.acquire('/markets/BTCUSD/order-book').then(() => done.push(clock.now()));
    await flush();
    expect(done).toHaveLength(10);
    await clock.advanceAsync(124);
    expect(done).toHaveLength(10);
    await clock.advanceAsync(1);
    expect(done).toHaveLength(11);
    await clock.advanceAsync(125);
    expect(done).toEqual([...Array(10).fill(0), 125, 250]);
  });

  it('serves high priority before normal before low when the budget is tight', async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ clock, defaultBudget: { name: 'd', pattern: '*', ratePerSec: 1, burst: 1 }, safety: 1 });
    await limiter.acquire('/orders');
    const order: string[] = [];
    void limiter.acquire('/markets/X/ticker', 'low').then(() => order.push('low'));
    void limiter.acquire('/orders', 'normal').then(() => order.push('normal'));
    void limiter.acquire('/profiles/p/orders', 'high').then(() => order.push('high'));
    await clock.advanceAsync(3000, 1000);
    expect(order).toEqual(['high', 'normal', 'low']);
  });

  it('pauses every budget after a 429 and never shortens a pause', async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ clock });
    limiter.pause(5000);
    limiter.pause(1000);
    let released = 0;
    void limiter.acquire('/orders').then(() => released++);
    void limiter.acquire('/markets/BTCUSD/order-book').then(() => released++);
    await clock.advanceAsync(4999);
    expect(released).toBe(0);
    await clock.advanceAsync(1);
    expect(released).toBe(2);
  });

  it('drops an aborted waiter', async () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter({ clock });
    limiter.pause(1000);
    const ctl = new AbortController();
    const p = limiter.acquire('/orders', 'normal', ctl.signal);
    ctl.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(limiter.queued()).toBe(0);
  });
});
