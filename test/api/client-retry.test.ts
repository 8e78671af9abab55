import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/test-clock.js';
import { ConflictError, MalformedResponseError, RateLimitedError, ServerError, TransportError } from '../../src/api/index.js';
import { RestVenue, VenueReadError } from '../../src/venue/index.js';
import { FakePlatform, problem, type FakeRequest } from '../support/fake-platform.js';
import { ORDER, clientFor, until } from './helpers.js';

let fake: FakePlatform;
afterEach(async () => {
  await fake?.close();
});

/** A tiny order store: CreateOrder commits, ListOrders finds by ref_ids, 409 on a reused ref_id. */
function orderStore(f: FakePlatform, commitReply: (n: number) => 'ok' | 'lose-reply' | 'fail-before-commit') {
  const orders: Record<string, unknown>[] = [];
  let n = 0;
  f.on('POST', '/profiles/:profile_id/orders', (r: FakeRequest) => {
    const body = r.body as Record<string, string>;
    const mode = commitReply(++n);
    if (mode === 'fail-before-commit') return problem(504, 'Gateway Timeout', { detail: 'timeout while creating the order' });
    const existing = orders.find((o) => o.ref_id === body.ref_id);
    if (existing) return problem(409, 'Already Exists', { type: 'https://developer.paxos.com/docs/v2/problems/already-exists', meta: { existing } });
    const order = { ...ORDER, id: `order-${orders.length + 1}`, profile_id: r.params.profile_id, ...body };
    orders.push(order);
    return mode === 'lose-reply' ? { destroy: true } : { json: order };
  });
  f.on('GET', '/orders', (r) => {
    const refs = r.query.getAll('ref_ids');
    return { json: { items: orders.filter((o) => refs.includes(o.ref_id as string) && o.profile_id === r.query.get('profile_id')), next_page_cursor: '' } };
  });
  return orders;
}

const LIMIT_BUY = { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '61250.50', base_amount: '0.015' } as const;

