import type { Rng } from '../../core/rng.js';
import {
  AbortedError, MalformedResponseError, RateLimitedError, ServerError, TimeoutError, TransportError, UnauthorizedError, outcomeUnknown,
} from '../errors.js';
import type { OperationSpec } from '../operation-spec.js';

export interface RetrySettings {
  readonly maxRetries: number;
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Pause of every budget after a 429 without Retry-After. */
  readonly rateLimitPenaltyMs: number;
  /** A retry that would wait longer than this fails at once instead (the budgets stay paused). */
  readonly maxRetryWaitMs: number;
}

/** What to do after a failed attempt. */
export type RetryDecision =
  | { readonly kind: 'fail' }
  | { readonly kind: 'refresh-token' }
  | { readonly kind: 'rate-limited'; readonly pauseMs: number }
  | { readonly kind: 'retry'; readonly delayMs: number }
  /** A write with a ref_id whose outcome is unknown: look it up (or resend it), then retry. */
  | { readonly kind: 'resolve-ref-id'; readonly delayMs: number };

export interface AttemptState {
  /** Retries already made (0 after the first attempt). */
  readonly retries: number;
  readonly refreshedToken: boolean;
  readonly hasRefId: boolean;
}

/**
 * The one retry policy. Reads retry on transport errors, 429 (after the pause), 5xx and a 2xx body
 * the client cannot use (not JSON, wrong shape: a read changed nothing, so it is simply asked
 * again) with exponential backoff and jitter. A 401 refreshes the token once and retries. Writes retry only
 * when the request certainly did not reach the server, or when they carry a ref_id (the outcome is
 * then resolved by ref_id first). Writes without ref_id are never resent once they may have arrived.
 */
export function decideRetry(spec: OperationSpec, err: unknown, state: AttemptState, s: RetrySettings, rng: Rng): RetryDecision {
  if (err instanceof AbortedError) return { kind: 'fail' };
  if (err instanceof UnauthorizedError) return state.refreshedToken ? { kind: 'fail' } : { kind: 'refresh-token' };
  if (state.retries >= s.maxRetries) return { kind: 'fail' };
  if (err instanceof RateLimitedError) {
    const pauseMs = err.retryAfterMs ?? s.rateLimitPenaltyMs;
    return pauseMs > s.maxRetryWaitMs ? { kind: 'fail' } : { kind: 'rate-limited', pauseMs };
  }
  // a malformed answer to a write is left to the caller, which resolves the write by its ref_id
  const retryable = err instanceof ServerError || err instanceof TimeoutError || err instanceof TransportError || (spec.method === 'GET' && err instanceof MalformedResponseError);
  if (!retryable) return { kind: 'fail' };
  const delayMs = backoffMs(state.retries, s, rng);
  if (delayMs > s.maxRetryWaitMs) return { kind: 'fail' };
  if (spec.method === 'GET' || !outcomeUnknown(err)) return { kind: 'retry', delayMs };
  return state.hasRefId ? { kind: 'resolve-ref-id', delayMs } : { kind: 'fail' };
}

/** Exponential backoff with "equal jitter": half fixed, half random, capped. */
export function backoffMs(retries: number, s: Pick<RetrySettings, 'baseBackoffMs' | 'maxBackoffMs'>, rng: Rng): number {
  const ceiling = Math.min(s.maxBackoffMs, s.baseBackoffMs * 2 ** retries);
  return Math.round(ceiling / 2 + rng.next() * (ceiling / 2));
}
