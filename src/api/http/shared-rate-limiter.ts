/**
 * One request budget for many bots (`api.rate_limit_store: redis://…`): every bot process that names
 * the same store takes its requests from one token bucket per budget in Redis, refilled and taken by
 * one Lua script (atomic, on Redis's clock), so three bots on one credential together stay under the
 * platform's limits. Orders before market data: a high-priority request may take the bucket's last
 * tokens, the others leave a reserve for it. A 429's `Retry-After` (or the 5-minute block) pauses
 * every bot through the store. If the store cannot be reached, each bot falls back to its share,
 * 1/N of the budget for the N bots last seen, and shows one "budget store unreachable since …"
 * state until it answers again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../../log/logger.js';
import type { Priority } from '../operation-spec.js';
import { DEFAULT_BUDGET, DEFAULT_SAFETY, PLATFORM_BUDGETS, TOKEN_BUDGET, budgetFor, type Budget } from './budgets.js';
import { RateLimiter, type RateLimiterOptions } from './rate-limiter.js';

/** A shared budget: `take` answers 0 (a token taken) or the milliseconds to wait; throws when unreachable. */
export interface RateLimitStore {
  /** The store's address without secrets, for messages. */
  readonly label: string;
  take(budget: string, ratePerSec: number, burst: number, reserve: number): Promise<{ waitMs: number; bots: number }>;
  /** Pauses every budget of every bot for `ms` from now (extends, never shortens). */
  pause(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Fleet-wide state of the budget, for a panel or a status line. */
export interface BudgetStoreState {
  readonly store: string;
  /** Epoch ms since when the store has not answered; undefined while it answers. */
  readonly unreachableSince?: number;
  /** Bots last seen sharing the budget (N of the 1/N fallback). */
  readonly bots: number;
}

const RESERVE: Record<Priority, number> = { high: 0, normal: 1, low: 2 };
/** Fraction of a bucket's burst kept for each step of priority (orders before market data). */
const RESERVE_FRACTION = 0.2;

export interface SharedRateLimiterOptions extends RateLimiterOptions {
  readonly store: RateLimitStore;
  readonly logger?: Logger;
}

export class SharedRateLimiter extends RateLimiter {
  private readonly store: RateLimitStore;
  private readonly logger: Logger | undefined;
  private readonly opts: SharedRateLimiterOptions;
  private readonly safetyShare: number;
  private bots = 1;
  private unreachableSince: number | undefined;
  private fallback: RateLimiter | undefined;

  constructor(options: SharedRateLimiterOptions) {
    super(options);
    this.opts = options;
    this.store = options.store;
    this.logger = options.logger;
    this.safetyShare = options.safety ?? DEFAULT_SAFETY;
  }

  /** Never at once: every request of a shared budget is counted in the store (`acquire`). */
  override tryAcquire(): boolean {
    return false;
  }

  override async acquire(path: string | 'token', priority: Priority = 'normal', signal?: AbortSignal): Promise<void> {
    // this process's own waiters keep their order (priority, then arrival) before asking the fleet
    await super.acquire(path, priority, signal);
    const budget = path === 'token' ? (this.opts.tokenBudget ?? TOKEN_BUDGET) : budgetFor(path, this.opts.budgets ?? PLATFORM_BUDGETS, this.opts.defaultBudget ?? DEFAULT_BUDGET);
    const rate = budget.ratePerSec * this.safetyShare;
    const reserve = RESERVE[priority] * Math.max(1, Math.floor(budget.burst * RESERVE_FRACTION));
    for (;;) {
      let waitMs: number;
      try {
        const r = await this.store.take(budget.name, rate, budget.burst, reserve);
        this.reachable(r.bots);
        waitMs = r.waitMs;
      } catch (e) {
        this.unreachable(e);
        await this.fallback!.acquire(path, priority, signal);
        return;
      }
      if (waitMs <= 0) return;
      await this.opts.clock.sleep(waitMs, signal);
    }
  }

  override pause(ms: number): void {
    super.pause(ms);
    this.fallback?.pause(ms);
    this.store.pause(ms).catch((e: unknown) => this.unreachable(e));
  }

  /** Whether the fleet's store answers, since when it does not, and N. */
  storeState(): BudgetStoreState {
    return { store: this.store.label, bots: this.bots, ...(this.unreachableSince !== undefined && { unreachableSince: this.unreachableSince }) };
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private reachable(bots: number): void {
    this.bots = Math.max(1, bots);
    if (this.unreachableSince === undefined) return;
    this.logger?.info({ store: this.store.label, since: new Date(this.unreachableSince).toISOString() }, 'budget store reachable again: the shared request budget is back');
    this.unreachableSince = undefined;
    this.fallback = undefined;
  }

  private unreachable(e: unknown): void {
    if (this.unreachableSince !== undefined) return;
    this.unreachableSince = this.opts.clock.now();
    // its share: 1/N of the budget, N the bots last seen
    const n = this.bots;
    const share = (b: Budget): Budget => ({ ...b, burst: Math.max(1, Math.floor(b.burst / n)) });
    this.fallback = new RateLimiter({
      clock: this.opts.clock, safety: this.safetyShare / n, budgets: (this.opts.budgets ?? PLATFORM_BUDGETS).map(share),
      defaultBudget: share(this.opts.defaultBudget ?? DEFAULT_BUDGET), tokenBudget: share(this.opts.tokenBudget ?? TOKEN_BUDGET),
    });
    const remaining = this.pausedUntil() - this.opts.clock.now();
    if (remaining > 0) this.fallback.pause(remaining);
    this.logger?.warn(
      { store: this.store.label, since: new Date(this.unreachableSince).toISOString(), bots: this.bots, reason: e instanceof Error ? e.message : String(e) },
      `budget store unreachable since ${new Date(this.unreachableSince).toISOString()}: this bot keeps 1/${this.bots} of the request budget until it answers`,
    );
  }
}

/**
 * Takes one token: refills the bucket from Redis's clock, honours the fleet-wide pause, keeps
 * `reserve` tokens for higher priorities, and records this bot as seen (N of the fallback).
 * KEYS: bucket hash, pause key, bots sorted set. ARGV: rate/s, burst, reserve, bot id, seen window ms.
 * Answers { wait ms (0 = taken), bots seen }.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local reserve = tonumber(ARGV[3])
redis.call('ZADD', KEYS[3], now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[5]) * 2)
local bots = redis.call('ZCARD', KEYS[3])
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused > now then return { paused - now, bots } end
local h = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(h[1]) or burst
local ts = tonumber(h[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) / 1000 * rate)
local ttl = math.ceil(burst / rate * 1000) + 60000
if tokens >= 1 + reserve then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - 1), 'ts', now)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return { 0, bots }
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], ttl)
return { math.max(1, math.ceil((1 + reserve - tokens) / rate * 1000)), bots }
`;

/** KEYS: pause key. ARGV: ms. Extends the fleet-wide pause to now + ms on Redis's clock. */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > cur then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1])) end
return untilMs
`;

type Scripted = Redis & {
  tradeloopTake(k1: string, k2: string, k3: string, ...args: Array<string | number>): Promise<[number, number]>;
  tradeloopPause(k1: string, ms: number): Promise<number>;
};

/**
 * The store on a Redis connection. `scope` names the credential whose budget is shared (hashed: the
 * client id never appears in Redis). Commands fail at once while disconnected (no offline queue), so
 * a bot falls back to its share instead of waiting on a dead store.
 */
export function redisRateLimitStore(redis: Redis, label: string, scope: string, botId: string = randomUUID()): RateLimitStore {
  const r = redis as Scripted;
  r.defineCommand('tradeloopTake', { numberOfKeys: 3, lua: TAKE });
  r.defineCommand('tradeloopPause', { numberOfKeys: 1, lua: PAUSE });
  const ns = `tradeloop:budget:${createHash('sha256').update(scope).digest('hex').slice(0, 16)}`;
  return {
    label,
    take: async (budget, rate, burst, reserve) => {
      const [waitMs, bots] = await r.tradeloopTake(`${ns}:bucket:${budget}`, `${ns}:pause`, `${ns}:bots`, rate, burst, reserve, botId, 30_000);
      return { waitMs: Number(waitMs), bots: Number(bots) };
    },
    pause: async (ms) => {
      await r.tradeloopPause(`${ns}:pause`, Math.max(1, Math.ceil(ms)));
    },
    close: async () => {
      redis.disconnect();
      return Promise.resolve();
    },
  };
}
