import type { RequestEvent } from '../../api/index.js';
import type { Clock, TimerHandle } from '../../clock/index.js';
import type { Priority } from '../../api/index.js';

export interface RequestBudgetOptions {
  readonly clock: Clock;
  /** Sustained requests per second for everything that shares the budget (default 20). */
  readonly ratePerSec?: number;
  /** Requests that may go at once after a quiet period (default: one second's worth). */
  readonly burst?: number;
  /**
   * Tokens each priority must leave in the bucket: by default low (market data) leaves a quarter
   * of the burst and normal (account reads) one token, so an order or a quote execution finds a
   * token even while market data polls as fast as the budget allows.
   */
  readonly reserve?: { readonly normal?: number; readonly low?: number };
}

interface Waiter {
  readonly rank: number;
  readonly seq: number;
  readonly operation: string;
  readonly resolve: () => void;
}

const RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };
/** A stream's grant not seen by `observe` within this time no longer excuses a request. */
const GRANT_TTL_MS = 60_000;
const MAX_GRANTS_PER_OPERATION = 64;

/**
 * One request budget shared by every stream of a source and by anything else that reports its
 * requests (`observe`, wired to the API client's `onRequest`): a token bucket on the injected
 * clock that serves waiters by priority, then arrival, and keeps a reserve that lower priorities
 * may not spend. Orders sent by the executors are charged as they happen, so market data yields to
 * them when the budget is tight. It sits on top of the client's per-endpoint RateLimiter, which
 * keeps each endpoint under the platform's own limits.
 */
export class RequestBudget {
  readonly ratePerSec: number;
  readonly burst: number;
  private readonly reserves: readonly number[];
  private tokens: number;
  private refilledAt: number;
  private waiters: Waiter[] = [];
  private timer: TimerHandle | undefined;
  private seq = 0;
  private readonly grants = new Map<string, number[]>();
  private granted = 0;
  private charged = 0;

  constructor(private readonly options: RequestBudgetOptions) {
    this.ratePerSec = options.ratePerSec ?? 20;
    if (!(this.ratePerSec > 0)) throw new RangeError(`ratePerSec must be > 0, got ${this.ratePerSec}`);
    this.burst = options.burst ?? Math.max(1, Math.ceil(this.ratePerSec));
    if (!(this.burst >= 1)) throw new RangeError(`burst must be ≥ 1, got ${this.burst}`);
    this.reserves = [0, options.reserve?.normal ?? Math.min(1, this.burst - 1), options.reserve?.low ?? Math.floor(this.burst / 4)];
    this.tokens = this.burst;
    this.refilledAt = options.clock.now();
  }

  /** Waits for a slot; `operation` lets `observe` recognise the request when it goes out. */
  acquire(priority: Priority, operation: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        rank: RANK[priority],
        seq: this.seq++,
        operation,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      let i = this.waiters.length;
      while (i > 0 && (this.waiters[i - 1] as Waiter).rank > waiter.rank) i--;
      this.waiters.splice(i, 0, waiter);
      this.pump();
    });
  }

  /**
   * Sees every request attempt of the shared client: a first attempt matching a grant of
   * `acquire` is already paid for; anything else (orders, retries, other callers) is charged now.
   */
  observe(event: Pick<RequestEvent, 'operation' | 'attempt'>): void {
    const times = this.grants.get(event.operation);
    const now = this.options.clock.now();
    while (times !== undefined && times.length > 0 && (times[0] as number) < now - GRANT_TTL_MS) times.shift();
    if (event.attempt === 1 && times !== undefined && times.length > 0) {
      times.shift();
      return;
    }
    this.charge();
  }

  /** Spends one token now for a request that did not wait (it may drive the balance negative). */
  charge(): void {
    this.refill();
    this.tokens -= 1;
    this.charged++;
    this.pump();
  }

  /** Requests granted to waiters plus requests charged, since creation. */
  spent(): number {
    return this.granted + this.charged;
  }

  queued(): number {
    return this.waiters.length;
  }

  /** Stops the refill timer (waiters stay queued until aborted). */
  close(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private pump(): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (;;) {
      const head = this.waiters[0];
      if (head === undefined) return;
      this.refill();
      const need = 1 + (this.reserves[head.rank] as number);
      if (this.tokens < need) {
        const waitMs = Math.ceil(((need - this.tokens) / this.ratePerSec) * 1000);
        this.timer = this.options.clock.setTimeout(() => this.pump(), Math.max(1, waitMs));
        return;
      }
      this.tokens -= 1;
      this.granted++;
      this.waiters.shift();
      this.remember(head.operation);
      head.resolve();
    }
  }

  private refill(): void {
    const now = this.options.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.ratePerSec);
    this.refilledAt = now;
  }

  private remember(operation: string): void {
    let times = this.grants.get(operation);
    if (times === undefined) {
      times = [];
      this.grants.set(operation, times);
    }
    if (times.length >= MAX_GRANTS_PER_OPERATION) times.shift();
    times.push(this.options.clock.now());
  }
}
