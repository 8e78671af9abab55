import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { createLogger } from '../../log/logger.js';
import { SecretSet } from '../../log/redact.js';
import { AuthError, RateLimitedError, ServerError } from '../errors.js';
import { RateLimiter } from './rate-limiter.js';
import { TokenManager } from './token-manager.js';
import { Transport } from './transport.js';

const SECRET = 'canary-secret-7731';

/** What the fake token endpoint answers next. */
interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
}

/**
 * A token endpoint on 127.0.0.1 answering whatever the test sets. The 404 problem echoes the form it
 * received (secret included), as a careless server might, so the scrubbing is exercised too.
 */
describe('TokenManager: what a failed token request says', () => {
  let server: Server;
  let base: string;
  let answer: Answer;
  let lastForm = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let form = '';
      req.on('data', (c: Buffer) => (form += c.toString('utf8')));
      req.on('end', () => {
        lastForm = form;
        const body = answer.body.replace('{form}', form);
        res.writeHead(answer.status, { 'content-type': answer.type, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** One token request to `path` answered with `a`; the error it raised. */
  async function failure(path: string, a: Answer): Promise<AuthError | Error> {
    answer = a;
    const clock = new TestClock(0);
    const transport = new Transport({ connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 });
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    const secrets = new SecretSet();
    const tokens = new TokenManager({
      tokenUrl: `${base}${path}`, clientId: 'client-1', clientSecret: SECRET, scopes: ['exchange:read_order'], clock, transport,
      limiter: new RateLimiter({ clock }), secrets, logger: createLogger({ level: 'error', destination: sink, secrets, pretty: false }),
      refreshAheadMs: 60_000, userAgent: 'tradeloop-test',
    });
    try {
      const err = await tokens.get().then(() => new Error('a token was issued'), (e: unknown) => e as Error);
      expect(lastForm).toContain(SECRET);
      expect(err.message).not.toContain(SECRET);
      expect(JSON.stringify(err)).not.toContain(SECRET);
      return err;
    } finally {
      await transport.close();
    }
  }

  const json = (status: number, value: unknown): Answer => ({ status, type: 'application/json', body: JSON.stringify(value) });
  const html = (status: number): Answer => ({ status, type: 'text/html', body: `<html><body><h1>${status}</h1></body></html>` });

  it('404: says the token URL is likely wrong, names it and the setting, not the credential', async () => {
    const err = await failure('/oauth2/nowhere', json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no route for POST /oauth2/nowhere ({form})' }));
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toMatchObject({ status: 404, operation: 'OAuthToken' });
    expect(err.message).toContain(`the token request to ${base}/oauth2/nowhere answered HTTP 404 Not Found: the token URL is likely wrong`);
    expect(err.message).toContain('api.token_url');
    expect(err.message).toContain('--token-url');
    expect(err.message).not.toContain('TRADELOOP_CLIENT_SECRET');
    expect((err as AuthError).problem?.detail).toContain('/oauth2/nowhere');
  });

  it('405 with an HTML page, and 200 with an HTML page: wrong token URL, body not JSON', async () => {
    const e405 = await failure('/login', html(405));
    expect(e405.message).toMatch(/^the token request to http:\/\/127\.0\.0\.1:\d+\/login answered HTTP 405 with a body that is not JSON: the token URL is likely wrong/);
    expect(e405).toMatchObject({ status: 405 });
    const e200 = await failure('/', html(200));
    expect(e200).toBeInstanceOf(AuthError);
    expect(e200.message).toMatch(/^the token request to http:\/\/127\.0\.0\.1:\d+\/ answered with a body that is not JSON: the token URL is likely wrong; set api\.token_url/);
  });

  it('leaves the query of the token URL out of the message', async () => {
    const err = await failure('/oauth/token-wrong?api_key=canary-query-1188', html(404));
    expect(err.message).toContain(`${base}/oauth/token-wrong answered HTTP 404`);
    expect(err.message).not.toContain('canary-query-1188');
  });

  it.each([400, 401, 403])('%i in JSON: the credential was refused; check the client id, secret and scopes', async (status) => {
    const err = await failure('/oauth2/token', json(status, { error: 'invalid_client' }));
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toMatchObject({ status });
    expect(err.message).toBe(`the token endpoint refused the credential (HTTP ${status}): check TRADELOOP_CLIENT_ID, TRADELOOP_CLIENT_SECRET and api.scopes`);
  });

  it('403 as an HTML page (a gateway, not the token endpoint): wrong token URL', async () => {
    const err = await failure('/oauth2/token', html(403));
    expect(err.message).toContain('answered HTTP 403 with a body that is not JSON: the token URL is likely wrong');
  });

  it('429 and 5xx keep their typed errors', async () => {
    expect(await failure('/oauth2/token', json(503, { title: 'Service Unavailable', status: 503 }))).toBeInstanceOf(ServerError);
    expect(await failure('/oauth2/token', json(429, { title: 'Too Many Requests', status: 429 }))).toBeInstanceOf(RateLimitedError);
  });
});
