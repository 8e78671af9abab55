import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/test-clock.js';
import { Rng } from '../../src/core/rng.js';
import { SecretSet } from '../../src/log/redact.js';
import { CircuitBreaker, RateLimiter, TRADING_BOT_SCOPES, TransportError, findOperation, outcomeUnknown, type OperationSpec } from '../../src/api/index.js';
import { Executor } from '../../src/api/http/executor.js';
import type { TokenManager } from '../../src/api/http/token-manager.js';
import { mapTransportError, type RawRequest, type RawResponse, type Transport } from '../../src/api/http/transport.js';
import { ORDER, memoryLogger } from './helpers.js';

/** A venue that is down (connections refused or reset) until told otherwise; counts what was sent. */
class FakeTransport {
  down: 'refused' | 'reset' | false = 'refused';
  readonly sent: RawRequest[] = [];

  send(operation: string, req: RawRequest): Promise<RawResponse> {
    this.sent.push(req);
    if (this.down) {
      const code = this.down === 'reset' ? 'ECONNRESET' : 'ECONNREFUSED';
      return Promise.reject(mapTransportError(operation, Object.assign(new Error(`connect ${code}`), { code })));
    }
    const text = req.method === 'GET' && req.url.includes('/orders?') ? JSON.stringify({ items: [], next_page_cursor: '' }) : JSON.stringify(ORDER);
    return Promise.resolve({ status: 200, headers: {}, text });
  }
}

function setup(failures: number, tokenDown = false, lookups = true): { clock: TestClock; transport: FakeTransport; executor: Executor; breaker: CircuitBreaker; lines: () => string[] } {
  const clock = new TestClock(Date.UTC(2026, 0, 5, 12, 0, 0));
  const transport = new FakeTransport();
  const log = memoryLogger(undefined, 'info');
  const token = (): Promise<unknown> => (tokenDown ? Promise.reject(mapTransportError('OAuthToken', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))) : Promise.resolve({ value: 'token', scopes: undefined }));
  const tokens = { get: token, peek: () => undefined, invalidate: () => undefined } as unknown as TokenManager;
  let seq = 0;
  const breaker = new CircuitBreaker({ failures }, clock, log.logger);
  const executor = new Executor({
    apiUrl: 'https://venue.test/v2', clock, rng: new Rng(3), logger: log.logger, transport: transport as unknown as Transport,
    limiter: new RateLimiter({ clock }), tokens, requestedScopes: new Set(TRADING_BOT_SCOPES), secrets: new SecretSet(),
    retry: { maxRetries: 4, baseBackoffMs: 250, maxBackoffMs: 10_000, rateLimitPenaltyMs: 300_000, maxRetryWaitMs: 600_000 },
    makeRefId: () => `ref-${++seq}`, userAgent: 'test', findOperation: (id) => (lookups || id !== 'ListOrders' ? findOperation(id) : undefined),
    breaker,
  });
  return { clock, transport, executor, breaker, lines: () => log.lines().split('\n').filter((l) => l !== '') };
}

const spec = (id: string): OperationSpec => findOperation(id) as OperationSpec;
const GET_ORDER = { path: { profile_id: 'p1', id: ORDER.id } };
const CREATE_ORDER = { path: { profile_id: 'p1' }, body: { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '61250.50', base_amount: '0.015', ref_id: 'bot-1' } };

/** Runs the clock in 50 ms steps until every call has settled; returns each outcome. */
async function drive(clock: TestClock, calls: Promise<unknown>[]): Promise<PromiseSettledResult<unknown>[]> {
  let done = false;
  const all = Promise.allSettled(calls).then((r) => {
    done = true;
    return r;
  });
  for (let i = 0; i < 10_000 && !done; i++) await clock.advanceAsync(50);
  return all;
}

const codeOf = (r: PromiseSettledResult<unknown>): string => (r.status === 'rejected' ? String((r.reason as { code?: string }).code) : 'ok');
const count = (lines: string[], text: string): number => lines.filter((l) => l.includes(text)).length;

