import { request } from 'undici';

/** A parsed JSON body: tests check its shape with assertions (and the OpenAPI test with schemas). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies are checked by assertions, not by types
export type WireJson = any;

/** A response as the wire carries it: status, content type and the parsed JSON body. */
export interface RawResponse<T = WireJson> {
  readonly status: number;
  readonly contentType: string;
  readonly body: T;
}

/**
 * A tiny raw-HTTP client for end-to-end tests that must see the wire exactly (status codes, problem
 * bodies, response shapes) rather than the typed client's normalised view.
 */
export class SandboxHttp {
  constructor(readonly url: string) {}

  /** Gets a token with the client-credentials grant (urlencoded form). */
  async token(scopes?: readonly string[], clientId = 'tradeloop-local', clientSecret = 'tradeloop-local-secret'): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    if (scopes) form.set('scope', scopes.join(' '));
    const res = await this.send('POST', '/oauth2/token', { body: form.toString(), contentType: 'application/x-www-form-urlencoded' });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { access_token: string }).access_token;
  }

  get<T = WireJson>(path: string, token?: string): Promise<RawResponse<T>> {
    return this.send('GET', path, { token });
  }

  post<T = WireJson>(path: string, body: unknown, token?: string): Promise<RawResponse<T>> {
    return this.send('POST', path, { token, body: JSON.stringify(body), contentType: 'application/json' });
  }

  put<T = WireJson>(path: string, body: unknown, token?: string): Promise<RawResponse<T>> {
    return this.send('PUT', path, { token, body: body === undefined ? undefined : JSON.stringify(body), contentType: 'application/json' });
  }

  del<T = WireJson>(path: string, token?: string): Promise<RawResponse<T>> {
    return this.send('DELETE', path, { token });
  }

  async send<T = WireJson>(
    method: string,
    path: string,
    opts: { token?: string | undefined; body?: string | undefined; contentType?: string },
  ): Promise<RawResponse<T>> {
    const headers: Record<string, string> = {};
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined && opts.contentType !== undefined) headers['content-type'] = opts.contentType;
    const res = await request(this.url + path, { method: method as 'GET', headers, body: opts.body });
    const text = await res.body.text();
    const contentType = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, contentType, body: text === '' ? undefined : JSON.parse(text) };
  }
}
