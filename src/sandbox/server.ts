import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Clock } from '../clock/clock.js';
import { LiveClock } from '../clock/live-clock.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, isLoopbackHost } from '../config/environment.js';
import { InputError } from '../core/errors.js';
import { type Logger, silentLogger } from '../log/logger.js';
import { type SimError } from '../sim/errors.js';
import { SimPlatform, type SimOptions } from '../sim/sim.js';
import { type SandboxClient, TokenIssuer } from './auth.js';
import { readJsonObject, sendJson } from './http-io.js';
import { problemFromError } from './problem.js';
import { Query } from './query.js';
import { Router } from './router.js';
import { ROUTES } from './routes/index.js';
import { tokenEndpoint } from './routes/oauth.js';
import { DEFAULT_SHAPES, type WireShapes, wireOrder, wireProfile, wireQuoteExecution, wireTransfer } from './wire.js';

export interface SandboxOptions {
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Loopback only (default 127.0.0.1). */
  readonly host?: string;
  /** Simulated time: LiveClock (default), ScaledClock for accelerated time, TestClock in tests. */
  readonly clock?: Clock;
  readonly seed?: number;
  /** Accepted credentials (default: the local development credential with every scope). */
  readonly clients?: readonly SandboxClient[];
  /** `expires_in` of issued tokens, seconds of simulated time (default 3599). */
  readonly tokenLifetimeSec?: number;
  /** Initial funds of the default profile (default USD 100000). */
  readonly funding?: Readonly<Record<string, string>>;
  readonly logger?: Logger;
  /** Further sim settings: fees, rules, tickMs, replay, historyDays. */
  readonly sim?: Omit<SimOptions, 'clock' | 'seed' | 'funding'>;
  readonly shapes?: Partial<WireShapes>;
}

/** A running sandbox. `sim` is the sandbox's own truth, readable by tests without the API. */
export interface SandboxHandle {
  readonly url: string;
  readonly apiUrl: string;
  readonly tokenUrl: string;
  readonly port: number;
  readonly sim: SimPlatform;
  close(): Promise<void>;
}

/**
 * Starts the local sandbox: the simulated platform served over HTTP on a loopback address with the
 * platform's wire contract (`/v2/...` and `POST /oauth2/token`).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new InputError('host', `the sandbox listens on loopback only: use 127.0.0.1, not ${host}`);
  const clock = options.clock ?? new LiveClock();
  const logger = (options.logger ?? silentLogger()).child({ component: 'sandbox' });
  const sim = new SimPlatform({ ...options.sim, clock, seed: options.seed ?? 42, funding: options.funding ?? { USD: '100000' } });
  const issuer = new TokenIssuer(options.clients ?? [{ clientId: LOCAL_CLIENT_ID, clientSecret: LOCAL_CLIENT_SECRET }], clock, options.tokenLifetimeSec ?? 3599);
  const app: App = { sim, issuer, router: new Router(ROUTES), shapes: { ...DEFAULT_SHAPES, ...options.shapes }, logger };
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => void handle(app, req, res));
  await listen(server, options.port ?? 0, host);
  sim.start();
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  logger.info({ url, seed: sim.seed }, 'sandbox listening');
  return { url, apiUrl: `${url}/v2`, tokenUrl: `${url}/oauth2/token`, port, sim, close: () => close(server, sim) };
}

interface App {
  readonly sim: SimPlatform;
  readonly issuer: TokenIssuer;
  readonly router: Router;
  readonly shapes: WireShapes;
  readonly logger: Logger;
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const method = req.method ?? 'GET';
  try {
    if (path === '/oauth2/token' && method === 'POST') {
      sendJson(res, 200, await tokenEndpoint(req, app.issuer));
      return;
    }
    const { route, params } = app.router.match(method, path);
    if (route.scope !== null) app.issuer.authorize(req.headers.authorization, route.scope);
    app.sim.advanceTo(app.sim.clock.now());
    const query = new Query(new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
    const result = await route.handler({ sim: app.sim, params, query, req, body: () => readJsonObject(req), shapes: app.shapes });
    sendJson(res, 200, result);
  } catch (error) {
    const body = problemFromError(error, (e) => renderExisting(app.sim, e));
    if (body.status >= 500) app.logger.error({ err: error, method, path }, 'request failed');
    else app.logger.debug({ method, path, status: body.status }, 'request refused');
    if (!res.headersSent) sendJson(res, body.status, body, 'application/problem+json');
    else res.end();
  }
}

function renderExisting(sim: SimPlatform, e: SimError): unknown {
  const existing = e.existing;
  if (existing === undefined) return undefined;
  switch (existing.kind) {
    case 'profile':
      return wireProfile(sim.profiles.get(existing.id, true));
    case 'transfer':
      return wireTransfer(sim.getTransfer(existing.id));
    case 'quote-execution': {
      const x = sim.quoteExecutions().find((q) => q.id === existing.id);
      return x === undefined ? undefined : wireQuoteExecution(x);
    }
    case 'order': {
      const order = sim.orders().find((o) => o.id === existing.id);
      return order === undefined ? undefined : wireOrder(order);
    }
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server, sim: SimPlatform): Promise<void> {
  sim.stop();
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}
