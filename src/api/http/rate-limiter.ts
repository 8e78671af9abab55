import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { Priority } from '../operation-spec.js';
import { DEFAULT_BUDGET, DEFAULT_SAFETY, PLATFORM_BUDGETS, TOKEN_BUDGET, budgetFor, type Budget } from './budgets.js';

interface Waiter {
  readonly rank: number;
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

interface Bucket {
  readonly budget: Budget;
  tokens: number;
  refilledAt: number;
  waiters: Waiter[];
  timer: TimerHandle | undefined;
}

const RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

export interface RateLimiterOptions {
  readonly clock: Clock;
  readonly budgets?: readonly Budget[];
  readonly defaultBudget?: Budget;
  readonly tokenBudget?: Budget;
  /** Fraction of each platform limit to use (default 0.8). */
  readonly safety?: number;
}

/**
 * Client-side throttle: one token bucket per budget (shared by every caller of the client), waiters
 * served by priority (orders before market data) then arrival, and one global pause after a 429
 * during which no budget releases anything. All waiting is on the injected Clock.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: Clock;
  private readonly budgets: readonly Budget[];
  private readonly defaultBudget: Budget;
  private readonly tokenBudget: Budget;
  private readonly safety: number;
  private pausedUntilMs = 0;
  private seq = 0;

  constructor(options: RateLimiterOptions) {
    this.clock = options.clock;
    this.budgets = options.budgets ?? PLATFORM_BUDGETS;
    this.defaultBudget = options.defaultBudget ?? DEFAULT_BUDGET;
    this.tokenBudget = options.tokenBudget ?? TOKEN_BUDGET;
    this.safety = options.safety ?? DEFAULT_SAFETY;
  }

  /** Waits for a slot of the budget governing `path` (relative to /v2), or `token` for the token endpoint. */
  acquire(path: string | 'token', priority: Priority = 'normal', signal?: AbortSignal): Promise<void> {
    const budget = path === 'token' ? this.tokenBudget : budgetFor(path, this.budgets, this.defaultBudget);
    const bucket = this.bucket(budget);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const waiter: Waiter = {
        rank: RANK[priority],
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener('abort', waiter.onAbort);
          resolve();
        },
        reject,
        signal,
        onAbort: () => {
          bucket.waiters = bucket.waiters.filter((w) => w !== waiter);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      insertWaiter(bucket.waiters, waiter);
      this.pump(bucket);
    });
  }

  /**
   * Takes one request of `path`'s budget at once when it can without waiting (nobody queued ahead,
   * not paused, a token in the bucket): true. False takes nothing; the caller then waits its turn
   * with `acquire`. The order path's way around a promise per request when the budget has room.
   */
  tryAcquire(path: string | 'token'): boolean {
    const b = this.bucket(path === 'token' ? this.tokenBudget : budgetFor(path, this.budgets, this.defaultBudget));
    if (b.waiters.length > 0) return false;
    const now = this.clock.now();
    if (now < this.pausedUntilMs) return false;
    b.tokens = Math.min(b.budget.burst, b.tokens + ((now - b.refilledAt) / 1000) * b.budget.ratePerSec * this.safety);
    b.refilledAt = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Pauses every budget for `ms` from now (after a 429); extends, never shortens, a pause. */
  pause(ms: number): void {
    this.pausedUntilMs = Math.max(this.pausedUntilMs, this.clock.now() + ms);
    for (const b of this.buckets.values()) this.pump(b);
  }

  /** Epoch ms until which every budget is paused (0 or past when not paused). */
  pausedUntil(): number {
    return this.pausedUntilMs;
  }

  /** Requests waiting across all budgets. */
  queued(): number {
    let n = 0;
    for (const b of this.buckets.values()) n += b.waiters.length;
    return n;
  }

  private bucket(budget: Budget): Bucket {
    let b = this.buckets.get(budget.name);
    if (!b) {
      b = { budget, tokens: budget.burst, refilledAt: this.clock.now(), waiters: [], timer: undefined };
      this.buckets.set(budget.name, b);
    }
    return b;
  }

  private pump(b: Bucket): void {
    b.timer?.cancel();
    b.timer = undefined;
    const rate = b.budget.ratePerSec * this.safety;
    while (b.waiters.length > 0) {
      const now = this.clock.now();
      if (now < this.pausedUntilMs) {
        b.timer = this.clock.setTimeout(() => this.pump(b), this.pausedUntilMs - now);
        return;
      }
      b.tokens = Math.min(b.budget.burst, b.tokens + ((now - b.refilledAt) / 1000) * rate);
      b.refilledAt = now;
      if (b.tokens < 1) {
        b.timer = this.clock.setTimeout(() => this.pump(b), Math.ceil(((1 - b.tokens) / rate) * 1000));
        return;
      }
      b.tokens -= 1;
      b.waiters.shift()!.resolve();
    }
  }
}

function insertWaiter(list: Waiter[], w: Waiter): void {
  let i = list.length;
  while (i > 0 && list[i - 1]!.rank > w.rank) i--;
  list.splice(i, 0, w);
}