describe('the venue circuit breaker in the client', () => {
  it('N connection failures open it: the reads in flight end VENUE_UNREACHABLE without a retry warning each', async () => {
    const { clock, transport, executor, lines } = setup(5);
    const results = await drive(clock, [1, 2, 3, 4].map(() => executor.call(spec('GetOrder'), GET_ORDER)));
    expect(results.map(codeOf)).toEqual(['VENUE_UNREACHABLE', 'VENUE_UNREACHABLE', 'VENUE_UNREACHABLE', 'VENUE_UNREACHABLE']);
    expect(transport.sent).toHaveLength(5);
    expect(count(lines(), 'retrying request')).toBe(4);
    expect(count(lines(), 'venue unreachable since')).toBe(1);
  });

  it('while open: one probe a second, writes fail fast unsent; the first answer closes it with one info line', async () => {
    const { clock, transport, executor, lines } = setup(5);
    const openedAt = clock.now();
    await drive(clock, [1, 2, 3, 4, 5].map(() => executor.call(spec('GetOrder'), GET_ORDER)));
    const sentWhenOpened = transport.sent.length;
    const start = clock.now();
    while (clock.now() - start < 10_000) {
      const [read, write] = await drive(clock, [executor.call(spec('GetOrder'), GET_ORDER), executor.call(spec('CreateOrder'), CREATE_ORDER)]);
      expect(codeOf(read!)).toBe('VENUE_UNREACHABLE');
      expect(codeOf(write!)).toBe('VENUE_UNREACHABLE');
      expect(outcomeUnknown((write as PromiseRejectedResult).reason)).toBe(false);
    }
    const probes = transport.sent.length - sentWhenOpened;
    expect(probes).toBeGreaterThanOrEqual(9);
    expect(probes).toBeLessThanOrEqual(Math.ceil((clock.now() - openedAt) / 1000));
    expect(transport.sent.slice(sentWhenOpened).every((r) => r.method === 'GET')).toBe(true);

    transport.down = false;
    const [first] = await drive(clock, [executor.call(spec('GetOrder'), GET_ORDER)]);
    clock.advance(1_000);
    const [probe, refused] = await drive(clock, [executor.call(spec('GetOrder'), GET_ORDER), executor.call(spec('CreateOrder'), CREATE_ORDER)]);
    const [write] = await drive(clock, [executor.call(spec('CreateOrder'), CREATE_ORDER)]);
    // a write beside the probe in flight is still refused; once the probe is answered, writes go
    expect([first, probe, refused, write].map((r) => codeOf(r!))).toEqual([expect.stringMatching(/ok|VENUE_UNREACHABLE/), 'ok', 'VENUE_UNREACHABLE', 'ok']);
    const out = lines();
    expect(out.filter((l) => l.includes('"level":40') && !l.includes('retrying request'))).toHaveLength(1);
    expect(count(out, 'venue unreachable since')).toBe(1);
    expect(out.filter((l) => l.includes('"level":30'))).toEqual([expect.stringContaining('venue reachable again after')]);
  });

  it('a write whose outcome is unknown stays unknown when the breaker opens, even if its ref_id lookup is refused', async () => {
    const { clock, transport, executor } = setup(2);
    transport.down = 'reset';
    const [write] = await drive(clock, [executor.call(spec('CreateOrder'), CREATE_ORDER)]);
    const err = (write as PromiseRejectedResult).reason as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.sent).toBe(true);
    expect(outcomeUnknown(err)).toBe(true);
    // the write, then its lookup by ref_id (which opened the breaker); nothing after
    expect(transport.sent.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('failures of the token host do not open the venue breaker: the caller hears the token failure', async () => {
    const { clock, transport, executor, lines } = setup(2, true);
    const results = await drive(clock, [1, 2, 3].map(() => executor.call(spec('GetOrder'), GET_ORDER)));
    expect(results.map(codeOf)).toEqual(['TRANSPORT', 'TRANSPORT', 'TRANSPORT']);
    expect(transport.sent).toHaveLength(0);
    expect(count(lines(), 'venue unreachable')).toBe(0);
  });

  it('a write to be resent keeps its unknown outcome when the breaker refuses the resend', async () => {
    // no lookup by ref_id here: after the backoff the write would be sent again with its ref_id
    const { clock, transport, executor, breaker } = setup(2, false, false);
    transport.down = 'reset';
    // other requests fail meanwhile: the breaker is open by the time the write would be sent again
    const refused = mapTransportError('GetTicker', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    clock.setTimeout(() => [1, 2].forEach(() => breaker.settle({ probe: false }, refused)), 20);
    const [write] = await drive(clock, [executor.call(spec('CreateOrder'), CREATE_ORDER)]);
    expect(breaker.isOpen()).toBe(true);
    expect(transport.sent.map((r) => r.method)).toEqual(['POST']);
    const err = (write as PromiseRejectedResult).reason as TransportError;
    expect(err.code).toBe('TRANSPORT');
    expect(outcomeUnknown(err)).toBe(true);
  });
});
