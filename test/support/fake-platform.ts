/**
 * A small scriptable platform on 127.0.0.1 (port 0) for client tests: a real HTTP server with an
 * OAuth2 token endpoint, bearer-token checks, routes registered per test, and replies that can
 * answer, fail, or drop the connection after doing their work (to lose a committed write's reply).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  readonly method: string;
  /** Path after `/v2`, e.g. `/markets/BTCUSD/order-book`. */
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  /** The raw query string as received (without `?`). */
  readonly rawQuery: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly text: string;
  readonly body: unknown;
}

export type Reply =
  | { readonly status?: number; readonly json?: unknown; readonly text?: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly destroy: true };

export type Handler = (req: FakeRequest) => Reply | Promise<Reply>;

interface Route {
  readonly method: string;
  readonly segments: readonly string[];
  readonly handler: Handler;
  readonly public: boolean;
}

export interface FakePlatformOptions {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly expiresInS?: number;
  /** Scope string the token endpoint grants; default: whatever was requested. */
  readonly grantedScope?: string;
}

/** Builds a problem+json reply. */
export function problem(status: number, title: string, extra: { type?: string; detail?: string; meta?: unknown } = {}): Reply {
  return {
    status,
    json: { type: extra.type ?? 'about:blank', title, status, detail: extra.detail, meta: extra.meta },
    headers: { 'content-type': 'application/problem+json' },
  };
}

export class FakePlatform {
  readonly requests: FakeRequest[] = [];
  readonly tokenForms: URLSearchParams[] = [];
  private readonly routes: Route[] = [];
  private readonly validTokens = new Set<string>();
  private tokenSeq = 0;
  /** Next replies of the token endpoint, overriding the normal grant (for failure tests). */
  readonly tokenReplies: Reply[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly options: FakePlatformOptions,
  ) {}

  /** Starts a server on 127.0.0.1 with a free port. */
  static async start(options: FakePlatformOptions = {}): Promise<FakePlatform> {
    const holder: { fake?: FakePlatform } = {};
    const server = createServer((req, res) => {
      void holder.fake!.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    holder.fake = new FakePlatform(server, `http://127.0.0.1:${port}`, options);
    return holder.fake;
  }

  get baseUrl(): string {
    return `${this.origin}/v2`;
  }

  get tokenUrl(): string {
    return `${this.origin}/oauth2/token`;
  }

  get tokenRequests(): number {
    return this.tokenForms.length;
  }

  /** Registers a route; `pattern` is relative to /v2 with `:name` segments. */
  on(method: string, pattern: string, handler: Handler, opts: { public?: boolean } = {}): this {
    this.routes.unshift({ method, segments: pattern.split('/').filter(Boolean), handler, public: opts.public ?? false });
    return this;
  }

  /** Replies in order, one per request; the last one repeats. */
  sequence(method: string, pattern: string, replies: readonly Reply[], opts: { public?: boolean } = {}): this {
    let i = 0;
    return this.on(method, pattern, () => replies[Math.min(i++, replies.length - 1)]!, opts);
  }

  /** Makes every issued token invalid (the next API calls get 401). */
  revokeTokens(): void {
    this.validTokens.clear();
  }

  /** API requests (not token requests) for `method path`. */
  requestsTo(method: string, path: string): FakeRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname === '/oauth2/token' && req.method === 'POST') {
      return this.send(res, this.token(text));
    }
    if (!url.pathname.startsWith('/v2/')) return this.send(res, problem(404, 'Not Found'));
    const path = url.pathname.slice(3);
    const rawQuery = url.search.replace(/^\?/, '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const match = this.match(req.method ?? 'GET', path);
    const fr: FakeRequest = {
      method: req.method ?? 'GET',
      path,
      params: match?.params ?? {},
      rawQuery,
      query: url.searchParams,
      headers: req.headers,
      text,
      body,
    };
    this.requests.push(fr);
    if (!match) return this.send(res, problem(404, 'Not Found', { detail: `no route ${req.method} ${path}` }));
    if (!match.route.public && !this.authorised(req.headers.authorization)) {
      return this.send(res, problem(401, 'Unauthorized', { detail: 'no authorization header set' }));
    }
    try {
      this.send(res, await match.route.handler(fr));
    } catch (err) {
      this.send(res, problem(500, 'Internal Server Error', { detail: String(err) }));
    }
  }

  private token(text: string): Reply {
    const form = new URLSearchParams(text);
    this.tokenForms.push(form);
    const scripted = this.tokenReplies.shift();
    if (scripted) return scripted;
    const id = this.options.clientId ?? 'test-client';
    const secret = this.options.clientSecret ?? 'test-secret';
    if (form.get('grant_type') !== 'client_credentials' || form.get('client_id') !== id || form.get('client_secret') !== secret) {
      return { status: 401, json: { error: 'invalid_client' } };
    }
    const token = `tok-${++this.tokenSeq}-${'x'.repeat(8)}`;
    this.validTokens.add(token);
    return {
      status: 200,
      json: {
        access_token: token,
        expires_in: this.options.expiresInS ?? 3599,
        scope: this.options.grantedScope ?? form.get('scope') ?? '',
        token_type: 'bearer',
      },
    };
  }

  private authorised(header: string | undefined): boolean {
    const m = /^Bearer (.+)$/.exec(header ?? '');
    return m !== null && this.validTokens.has(m[1]!);
  }

  private match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    const segs = path.split('/').filter(Boolean);
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== segs.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((s, i) => {
        if (s.startsWith(':')) {
          params[s.slice(1)] = decodeURIComponent(segs[i]!);
          return true;
        }
        return s === segs[i];
      });
      if (ok) return { route, params };
    }
    return undefined;
  }

  private send(res: ServerResponse, reply: Reply): void {
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(reply.headers ?? {}) };
    const payload = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
    res.writeHead(reply.status ?? 200, headers);
    res.end(payload);
  }
}
