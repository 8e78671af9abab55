/**
 * The operations server of a running bot: the dashboard page, the control API and /metrics on one
 * HTTP server bound to the configured address (127.0.0.1 by default). Every data, control and metrics
 * request needs the bearer token; the page and its script carry no data and need none (a browser
 * cannot send a header on navigation), they read the token from the URL's fragment, which never
 * leaves the browser. Requests whose Host or Origin is not the bound address are refused first.
 */
import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LiveClock } from '../clock/index.js';
import { isWildcardHost } from '../config/index.js';
import { InputError } from '../core/index.js';
import type { Logger } from '../log/index.js';
import { allowedHosts, hasToken, hostForUrl, refusedOrigin } from './auth.js';
import { ACTIONS, Control, type ActionName } from './control.js';
import { DASHBOARD_ASSETS, type Asset } from './dashboard/assets.js';
import { EventStream } from './event-stream.js';
import { LOG_LEVELS, logLevelOf, type LogLevel } from './log-tail.js';
import type { RunMetrics } from './metrics.js';
import type { OpsState } from './ops-state.js';
import type { OpsRun } from './run-port.js';

export interface OpsServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string;
  readonly run: OpsRun;
  readonly state: OpsState;
  readonly metrics: RunMetrics;
  readonly log?: Logger;
  /** Timers for the dashboard's refresh (default: wall time; the page is for people). */
  readonly timers?: { setTimeout(fn: () => void, ms: number): { cancel(): void } };
  /** Resolves `host` to the address bound, as listen would (default: the system's resolver). */
  readonly resolve?: (host: string) => Promise<{ readonly address: string }>;
}

export interface OpsServer {
  /** The dashboard's address, without the token. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4_096;

/** GET endpoints of the control API and what each returns (also served at GET /api); the chat bot reads through them too. */
export const READS: Readonly<Record<string, { readonly about: string; readonly read: (s: OpsState, query: URLSearchParams) => unknown }>> =
  {
    '/api/status': {
      about: 'equity, P&L, trading state (running, halted, kill-switch), counters, denials, markets, stopped strategies, outages',
      read: (s) => s.status(),
    },
    '/api/strategies': { about: 'each strategy: markets, params, running or stopped, P&L, positions', read: (s) => s.strategies() },
    '/api/orders': { about: 'open orders (with their age) and recent fills', read: (s) => s.orders() },
    '/api/positions': { about: 'balances (with transfer limits left), positions per strategy, round trips', read: (s) => s.positions() },
    '/api/decisions': { about: 'the latest risk decisions, newest first, with denial codes and reasons', read: (s) => s.decisionList() },
    '/api/reports': { about: 'the latest execution reports, newest first', read: (s) => s.reportList() },
    '/api/quotes': { about: 'held-rate quotes per market with their time left, and quote executions', read: (s) => s.quotes() },
    '/api/risk': { about: 'the kill switch and decisions by code', read: (s) => s.risk() },
    '/api/health': { about: 'stream ages, the request budget, 429s, the circuit breaker', read: (s) => s.health() },
    '/api/daily': {
      about:
        "realized P&L, fees and fills per strategy and UTC day, from the journal's fills: { days: [{ date, strategy, quote, realized, fees, trades }] }",
      read: (s) => s.daily(),
    },
    '/api/log': {
      about:
        "the run's last log records, newest first, secrets masked; ?level=warn keeps warn and above (trace, debug, info, warn, error, fatal)",
      read: (s, q) => {
        const level = logLevelOf(q.get('level'));
        return (LOG_LEVELS as readonly string[]).includes(level) ? s.log(level as LogLevel) : new Refusal(level);
      },
    },
    '/api/charts': {
      about:
        "each market's candles of its shortest declared timeframe ({ market, timeframe, rows: [[time, open, high, low, close, volume]] }, the latest 300) and the strategies' plotted series (the latest 1,000 points each)",
      read: (s) => s.charts(),
    },
    '/api/config': { about: "the run's config, secrets and tokens hidden", read: (s) => s.config() },
    '/api/snapshot': { about: 'everything the dashboard draws, in one object', read: (s) => s.snapshot() },
  };

/** A read's answer when its query is refused (400, with the message). */
class Refusal {
  constructor(readonly message: string) {}
}

export async function startOpsServer(o: OpsServerOptions): Promise<OpsServer> {
  const control = new Control(o.run, o.state, o.log);
  const events = new EventStream(o.run, o.state, o.timers ?? new LiveClock({ unref: true }));
  let hosts: ReadonlySet<string> = new Set();
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.log?.error({ err: e }, 'operations server: request failed');
      if (!res.headersSent) json(res, 500, { error: "internal error (see the run's log)" });
      else res.end();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = requestTarget(req.url ?? '/');
    if (target === undefined) return json(res, 400, { error: 'bad request target: send a path such as /api/status' });
    const refused =
      refusedOrigin(req.headers, hosts) ??
      (target.host !== undefined && !hosts.has(target.host)
        ? `${target.host} in the request line is not this server's address`
        : undefined);
    if (refused) return json(res, 403, { error: `refused: ${refused}` });
    const path = target.path;
    const asset = DASHBOARD_ASSETS[path];
    if (asset) {
      if (method(req, res, 'GET')) serveAsset(res, asset);
      return;
    }
    if (path !== '/metrics' && path !== '/api' && !path.startsWith('/api/'))
      return json(res, 404, { error: `no such page: ${path} (the dashboard is at /, the API at /api)` });
    if (!hasToken(req.headers, o.token)) {
      res.setHeader('www-authenticate', 'Bearer realm="tradeloop"');
      return json(res, 401, {
        error:
          'a bearer token is required: Authorization: Bearer <TRADELOOP_UI_TOKEN, or the token the run printed with the dashboard URL>',
      });
    }
    if (path === '/metrics') {
      if (!method(req, res, 'GET')) return;
      res.writeHead(200, { 'content-type': o.metrics.contentType, 'cache-control': 'no-store' });
      res.end(await o.metrics.text());
      return;
    }
    if (path === '/api') {
      if (method(req, res, 'GET')) json(res, 200, apiIndex());
      return;
    }
    if (path === '/api/events') {
      if (method(req, res, 'GET')) events.open(res);
      return;
    }
    const read = READS[path];
    if (read) {
      if (!method(req, res, 'GET')) return;
      const answer = read.read(o.state, target.query);
      if (answer instanceof Refusal) json(res, 400, { error: answer.message });
      else json(res, 200, answer);
      return;
    }
    const action = path.slice('/api/'.length) as ActionName;
    if (!ACTIONS.includes(action)) return json(res, 404, { error: `no such endpoint: ${path} (GET /api lists them)` });
    if (!method(req, res, 'POST')) return;
    const body = await readJson(req);
    if (typeof body === 'string') return json(res, 400, { error: body });
    const result = await control.act(action, body);
    json(res, result.status, result.body);
  }

