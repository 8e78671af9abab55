import { type Clock } from '../clock/clock.js';
import { InputError } from '../core/errors.js';

/** A request budget for a path pattern (`*` is one segment; a pattern also covers deeper paths). */
export interface RateBudget {
  readonly name: string;
  readonly pattern: string;
  /** Average requests per second allowed over the window. */
  readonly ratePerSec: number;
}

/** The platform's published limits (AUTH_ERRORS.md §6); every other endpoint gets 50/s of its own. */
export const PLATFORM_RATE_BUDGETS: readonly RateBudget[] = [
  { name: 'token', pattern: '/oauth2/token', ratePerSec: 1 },
  { name: 'order-book', pattern: '/v2/markets/*/order-book', ratePerSec: 10 },
  { name: 'recent-executions', pattern: '/v2/markets/*/recent-executions', ratePerSec: 10 },
  { name: 'quote-executions', pattern: '/v2/profiles/*/quote-executions', ratePerSec: 10 },
  { name: 'identities', pattern: '/v2/identity/identities', ratePerSec: 10 },
  { name: 'internal-transfers', pattern: '/v2/transfer/internal', ratePerSec: 20 },
  { name: 'crypto-withdrawals', pattern: '/v2/transfer/crypto-withdrawals', ratePerSec: 20 },
];
export const DEFAULT_RATE_PER_SEC = 50;

export interface RateLimitSettings {
  /** Averaging window (the platform: 5 minutes). */
  readonly windowMs?: number;
  /** How long an address is blocked, on every path, after exceeding a budget (the platform: 5 minutes). */
  readonly penaltyMs?: number;
  /** Multiplies every budget (e.g. 0.1 for tests that want to hit them quickly). */
  readonly scale?: number;
}

/** Why a request is refused: the budget and how long until the address may try again. */
export interface RateRefusal {
  readonly budget: string;
  readonly retryAfterSec: number;
  readonly detail: string;
}

interface Counter {
  readonly buckets: Map<number, number>;
  total: number;
}

/**
 * The platform's rate limits as the server applies them: per endpoint and per source address,
 * the average over `windowMs` may not exceed the budget; exceeding it answers 429 and then blocks
 * every request from that address for `penaltyMs`. Counts live in per-second buckets, so memory is
 * bounded by the window length per (address, endpoint).
 */
export class SandboxRateLimiter {
  private readonly windowMs: number;
  private readonly penaltyMs: number;
  private readonly scale: number;
  private readonly counters = new Map<string, Counter>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    settings: RateLimitSettings,
    private readonly clock: Clock,
    private readonly budgets: readonly RateBudget[] = PLATFORM_RATE_BUDGETS,
  ) {
    this.windowMs = positive(settings.windowMs ?? 300_000, 'window');
    this.penaltyMs = positive(settings.penaltyMs ?? 300_000, 'penalty');
    this.scale = positive(settings.scale ?? 1, 'scale');
  }

  /** Counts a request; returns a refusal when the address is blocked or this request exceeds a budget. */
  check(address: string, path: string, routeKey: string): RateRefusal | undefined {
    const now = this.clock.now();
    const until = this.blockedUntil.get(address);
    if (until !== undefined && until > now)
      return this.refusal('penalty', until - now, `address ${address} is blocked for exceeding a rate limit`);
    const budget = this.budgetFor(path);
    const key = `${address} ${budget?.name ?? routeKey}`;
    const allowed = Math.max(1, Math.floor((budget?.ratePerSec ?? DEFAULT_RATE_PER_SEC) * this.scale * (this.windowMs / 1000)));
    const counter = this.counter(key, now);
    if (counter.total + 1 > allowed) {
      this.blockedUntil.set(address, now + this.penaltyMs);
      return this.refusal(
        budget?.name ?? 'default',
        this.penaltyMs,
        `more than ${allowed} requests to ${budget?.pattern ?? routeKey} within ${this.windowMs / 1000} s`,
      );
    }
    const sec = Math.floor(now / 1000);
    counter.buckets.set(sec, (counter.buckets.get(sec) ?? 0) + 1);
    counter.total++;
    return undefined;
  }

  private counter(key: string, now: number): Counter {
    let c = this.counters.get(key);
    if (c === undefined) this.counters.set(key, (c = { buckets: new Map(), total: 0 }));
    const oldest = Math.floor((now - this.windowMs) / 1000);
    for (const [sec, n] of c.buckets) {
      if (sec > oldest) break;
      c.buckets.delete(sec);
      c.total -= n;
    }
    return c;
  }

  private budgetFor(path: string): RateBudget | undefined {
    const segments = path.split('/').filter(Boolean);
    return this.budgets.find((b) => {
      const pat = b.pattern.split('/').filter(Boolean);
      return pat.length <= segments.length && pat.every((p, i) => p === '*' || p === segments[i]);
    });
  }

  private refusal(budget: string, waitMs: number, why: string): RateRefusal {
    const retryAfterSec = Math.max(1, Math.ceil(waitMs / 1000));
    return { budget, retryAfterSec, detail: `rate limit exceeded (${why}): retry after ${retryAfterSec} s` };
  }
}

function positive(n: number, name: string): number {
  if (!(Number.isFinite(n) && n > 0)) throw new InputError(`rate_limits.${name}`, `must be a number greater than 0, got ${n}`);
  return n;
}

/**
 * Parses `--rate-limits`: `on`/`off`, or comma-separated `window=10s,penalty=30s,scale=0.1`
 * (any setting turns them on; each must be above 0). Returns undefined for off.
 */
export function parseRateLimits(text: string): RateLimitSettings | undefined {
  const t = text.trim();
  if (t === 'off' || t === 'false' || t === '') return undefined;
  if (t === 'on' || t === 'true' || t === 'platform') return {};
  const out: { windowMs?: number; penaltyMs?: number; scale?: number } = {};
  for (const part of t.split(',')) {
    const m = /^(window|penalty|scale)=(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(part.trim());
    if (m === null)
      throw new InputError('--rate-limits', `${JSON.stringify(part)} is not valid: use on, off, or window=10s,penalty=30s,scale=0.1`);
    const n = Number(m[2]);
    if (m[1] === 'scale') out.scale = n;
    else out[m[1] === 'window' ? 'windowMs' : 'penaltyMs'] = n * (m[3] === 'm' ? 60_000 : m[3] === 'ms' ? 1 : 1000);
  }
  // the pattern admits no negative number, but 0 (window=0s, scale=0.0) would only fail later in SandboxRateLimiter
  for (const [name, value] of [
    ['window', out.windowMs],
    ['penalty', out.penaltyMs],
    ['scale', out.scale],
  ] as const) {
    if (value !== undefined && !(value > 0))
      throw new InputError('--rate-limits', `${name}: must be greater than 0, got ${value}, e.g. window=10s,penalty=30s,scale=0.1`);
  }
  return out;
}
