import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';

describe('sandbox auth and errors on the wire', () => {
  let sb: TestSandbox;

  beforeAll(async () => {
    sb = await startTestSandbox({
      tokenLifetimeSec: 60,
      clients: [
        { clientId: 'tradeloop-local', clientSecret: 'tradeloop-local-secret' },
        { clientId: 'reader', clientSecret: 'reader-secret', scopes: ['funding:read_profile'] },
      ],
    });
  });
  afterAll(() => sb.close());

  it('issues tokens from urlencoded forms with the requested scopes the credential has', async () => {
    const form =
      'grant_type=client_credentials&client_id=reader&client_secret=reader-secret&scope=funding%3Aread_profile%20exchange%3Awrite_order';
    const res = await sb.http.send('POST', '/oauth2/token', { body: form, contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ expires_in: 60, scope: 'funding:read_profile', token_type: 'bearer' });
    expect(typeof res.body.access_token).toBe('string');
  });

  it('issues tokens from multipart forms and grants every configured scope when none is asked', async () => {
    const fd = new FormData();
    fd.set('grant_type', 'client_credentials');
    fd.set('client_id', 'tradeloop-local');
    fd.set('client_secret', 'tradeloop-local-secret');
    const encoded = new Response(fd);
    const body = await encoded.text();
    const res = await sb.http.send('POST', '/oauth2/token', { body, contentType: encoded.headers.get('content-type')! });
    expect(res.status).toBe(200);
    expect(res.body.scope.split(' ')).toEqual(
      expect.arrayContaining(['exchange:write_order', 'funding:read_profile', 'exchange:historical_prices']),
    );
  });

  it('accepts HTTP Basic client authentication (RFC 6749 §2.3.1) and refuses two methods in one request', async () => {
    const basic = (id: string, secret: string): string =>
      `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const post = async (authorization: string, form: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const res = await fetch(`${sb.handle.url}/oauth2/token`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const ok = await post(basic('reader', 'reader-secret'), 'grant_type=client_credentials&scope=funding%3Aread_profile');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ scope: 'funding:read_profile', token_type: 'bearer' });
    expect((await sb.http.get('/v2/profiles', ok.body.access_token as string)).status).toBe(200);
    expect((await post(basic('reader', 'wrong'), 'grant_type=client_credentials')).status).toBe(401);
    const twice = await post(
      basic('reader', 'reader-secret'),
      'grant_type=client_credentials&client_id=reader&client_secret=reader-secret',
    );
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toMatch(/^client_secret: the client authenticated twice/);
    expect((await post('Basic !!!', 'grant_type=client_credentials')).status).toBe(401);
  });

  it('refuses bad credentials with a 401 problem that does not echo the secret', async () => {
    const res = await sb.http.send('POST', '/oauth2/token', {
      body: 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=wrong-guess',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(401);
    expect(res.contentType).toContain('application/problem+json');
    expect(JSON.stringify(res.body)).not.toContain('wrong-guess');
    const grant = await sb.http.send('POST', '/oauth2/token', {
      body: 'grant_type=password',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(grant.status).toBe(400);
    expect(grant.body.detail).toContain('grant_type');
  });

  it('answers 401 without a valid token and 403 naming the missing scope', async () => {
    const none = await sb.http.get('/v2/profiles');
    expect(none).toMatchObject({ status: 401, body: { title: 'Unauthorized', detail: 'no authorization header set' } });
    const bogus = await sb.http.get('/v2/profiles', 'not-a-token');
    expect(bogus.status).toBe(401);
    const reader = await sb.http.token(undefined, 'reader', 'reader-secret');
    expect((await sb.http.get('/v2/profiles', reader)).status).toBe(200);
    const denied = await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '10' },
      reader,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("insufficient scopes: found 'funding:read_profile', required one of '[exchange:write_order]'");
  });

  it('expires tokens on the simulated clock', async () => {
    const token = await sb.http.token();
    expect((await sb.http.get('/v2/orders', token)).status).toBe(200);
    sb.advance(60_000);
    expect((await sb.http.get('/v2/orders', token)).status).toBe(401);
  });

  it('issues tokens for 3599 s by default, valid until then on the simulated clock', async () => {
    const plain = await startTestSandbox();
    try {
      const form = 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=tradeloop-local-secret';
      const res = await plain.http.send('POST', '/oauth2/token', { body: form, contentType: 'application/x-www-form-urlencoded' });
      expect(res.status).toBe(200);
      expect(res.body.expires_in).toBe(3599);
      const token = res.body.access_token as string;
      plain.advance(3_598_999);
      expect((await plain.http.get('/v2/orders', token)).status).toBe(200);
      plain.advance(1);
      expect((await plain.http.get('/v2/orders', token)).status).toBe(401);
    } finally {
      await plain.close();
    }
  });

  it('serves market data without a token but historical prices only with their scope', async () => {
    expect((await sb.http.get('/v2/markets/BTCUSD/order-book')).status).toBe(200);
    expect((await sb.http.get('/v2/markets/BTCUSD/historical-prices?increment=ONE_HOUR')).status).toBe(401);
    const reader = await sb.http.token(undefined, 'reader', 'reader-secret');
    const denied = await sb.http.get('/v2/markets/BTCUSD/historical-prices?increment=ONE_HOUR', reader);
    expect(denied.body.detail).toContain("required one of '[exchange:historical_prices]'");
  });

  it('names the field and the fix in 400s, and answers unknown paths and methods', async () => {
    const token = await sb.http.token();
    const bad = await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '60000', base_amount: '-1' },
      token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^base_amount: /);
    const tif = await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '10', time_in_force: 'GTC' },
      token,
    );
    expect(tif.body.detail).toContain('time_in_force');
    const notJson = await sb.http.send('POST', '/v2/profiles', { token, body: '{nope', contentType: 'application/json' });
    expect(notJson.status).toBe(400);
    expect((await sb.http.get('/v2/nowhere', token)).status).toBe(404);
    expect((await sb.http.del('/v2/profiles', token)).status).toBe(405);
    const precision = await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '60000.001', base_amount: '1' },
      token,
    );
    expect(precision).toMatchObject({ status: 400, body: { type: 'https://developer.paxos.com/docs/v2/problems/exceed-precision' } });
  });
});
