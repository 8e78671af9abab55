import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import type { SecretSet } from '../../log/redact.js';
import { AuthError, type ApiError } from '../errors.js';
import { mapHttpError } from './error-mapper.js';
import { isJson } from './responses.js';
import type { RateLimiter } from './rate-limiter.js';
import type { Transport } from './transport.js';

/** A cached access token and what it is good for. */
export interface AccessToken {
  readonly value: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
  /** Granted scopes; undefined when the server did not say (then the requested ones are assumed). */
  readonly scopes: ReadonlySet<string> | undefined;
}

export interface TokenManagerOptions {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
  readonly clock: Clock;
  readonly transport: Transport;
  readonly limiter: RateLimiter;
  readonly secrets: SecretSet;
  readonly logger: Logger;
  /** Renew this long before expiry (capped at a tenth of the token's lifetime). */
  readonly refreshAheadMs: number;
  readonly userAgent: string;
}

/**
 * OAuth2 client credentials with a shared cache: one token for every caller, renewed ahead of
 * `expires_in`, and at most one token request in flight (the endpoint allows about 1 per second).
 * A burst of 401s invalidates the token they used once, so they share a single refresh.
 */
export class TokenManager {
  private current: AccessToken | undefined;
  private inflight: Promise<AccessToken> | undefined;
  private requests = 0;

  constructor(private readonly o: TokenManagerOptions) {
    o.secrets.add(o.clientSecret);
  }

  /** A valid token, from the cache when it is fresh enough. */
  /** The cached token while it is good (not due for renewal), without waiting; else undefined. */
  peek(): AccessToken | undefined {
    const t = this.current;
    return t && this.o.clock.now() < t.expiresAtMs - this.refreshAhead(t) ? t : undefined;
  }

  async get(signal?: AbortSignal): Promise<AccessToken> {
    const t = this.current;
    if (t && this.o.clock.now() < t.expiresAtMs - this.refreshAhead(t)) return t;
    if (!this.inflight) {
      this.inflight = this.fetch(signal).finally(() => {
        this.inflight = undefined;
      });
    }
    return this.inflight;
  }

  /** Drops `value` if it is still the cached token (a 401 answered a request made with it). */
  invalidate(value: string): void {
    if (this.current?.value === value) {
      this.o.secrets.delete(value);
      this.current = undefined;
    }
  }

  /** Token requests sent so far (for metrics and tests). */
  requestCount(): number {
    return this.requests;
  }

  private refreshAhead(t: AccessToken): number {
    return Math.min(this.o.refreshAheadMs, (t.expiresAtMs - t.issuedAtMs) / 10);
  }

  private async fetch(signal?: AbortSignal): Promise<AccessToken> {
    await this.o.limiter.acquire('token', 'high', signal);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.o.clientId,
      client_secret: this.o.clientSecret,
      scope: this.o.scopes.join(' '),
    });
    this.requests++;
    const started = this.o.clock.now();
    const res = await this.o.transport.send('OAuthToken', {
      method: 'POST',
      url: this.o.tokenUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': this.o.userAgent },
      body: form.toString(),
      signal,
    });
    if (res.status < 200 || res.status >= 300) throw this.failure(res.status, res.headers, res.text);
    const token = this.parse(res.text, started);
    this.o.secrets.add(token.value);
    if (this.current && this.current.value !== token.value) this.o.secrets.delete(this.current.value);
    this.current = token;
    this.warnMissingScopes(token);
    this.o.logger.debug({ expiresInMs: token.expiresAtMs - started }, 'access token obtained');
    return token;
  }

  private parse(text: string, started: number): AccessToken {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AuthError(this.wrongUrl('answered with a body that is not JSON'), { operation: 'OAuthToken' });
    }
    const r = (raw ?? {}) as Record<string, unknown>;
    if (typeof r.access_token !== 'string' || r.access_token === '') {
      throw new AuthError('the token endpoint answered without an access_token', { operation: 'OAuthToken' });
    }
    if (typeof r.token_type === 'string' && r.token_type.toLowerCase() !== 'bearer') {
      throw new AuthError(`the token endpoint issued a ${JSON.stringify(r.token_type)} token; only bearer tokens are supported`, { operation: 'OAuthToken' });
    }
    const expiresInS = typeof r.expires_in === 'number' && r.expires_in > 0 ? r.expires_in : 300;
    const scopes = typeof r.scope === 'string' ? new Set(r.scope.split(/\s+/).filter((s) => s !== '')) : undefined;
    return { value: r.access_token, issuedAtMs: started, expiresAtMs: started + expiresInS * 1000, scopes };
  }

  /**
   * 429 and 5xx keep their typed errors (retried like any call). Only 400/401/403 answered in JSON
   * (or empty) mean a refused credential; any other status (404, 405, 3xx …) or an HTML page means
   * the token URL most likely points somewhere else, and the error says which setting to fix.
   */
  private failure(status: number, headers: Readonly<Record<string, string | string[] | undefined>>, text: string): ApiError {
    const mapped = mapHttpError({ operation: 'OAuthToken', status, headers, text, nowMs: this.o.clock.now(), secrets: this.o.secrets });
    if (status === 429 || status >= 500) return mapped;
    const init = { operation: 'OAuthToken', status, requestId: mapped.requestId, problem: mapped.problem };
    const jsonOrEmpty = text.trim() === '' || isJson(text);
    if ((status === 400 || status === 401 || status === 403) && jsonOrEmpty) {
      return new AuthError(`the token endpoint refused the credential (HTTP ${status}): check TRADELOOP_CLIENT_ID, TRADELOOP_CLIENT_SECRET and api.scopes`, init);
    }
    const title = mapped.problem?.title === undefined ? '' : ` ${mapped.problem.title}`;
    const body = jsonOrEmpty ? '' : ' with a body that is not JSON';
    return new AuthError(this.wrongUrl(`answered HTTP ${status}${title}${body}`), init);
  }

  /** "the token request to <url> <what>: the token URL is likely wrong …", the URL without credentials or query. */
  private wrongUrl(what: string): string {
    return this.o.secrets.scrub(
      `the token request to ${safeUrl(this.o.tokenUrl)} ${what}: the token URL is likely wrong; set api.token_url in the config (or --token-url) to the platform's OAuth2 token endpoint, e.g. https://oauth.sandbox.paxos.com/oauth2/token`,
    );
  }

  private warnMissingScopes(token: AccessToken): void {
    if (!token.scopes) return;
    const missing = this.o.scopes.filter((s) => !token.scopes!.has(s));
    if (missing.length) this.o.logger.warn({ missing }, 'the token does not carry every requested scope; operations needing them will fail');
  }
}

/** Origin and path only: user info, query and fragment may carry credentials. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(the configured token URL)';
  }
}