describe('writes carrying a ref_id', () => {
  it('resolves a write whose reply was lost after the server committed it, without a duplicate', async () => {
    fake = await FakePlatform.start();
    const orders = orderStore(fake, (n) => (n === 1 ? 'lose-reply' : 'ok'));
    const client = clientFor(fake);
    const order = await client.createOrder('p1', { ...LIMIT_BUY, ref_id: 'bot-7-000123' });
    expect(order).toMatchObject({ id: 'order-1', ref_id: 'bot-7-000123' });
    expect(orders).toHaveLength(1);
    expect(fake.requestsTo('POST', '/profiles/p1/orders')).toHaveLength(1);
    expect(fake.requestsTo('GET', '/orders')[0]!.rawQuery).toBe('profile_id=p1&ref_ids=bot-7-000123');
    await client.close();
  });

  it('looks the ref_id up after a 504, finds nothing, and resends the same ref_id once', async () => {
    fake = await FakePlatform.start();
    const orders = orderStore(fake, (n) => (n === 1 ? 'fail-before-commit' : 'ok'));
    const client = clientFor(fake);
    const order = await client.createOrder('p1', LIMIT_BUY);
    expect(orders).toHaveLength(1);
    const posts = fake.requestsTo('POST', '/profiles/p1/orders');
    expect(posts).toHaveLength(2);
    expect((posts[0]!.body as { ref_id: string }).ref_id).toBe('ref-1');
    expect((posts[1]!.body as { ref_id: string }).ref_id).toBe('ref-1');
    expect(order.ref_id).toBe('ref-1');
    await client.close();
  });

  it('returns the existing record on a 409 for its own ref_id', async () => {
    fake = await FakePlatform.start();
    const orders = orderStore(fake, () => 'ok');
    const client = clientFor(fake);
    const first = await client.createOrder('p1', { ...LIMIT_BUY, ref_id: 'r-1' });
    const again = await client.createOrder('p1', { ...LIMIT_BUY, price: '61250.5', ref_id: 'r-1' });
    expect(again).toEqual(first);
    expect(orders).toHaveLength(1);
    await client.close();
  });

  it('refuses a 409 whose existing record differs from the request (ref_id reused)', async () => {
    fake = await FakePlatform.start();
    orderStore(fake, () => 'ok');
    const client = clientFor(fake);
    await client.createOrder('p1', { ...LIMIT_BUY, ref_id: 'r-1' });
    const err = await client.createOrder('p1', { ...LIMIT_BUY, price: '60000', ref_id: 'r-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).code).toBe('REF_ID_REUSED');
    expect((err as ConflictError).message).toContain('price');
    expect((err as ConflictError).existing).toMatchObject({ price: '61250.50' });
    await client.close();
  });

  it('resends a quote execution (no ref_id filter) and accepts the 409 with meta.existing', async () => {
    fake = await FakePlatform.start();
    const executions: Record<string, unknown>[] = [];
    fake.on('POST', '/profiles/:profile_id/quote-executions', (r) => {
      const body = r.body as Record<string, string>;
      const existing = executions.find((e) => e.ref_id === body.ref_id);
      if (existing) return problem(409, 'Already exists', { type: 'https://api.paxos.com/v2/problems/already-exists', meta: { existing } });
      executions.push({ id: 'qe-1', profile_id: r.params.profile_id, status: 'CREATED', ...body });
      return { destroy: true };
    });
    const client = clientFor(fake);
    const qe = await client.createQuoteExecution('p1', { quote_id: 'q-1', quote_amount: '100.00', ref_id: 'qe-0042' });
    expect(qe).toMatchObject({ id: 'qe-1', ref_id: 'qe-0042' });
    expect(executions).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
    await client.close();
  });

  it('resolves an internal transfer whose reply timed out after commit through ListTransfers ref_ids (debit leg)', async () => {
    fake = await FakePlatform.start();
    const transfers: Record<string, unknown>[] = [];
    fake.on('POST', '/transfer/internal', (r) => {
      const body = r.body as Record<string, string>;
      const common = { customer_id: 'c', amount: body.amount, asset: body.asset, ref_id: body.ref_id, group_id: 'g1', status: 'PENDING' };
      transfers.push({ ...common, id: 't-credit', profile_id: body.to_profile_id, type: 'INTERNAL_TRANSFER_CREDIT', direction: 'CREDIT' });
      transfers.push({ ...common, id: 't-debit', profile_id: body.from_profile_id, type: 'INTERNAL_TRANSFER_DEBIT', direction: 'DEBIT' });
      return new Promise(() => undefined);
    });
    fake.on('GET', '/transfer/transfers', (r) => ({ json: { items: transfers.filter((t) => r.query.getAll('ref_ids').includes(t.ref_id as string)) } }));
    const client = clientFor(fake, { headersTimeoutMs: 100 });
    const t = await client.createInternalTransfer({ from_profile_id: 'a', to_profile_id: 'b', amount: '0.05', asset: 'BTC', ref_id: 'move-0008' });
    expect(t).toMatchObject({ id: 't-debit', direction: 'DEBIT' });
    expect(fake.requestsTo('POST', '/transfer/internal')).toHaveLength(1);
    await client.close();
  });

  it('never resends a write without ref_id once it may have reached the server', async () => {
    fake = await FakePlatform.start();
    fake.on('POST', '/profiles', () => problem(503, 'Service Unavailable'));
    const client = clientFor(fake);
    await expect(client.createProfile({ nickname: 'grid' })).rejects.toBeInstanceOf(ServerError);
    expect(fake.requestsTo('POST', '/profiles')).toHaveLength(1);
    await client.close();
  });
});

describe('reads', () => {
  it('retry 5xx with backoff until success', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/markets/:market/ticker', [problem(503, 'Service Unavailable'), { status: 502, text: '<html>bad gateway</html>' }, { json: { market: 'BTCUSD' } }], { public: true });
    const client = clientFor(fake);
    expect(await client.getTicker('BTCUSD')).toEqual({ market: 'BTCUSD' });
    expect(fake.requests).toHaveLength(3);
    await client.close();
  });

  it('give up after maxRetries and raise the last ServerError with the request id', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/markets/:market/ticker', () => ({ ...problem(500, 'Internal Server Error'), headers: { 'x-request-id': 'req-77' } }), { public: true });
    const client = clientFor(fake, { maxRetries: 2 });
    const err = await client.getTicker('BTCUSD').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ code: 'SERVER_ERROR', status: 500, requestId: 'req-77', operation: 'GetTicker' });
    expect(fake.requests).toHaveLength(3);
    await client.close();
  });

  it('retry a malformed or wrong-shaped 2xx body (a read has no unknown outcome) until a good one', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/profiles/:profile_id/orders', [{ text: '{"items": [{"id": "o1"' }, { json: { id: 7, items: 'none' } }, { json: { items: [{ id: 'o1' }] } }]);
    const client = clientFor(fake);
    expect((await client.listProfileOrders('p1', {})).items).toEqual([{ id: 'o1' }]);
    expect(fake.requestsTo('GET', '/profiles/p1/orders')).toHaveLength(3);
    await client.close();
  });

  it('give up on a body that stays malformed after maxRetries with MALFORMED_RESPONSE, never an unknown outcome', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/profiles/:profile_id/orders', () => ({ text: '<html>proxy error</html>', headers: { 'x-request-id': 'req-9' } }));
    const client = clientFor(fake, { maxRetries: 2 });
    const err = await client.listProfileOrders('p1', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).toMatchObject({ code: 'MALFORMED_RESPONSE', requestId: 'req-9', message: 'ListProfileOrders: malformed response body (not JSON)' });
    expect(fake.requestsTo('GET', '/profiles/p1/orders')).toHaveLength(3);
    // through the venue: a failed read, named as such, not an unknown outcome
    const venueErr = await new RestVenue(client, 'p1').findOrderByRef('r-1').catch((e: unknown) => e);
    expect(venueErr).toBeInstanceOf(VenueReadError);
    expect((venueErr as VenueReadError).code).toBe('VENUE_READ_FAILED');
    expect((venueErr as Error).message).toMatch(/^ListProfileOrders: malformed response body \(not JSON\); the venue gave no usable answer to this read after the retries allowed by api\.max_retries/);
    await client.close();
  });

  it('leave a write answered with a malformed body to its ref_id (not resent by the client)', async () => {
    fake = await FakePlatform.start();
    fake.on('POST', '/profiles/:profile_id/orders', () => ({ text: '{"id": "order-1", "ref' }));
    const client = clientFor(fake);
    await expect(client.createOrder('p1', { ...LIMIT_BUY, ref_id: 'bot-1' })).rejects.toBeInstanceOf(MalformedResponseError);
    expect(fake.requestsTo('POST', '/profiles/p1/orders')).toHaveLength(1);
    await client.close();
  });

  it('retry a refused connection (request never sent) and report TransportError', async () => {
    fake = await FakePlatform.start();
    const url = fake.baseUrl;
    await fake.close();
    const client = clientFor(fake, { apiUrl: url, maxRetries: 1 });
    const err = await client.getTicker('BTCUSD').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).sent).toBe(false);
    await client.close();
  });
});

