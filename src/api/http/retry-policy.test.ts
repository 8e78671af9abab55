import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/rng.js';
import { AbortedError, BadRequestError, MalformedResponseError, RateLimitedError, ServerError, TimeoutError, TransportError, UnauthorizedError } from '../errors.js';
import { findOperation } from '../operations.js';
import { backoffMs, decideRetry, type RetrySettings } from './retry-policy.js';

const S: RetrySettings = { maxRetries: 3, baseBackoffMs: 100, maxBackoffMs: 1000, rateLimitPenaltyMs: 300_000, maxRetryWaitMs: 600_000 };
const init = { operation: 'X' };
const fresh = { retries: 0, refreshedToken: false, hasRefId: false };
const decide = (op: string, err: unknown, state: Partial<typeof fresh> = {}) => decideRetry(findOperation(op)!, err, { ...fresh, ...state }, S, new Rng(1)).kind;

describe('the retry policy', () => {
  it('retries reads on 5xx, timeouts and transport errors, up to maxRetries', () => {
    expect(decide('GetOrder', new ServerError('m', init))).toBe('retry');
    expect(decide('GetOrder', new TimeoutError('m', { ...init, phase: 'headers' }))).toBe('retry');
    expect(decide('GetOrder', new TransportError('m', { ...init, sent: true }))).toBe('retry');
    expect(decide('GetOrder', new ServerError('m', init), { retries: 3 })).toBe('fail');
    expect(decide('GetOrder', new BadRequestError('m', init))).toBe('fail');
  });

  it('retries a read whose 2xx body is malformed or of the wrong shape (a read has no unknown outcome); a write is left to its ref_id', () => {
    expect(decide('ListProfileOrders', new MalformedResponseError('m', init))).toBe('retry');
    expect(decide('ListProfileOrders', new MalformedResponseError('m', init), { retries: 3 })).toBe('fail');
    expect(decide('CreateOrder', new MalformedResponseError('m', init), { hasRefId: true })).toBe('fail');
  });

  it('resolves writes with a ref_id by lookup, and never resends writes without one once they may have arrived', () => {
    expect(decide('CreateOrder', new ServerError('m', init), { hasRefId: true })).toBe('resolve-ref-id');
    expect(decide('CreateOrder', new TransportError('m', { ...init, sent: true }), { hasRefId: true })).toBe('resolve-ref-id');
    expect(decide('CreateProfile', new ServerError('m', init))).toBe('fail');
    expect(decide('CancelOrder', new TimeoutError('m', { ...init, phase: 'body' }))).toBe('fail');
    expect(decide('CancelOrder', new TransportError('m', { ...init, sent: false }))).toBe('retry');
    expect(decide('CreateProfile', new TimeoutError('m', { ...init, phase: 'connect' }))).toBe('retry');
  });

  it('refreshes the token once on 401, waits out 429s, and never retries an abort', () => {
    expect(decide('GetOrder', new UnauthorizedError('m', init))).toBe('refresh-token');
    expect(decide('GetOrder', new UnauthorizedError('m', init), { refreshedToken: true })).toBe('fail');
    expect(decide('CreateProfile', new RateLimitedError('m', { ...init, retryAfterMs: 1000 }))).toBe('rate-limited');
    expect(decideRetry(findOperation('GetOrder')!, new RateLimitedError('m', init), fresh, { ...S, maxRetryWaitMs: 1000 }, new Rng(1)).kind).toBe('fail');
    expect(decide('GetOrder', new AbortedError('GetOrder'))).toBe('fail');
  });

  it('backs off exponentially with jitter between half and all of the capped delay', () => {
    const rng = new Rng(42);
    for (let retries = 0; retries < 8; retries++) {
      const ceiling = Math.min(1000, 100 * 2 ** retries);
      const d = backoffMs(retries, S, rng);
      expect(d).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d).toBeLessThanOrEqual(ceiling);
    }
    expect(backoffMs(2, S, new Rng(5))).toBe(backoffMs(2, S, new Rng(5)));
  });
});
