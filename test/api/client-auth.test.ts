import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/test-clock.js';
import { AuthError, MissingScopeError, UnsafeTargetError, createApiClient } from '../../src/api/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { clientFor } from './helpers.js';

let fake: FakePlatform;
afterEach(async () => {
  await fake?.close();
});

const book = { market: 'BTCUSD', asks: [{ price: '61201.25', amount: '0.12' }], bids: [{ price: '61200.00', amount: '0.41' }] };

describe('OAuth2 token management', () => {
  it('caches the token and renews it ahead of expires_in', async () => {
    fake = await FakePlatform.start({ expiresInS: 3599 });
    fake.on('GET', '/profiles/:profile_id/balances', () => ({ json: { items: [{ asset: 'USD', available: '10', trading: '0' }] } }));
    const clock = new TestClock(1_000_000);
    const client = clientFor(fake, { clock, refreshAheadMs: 60_000 });
    await client.listProfileBalances('p1');
    await client.listProfileBalances('p1');
    expect(fake.tokenRequests).toBe(1);
    clock.advance(3599_000 - 60_001);
    await client.listProfileBalances('p1');
    expect(fake.tokenRequests).toBe(1);
    clock.advance(2);
    await client.listProfileBalances('p1');
    expect(fake.tokenRequests).toBe(2);
    const form = fake.tokenForms[0]!;
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('scope')).toContain('funding:read_profile');
    await client.close();
  });

  it('sends no token to public market-data operations', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/markets/:market/order-book', () => ({ json: book }), { public: true });
    const client = clientFor(fake);
    expect(await client.getOrderBook('BTCUSD')).toEqual(book);
    expect(fake.tokenRequests).toBe(0);
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    await client.close();
  });

  it('answers a burst of concurrent 401s with exactly one token request', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/profiles/:profile_id', (r) => ({ json: { id: r.params.profile_id, nickname: 'n', type: 'NORMAL' } }));
    const client = clientFor(fake);
    await client.getProfile('warm-up');
    expect(fake.tokenRequests).toBe(1);
    fake.revokeTokens();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => client.getProfile(`p${i}`)));
    expect(results.map((r) => r.id)).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}`));
    expect(fake.tokenRequests).toBe(2);
    await client.close();
  });

  it('refreshes once and retries once on 401, then raises UnauthorizedError', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/profiles/:profile_id', () => ({ status: 401, json: { title: 'Unauthorized', status: 401 } }));
    const client = clientFor(fake);
    await expect(client.getProfile('p1')).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401, operation: 'GetProfile' });
    expect(fake.requestsTo('GET', '/profiles/p1')).toHaveLength(2);
    expect(fake.tokenRequests).toBe(2);
    await client.close();
  });

  it('raises MissingScopeError without a request when the scope was not granted', async () => {
    fake = await FakePlatform.start({ grantedScope: 'funding:read_profile' });
    fake.on('GET', '/orders', () => ({ json: { items: [] } }));
    const client = clientFor(fake);
    const err = await client.listOrders().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingScopeError);
    expect((err as MissingScopeError).scope).toBe('exchange:read_order');
    expect(fake.requests).toHaveLength(0);
    const notRequested = await client.listIdentities().catch((e: unknown) => e);
    expect(notRequested).toBeInstanceOf(MissingScopeError);
    expect((notRequested as Error).message).toContain('api.scopes');
    await client.close();
  });

  it('raises AuthError naming the fix when the credential is refused, without the secret', async () => {
    fake = await FakePlatform.start({ clientSecret: 'the-right-one' });
    fake.on('GET', '/orders', () => ({ json: { items: [] } }));
    const client = clientFor(fake, { clientSecret: 'canary-secret-0451' });
    const err = await client.listOrders().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toContain('TRADELOOP_CLIENT_SECRET');
    expect(String(err)).not.toContain('canary-secret-0451');
    expect(JSON.stringify(err)).not.toContain('canary-secret-0451');
    await client.close();
  });
});

describe('unsafe targets', () => {
  it('refuses the local development credential for a non-loopback host', () => {
    expect(() =>
      createApiClient({ apiUrl: 'https://api.sandbox.paxos.com/v2', tokenUrl: 'https://oauth.sandbox.paxos.com/oauth2/token', clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' }),
    ).toThrow(UnsafeTargetError);
    expect(() => createApiClient({ apiUrl: 'https://example.com/v2', clientId: 'x', clientSecret: 'y', localCredential: true })).toThrow(/127\.0\.0\.1/);
  });

  it('refuses plain http to non-loopback hosts and accepts it on loopback', async () => {
    expect(() => createApiClient({ apiUrl: 'http://api.sandbox.paxos.com/v2' })).toThrow(/https/);
    expect(() => createApiClient({ apiUrl: 'https://api.sandbox.paxos.com/v2', tokenUrl: 'http://oauth.example.com/token' })).toThrow(/tokenUrl must use https/);
    expect(() => createApiClient({ apiUrl: 'not a url' })).toThrow(/not a URL/);
    const ok = createApiClient({ apiUrl: 'http://localhost:9/v2', tokenUrl: 'http://127.0.0.1:9/oauth2/token', clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' });
    await ok.close();
  });
});