  // the address is judged as the system resolves it (a name may stand for a wildcard), then bound as resolved
  const { address } = await (o.resolve ?? ((h: string) => lookup(h)))(o.host);
  if (isWildcardHost(address))
    throw new InputError(
      'ui.host',
      `${JSON.stringify(o.host)} resolves to ${address}, which listens on every interface: bind one address (e.g. 127.0.0.1, the default, or this machine's LAN address); Host checks need the address clients use`,
    );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(o.host, port);
  const url = `http://${hostForUrl(o.host)}:${port}/`;
  return {
    url,
    port,
    close: async () => {
      events.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The path of a request line's target, and its authority when it came in absolute form
 * (`GET http://host:port/path`, which the authority then names instead of the Host header), or
 * undefined when it is neither form (`*`, `host:port`, or an address that does not parse, such as
 * `http://[`): a bad request, answered 400. An origin-form target is read as a path as it stands:
 * `//x` is the path `//x`, never a network-path reference to a host x.
 */
function requestTarget(raw: string): { readonly path: string; readonly query: URLSearchParams; readonly host?: string } | undefined {
  try {
    if (raw.startsWith('/')) {
      const url = new URL(`http://x${raw}`);
      return { path: url.pathname, query: url.searchParams };
    }
    if (!/^https?:\/\//i.test(raw)) return undefined;
    const url = new URL(raw);
    return { path: url.pathname, query: url.searchParams, host: url.host.toLowerCase() };
  } catch {
    return undefined;
  }
}

function apiIndex(): Record<string, unknown> {
  return {
    auth: 'Authorization: Bearer <token> on every request below',
    reads: Object.fromEntries(Object.entries(READS).map(([p, r]) => [`GET ${p}`, r.about])),
    events: { 'GET /api/events': 'server-sent events: history, snapshot (each second), equity, decision, report' },
    actions: {
      'POST /api/halt': 'stop new intents (open orders stay); body {"reason": "…"} optional',
      'POST /api/resume':
        'lift an operator\'s halt; a kill-switch trip needs {"kill_switch": true}; with {"strategy": "NAME"}, lift that strategy\'s pause only',
      'POST /api/pause':
        'pause one strategy: {"strategy": "NAME", "reason": "…"}; its new intents are denied PAUSED, its open orders and position stay (kept across a restart)',
      'POST /api/exit':
        'sell one strategy\'s own position at market, through the gate: {"strategy": "NAME", "market": "BTCUSD"} (market optional)',
      'POST /api/cancel-all': "cancel every open order at the venue (the kernel's cancel-everything)",
      'POST /api/stop': 'exit cleanly, as Ctrl-C does',
    },
    metrics: { 'GET /metrics': 'Prometheus text format' },
  };
}

function method(req: IncomingMessage, res: ServerResponse, want: 'GET' | 'POST'): boolean {
  if (req.method === want || (want === 'GET' && req.method === 'HEAD')) return true;
  res.setHeader('allow', want);
  json(res, 405, { error: `${req.url ?? ''} takes ${want}` });
  return false;
}

function serveAsset(res: ServerResponse, asset: Asset): void {
  res.writeHead(200, {
    'content-type': asset.type,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
  });
  res.end(asset.body());
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(JSON.stringify(body));
}

/** The JSON object of a POST (empty body: {}), or why it is refused. Only application/json is taken. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | string> {
  let size = 0;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return `the body is over ${MAX_BODY_BYTES} bytes`;
      chunks.push(chunk);
    }
  } catch {
    // the client went away mid-body (or sent a broken chunked body): nothing was done
    return 'the body ended before it was complete';
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return 'send the body as application/json (or no body)';
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return 'the body must be a JSON object, e.g. {"reason": "checking fills"}';
    return parsed as Record<string, unknown>;
  } catch {
    return 'the body is not valid JSON';
  }
}
