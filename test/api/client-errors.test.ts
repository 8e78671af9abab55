import { afterEach, describe, expect, it } from 'vitest';
import { SecretSet } from '../../src/log/redact.js';
import {
  BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnexpectedStatusError, mapHttpError, parseRetryAfter,
  type RequestEvent, type ResponseEvent,
} from '../../src/api/index.js';
import { FakePlatform, problem } from '../support/fake-platform.js';
import { clientFor, memoryLogger } from './helpers.js';

let fake: FakePlatform;
afterEach(async () => {
  await fake?.close();
});

const fail = (status: number, text: string, headers: Record<string, string> = {}) =>
  mapHttpError({ operation: 'CreateOrder', status, headers, text, nowMs: 0 });

describe('the error mapper', () => {
  it('maps problem+json to typed errors with a stable code, the operation, the status and the request id', () => {
    const funds = fail(403, JSON.stringify({ type: 'https://developer.paxos.com/docs/v2/problems/insufficient-funds', title: 'Insufficient Funds', status: 403, detail: '306.25 needed', meta: { asset: 'USD', needed: '306.25' } }), { 'x-request-id': 'req-1' });
    expect(funds).toBeInstanceOf(ForbiddenError);
    expect(funds).toMatchObject({ code: 'FORBIDDEN', slug: 'insufficient-funds', operation: 'CreateOrder', status: 403, requestId: 'req-1' });
    expect(funds.problem?.meta).toEqual({ asset: 'USD', needed: '306.25' });
    expect(funds.message).toBe('CreateOrder failed with HTTP 403 Insufficient Funds: 306.25 needed');
    expect(fail(400, '{"title":"Bad Request"}')).toBeInstanceOf(BadRequestError);
    expect(fail(404, '')).toBeInstanceOf(NotFoundError);
    expect(fail(405, '{"title":"Method Not Allowed","detail":"Not implemented"}')).toBeInstanceOf(UnexpectedStatusError);
    const conflict = fail(409, JSON.stringify({ type: 'https://api.paxos.com/v2/problems/already-exists', title: 'Already exists', meta: { existing: { id: 'o1' } } }));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).existing).toEqual({ id: 'o1' });
    expect(fail(502, '<html>Bad gateway</html>')).toMatchObject({ code: 'SERVER_ERROR', problem: undefined });
    expect(fail(429, '', { 'retry-after': '3' })).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 3000 });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('secrets', () => {
  it('never lets the client secret or a token reach logs, error messages or String(err)', async () => {
    const SECRET = 'canary-secret-9f8e7d6c';
    fake = await FakePlatform.start({ clientSecret: SECRET });
    fake.on('GET', '/orders', (r) => problem(400, 'Bad Request', { detail: `rejected header ${r.headers.authorization} and client_secret=${SECRET}`, meta: { echo: r.headers.authorization } }));
    const secrets = new SecretSet();
    const { logger, lines } = memoryLogger(secrets);
    const client = clientFor(fake, { clientSecret: SECRET, secrets, logger });
    const err = await client.listOrders().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    const token = /^Bearer (.+)$/.exec(fake.requests[0]!.headers.authorization!)![1]!;
    logger.error({ err }, 'call failed');
    logger.info({ headers: fake.requests[0]!.headers }, 'request headers');
    const texts = [String(err), (err as Error).message, JSON.stringify(err), (err as Error).stack ?? '', lines()];
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(token);
    }
    expect(lines()).toContain('[REDACTED]');
    await client.close();
  });
});

describe('observers', () => {
  it('calls onRequest and onResponse for every attempt, and survives a throwing observer', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/markets/:market/ticker', [problem(503, 'Service Unavailable'), { json: { market: 'BTCUSD' }, headers: { 'x-request-id': 'abc' } }], { public: true });
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const client = clientFor(fake, {
      onRequest: (e) => {
        requests.push(e);
        throw new Error('observer bug');
      },
      onResponse: (e) => responses.push(e),
    });
    await client.getTicker('BTCUSD', { priority: 'high' });
    expect(requests.map((e) => [e.operation, e.attempt, e.priority, e.path])).toEqual([
      ['GetTicker', 1, 'high', '/markets/BTCUSD/ticker'],
      ['GetTicker', 2, 'high', '/markets/BTCUSD/ticker'],
    ]);
    expect(responses.map((e) => [e.status, e.error, e.requestId])).toEqual([
      [503, 'SERVER_ERROR', undefined],
      [200, undefined, 'abc'],
    ]);
    await client.close();
  });

  it('rejects with AbortedError when the caller aborts, without retrying', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/markets/:market/ticker', () => new Promise(() => undefined), { public: true });
    const client = clientFor(fake);
    const ctl = new AbortController();
    const p = client.getTicker('BTCUSD', { signal: ctl.signal });
    setImmediate(() => ctl.abort());
    await expect(p).rejects.toMatchObject({ code: 'ABORTED', operation: 'GetTicker' });
    await client.close();
  });
});