describe('429 and the rate limiter', () => {
  it('honours Retry-After: every budget pauses, then the read is retried', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/markets/:market/ticker', [
      { ...problem(429, 'Too Many Requests'), headers: { 'retry-after': '2' } },
      { json: { market: 'BTCUSD' } },
    ], { public: true });
    fake.on('GET', '/markets/:market/order-book', () => ({ json: { market: 'ETHUSD', asks: [], bids: [] } }), { public: true });
    const clock = new TestClock(0);
    const client = clientFor(fake, { clock });
    const ticker = client.getTicker('BTCUSD');
    await until(() => client.limiter.pausedUntil() === 2000 && client.limiter.queued() === 1);
    const book = client.getOrderBook('ETHUSD');
    await until(() => client.limiter.queued() === 2);
    clock.advance(1999);
    await new Promise((r) => setImmediate(r));
    expect(fake.requests).toHaveLength(1);
    clock.advance(1);
    expect(await ticker).toEqual({ market: 'BTCUSD' });
    expect(await book).toMatchObject({ market: 'ETHUSD' });
    expect(fake.requests).toHaveLength(3);
    await client.close();
  });

  it('pauses for the configured penalty when a 429 has no Retry-After', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/markets/:market/ticker', [problem(429, 'Too Many Requests'), { json: { market: 'BTCUSD' } }], { public: true });
    const clock = new TestClock(0);
    const client = clientFor(fake, { clock, rateLimitPenaltyMs: 5_000 });
    const pending = client.getTicker('BTCUSD');
    await until(() => client.limiter.pausedUntil() === 5_000 && client.limiter.queued() === 1);
    clock.advance(4_999);
    await new Promise((r) => setImmediate(r));
    expect(fake.requests).toHaveLength(1);
    clock.advance(1);
    expect(await pending).toEqual({ market: 'BTCUSD' });
    await client.close();
  });

  it('fails fast with RateLimitedError when the pause exceeds maxRetryWaitMs (default penalty 300 s)', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/markets/:market/ticker', () => problem(429, 'Too Many Requests'), { public: true });
    const clock = new TestClock(0);
    const client = clientFor(fake, { clock, maxRetryWaitMs: 60_000 });
    const err = await client.getTicker('BTCUSD').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    expect(client.limiter.pausedUntil()).toBe(300_000);
    await client.close();
  });
});
