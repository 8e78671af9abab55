import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Clock } from '../clock/clock.js';
import { LiveClock } from '../clock/live-clock.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, isLoopbackHost } from '../config/environment.js';
import { InputError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { type Logger, silentLogger } from '../log/logger.js';
import { type SimError } from '../sim/errors.js';
import { SimPlatform, type SimOptions } from '../sim/sim.js';
import { type SandboxClient, TokenIssuer } from './auth.js';
import { applyFaultBefore, sendProblem, sendResult } from './fault-io.js';
import { FaultInjector, type FaultSettings, describeFaults } from './faults.js';
import { readJsonObject } from './http-io.js';
import { problem, problemFromError } from './problem.js';
import { Query } from './query.js';
import { SandboxRateLimiter, type RateLimitSettings } from './rate-limits.js';
import { Router } from './router.js';
import { ROUTES } from './routes/index.js';
import { tokenEndpoint } from './routes/oauth.js';
import { SandboxState } from './state-file.js';
import { hashLabel, mix32 } from '../sim/hash.js';
import { PRIMARY_ENTITY } from '../sim/owners.js';
import { renderPlatformRecord } from './wire-platform.js';
import { type SandboxTruth, sandboxTruth } from './truth.js';
import {
  DEFAULT_SHAPES,
  type ShapeMode,
  type WireShapes,
  shapesOf,
  wireOrder,
  wireProfile,
  wireQuoteExecution,
  wireTransfer,
} from './wire.js';

/** The loopback-only admin path that serves the sandbox's truth (when `truthApi` is on). */
export const TRUTH_PATH = '/__sandbox/truth';

export interface SandboxOptions {
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Loopback only (default 127.0.0.1). */
  readonly host?: string;
  /** Simulated time: LiveClock (default), ScaledClock for accelerated time, TestClock in tests. */
  readonly clock?: Clock;
  /** Real time for injected latency, rate-limit windows and periodic state saves (default LiveClock). */
  readonly wallClock?: Clock;
  readonly seed?: number;
  /** Accepted credentials (default: the local development credential with every scope). */
  readonly clients?: readonly SandboxClient[];
  /** `expires_in` of issued tokens, seconds of simulated time (default 3599). */
  readonly tokenLifetimeSec?: number;
  /** Initial funds of the default profile (default USD 100000); ignored when state is restored. */
  readonly funding?: Readonly<Record<string, string>>;
  readonly logger?: Logger;
  /**
   * Further sim settings: fees, rules (e.g. `rules.submitDelayMs`, the order-entry delay), tickMs,
   * replay, historyDays, quotes, transfer limits.
   */
  readonly sim?: Omit<SimOptions, 'clock' | 'seed' | 'funding' | 'restore'>;
  /**
   * Response shapes where the spec's schemas and examples disagree: `'schema'` (default) or
   * `'examples'`, or the single switches.
   */
  readonly shapes?: ShapeMode | Partial<WireShapes>;
  /** Fault injection (off by default); more rules can be added at run time through `handle.faults`. */
  readonly faults?: FaultSettings;
  /** The platform's rate limits (off by default). */
  readonly rateLimits?: RateLimitSettings;
  /**
   * State file, restored at start when it exists. A `.json` path is a whole snapshot saved
   * periodically and on close; any other path is a SQLite file to which every change is saved
   * before the sandbox answers (see SandboxState).
   */
  readonly stateFile?: string;
  /**
   * Instance id of a new world (a restored one keeps its own): mixed into every id the sandbox
   * issues. Default: derived from the wall clock and the seed; composition roots pass random bytes.
   */
  readonly instanceId?: string;
  /** Period of snapshot saves of a `.json` state file (default 10 000 ms of wall time; 0 = only on close). */
  readonly stateIntervalMs?: number;
  /** Serve `GET /__sandbox/truth` to loopback callers (default off). */
  readonly truthApi?: boolean;
}

/** A running sandbox. `sim` and `truth()` are the sandbox's own truth, readable without the API. */
export interface SandboxHandle {
  readonly url: string;
  readonly apiUrl: string;
  readonly tokenUrl: string;
  readonly port: number;
  readonly sim: SimPlatform;
  /** The fault injector: add rules at run time (e.g. commit-drop on the next CreateOrder only). */
  readonly faults: FaultInjector;
  /** One line describing the active faults (printed at start). */
  readonly faultSummary: string;
  /** Whether the state came from `stateFile`. */
  readonly restored: boolean;
  /**
   * The world's instance id, made at its first start and kept in its state: ids it issues never
   * repeat another world's, and a journal can tell this world from a new one with the same seed.
   * Also sent as the `x-sandbox-instance` header of every answer and in the truth.
   */
  readonly instanceId: string;
  /** Every order, execution, quote execution, transfer and balance, as JSON. */
  truth(): SandboxTruth;
  /** Writes the state file now (no-op without `stateFile`); false when the write failed. */
  saveState(): boolean;
  /** Revokes every issued access token (tests: a burst of 401s); returns how many there were. */
  revokeTokens(): number;
  close(): Promise<void>;
}

interface App {
  readonly sim: SimPlatform;
  readonly issuer: TokenIssuer;
  readonly router: Router;
  readonly shapes: WireShapes;
  readonly logger: Logger;
  readonly faults: FaultInjector;
  readonly limiter: SandboxRateLimiter | undefined;
  readonly wallClock: Clock;
  readonly truthApi: boolean;
  readonly state: SandboxState | undefined;
  readonly instanceId: string;
}

/**
 * Starts the local sandbox: the simulated platform served over HTTP on a loopback address with the
 * platform's wire contract (`/v2/...` and `POST /oauth2/token`), optionally with rate limits,
 * injected faults and a state file.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new InputError('host', `the sandbox listens on loopback only: use 127.0.0.1, not ${host}`);
  const clock = options.clock ?? new LiveClock();
  const wallClock = options.wallClock ?? new LiveClock();
  const logger = (options.logger ?? silentLogger()).child({ component: 'sandbox' });
  const state = options.stateFile === undefined ? undefined : new SandboxState(options.stateFile);
  const restore = state?.load();
  const seed = options.seed ?? 42;
  const instanceId = options.instanceId ?? derivedInstanceId(wallClock, seed);
  const sim = new SimPlatform({
    ...options.sim,
    clock,
    seed,
    instanceId,
    funding: options.funding ?? { USD: '100000' },
    ...(restore ? { restore } : {}),
  });
  const faults = new FaultInjector(options.faults ?? { rules: [] }, new Rng(options.faults?.seed ?? sim.seed).fork('faults'));
  const issuer = new TokenIssuer(
    options.clients ?? [{ clientId: LOCAL_CLIENT_ID, clientSecret: LOCAL_CLIENT_SECRET }],
    clock,
    options.tokenLifetimeSec ?? 3599,
  );
  const limiter = options.rateLimits === undefined ? undefined : new SandboxRateLimiter(options.rateLimits, wallClock);
  const app: App = {
    sim,
    issuer,
    router: new Router(ROUTES),
    shapes: typeof options.shapes === 'string' ? shapesOf(options.shapes) : { ...DEFAULT_SHAPES, ...options.shapes },
    logger,
    faults,
    limiter,
    wallClock,
    truthApi: options.truthApi ?? false,
    state,
    instanceId: sim.instanceId ?? instanceId,
  };
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => void handle(app, req, res));
  try {
    await listen(server, options.port ?? 0, host);
  } catch (e) {
    state?.close(); // let go of the state file: a sandbox that never listened holds no world
    throw e;
  }
  sim.start();
  state?.attach(sim, wallClock, options.stateIntervalMs ?? 10_000, logger);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  const faultSummary = describeFaults(faults.active(), faults.retryAfterSec);
  logger.info(
    {
      url,
      seed: sim.seed,
      instanceId: app.instanceId,
      faults: faultSummary,
      rateLimits: limiter !== undefined,
      state: options.stateFile,
      restored: restore !== undefined,
    },
    'sandbox listening',
  );
  return {
    url,
    apiUrl: `${url}/v2`,
    tokenUrl: `${url}/oauth2/token`,
    port,
    sim,
    faults,
    faultSummary,
    restored: restore !== undefined,
    instanceId: app.instanceId,
    truth: () => sandboxTruth(sim, faults),
    saveState: () => state?.save() ?? false,
    revokeTokens: () => issuer.revokeAll(),
    close: () => close(server, sim, state),
  };
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const method = req.method ?? 'GET';
  res.setHeader('x-sandbox-instance', app.instanceId);
  try {
    if (path === TRUTH_PATH) return truthEndpoint(app, req, res);
    const isToken = path === '/oauth2/token' && method === 'POST';
    const matched = isToken ? undefined : app.router.match(method, path);
    const refusal = app.limiter?.check(req.socket.remoteAddress ?? 'unknown', path, matched?.route.path ?? path);
    if (refusal !== undefined)
      return sendProblem(res, problem(429, refusal.detail, { budget: refusal.budget }).body, {
        'retry-after': String(refusal.retryAfterSec),
      });
    const plan = app.faults.decide(matched?.route.operation ?? 'Token', method, path, isToken);
    if (plan.latencyMs > 0) await app.wallClock.sleep(plan.latencyMs);
    if (applyFaultBefore(plan.action, req, res, app.faults.retryAfterSec)) return;
    let result: unknown;
    if (matched === undefined) result = await tokenEndpoint(req, app.issuer);
    else {
      const { route, params } = matched;
      const caller = route.scope === null ? undefined : app.issuer.authorize(req.headers.authorization, route.scope);
      app.sim.advanceTo(app.sim.clock.now());
      const query = new Query(new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
      const baseUrl = `http://${req.headers.host ?? `127.0.0.1:${req.socket.localPort ?? 0}`}`;
      result = await route.handler({
        sim: app.sim,
        params,
        query,
        req,
        body: () => readJsonObject(req),
        shapes: app.shapes,
        owner: caller?.entity ?? PRIMARY_ENTITY,
        clientId: caller?.clientId,
        baseUrl,
      });
    }
    // every change is on disk before the client hears of it (a no-op without a SQLite state file)
    app.state?.commit();
    sendResult(res, result, plan.action);
  } catch (error) {
    const body = problemFromError(error, (e) => renderExisting(app.sim, e));
    if (body.status >= 500) app.logger.error({ err: error, method, path }, 'request failed');
    else app.logger.debug({ method, path, status: body.status }, 'request refused');
    if (!res.headersSent && !res.destroyed) sendProblem(res, body);
    else res.end();
  }
}

function truthEndpoint(app: App, req: IncomingMessage, res: ServerResponse): void {
  const from = req.socket.remoteAddress ?? '';
  if (!app.truthApi)
    throw problem(404, `no operation at ${req.method ?? 'GET'} ${TRUTH_PATH}: start the sandbox with the truth API enabled (--truth)`);
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(from)) throw problem(403, 'the truth API answers loopback callers only');
  if (req.method !== 'GET') throw problem(405, `method ${req.method ?? ''} is not allowed on ${TRUTH_PATH}`);
  sendResult(res, sandboxTruth(app.sim, app.faults), 'none');
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
      const x = sim.quoteExecutions().find((r) => r.id === existing.id);
      return x === undefined ? undefined : wireQuoteExecution(x);
    }
    case 'order': {
      const order = sim.orders().find((o) => o.id === existing.id);
      return order === undefined ? undefined : wireOrder(order);
    }
    default:
      return renderPlatformRecord(sim, existing);
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

/** Sandboxes started by this process, so two started in one millisecond with one seed still differ. */
let started = 0;

/** A new world's instance id when none is given: from the wall clock, the seed and the start count (no ambient randomness). */
function derivedInstanceId(wallClock: Clock, seed: number): string {
  const t = `${wallClock.now()}:${++started}`;
  const hi = mix32(hashLabel(`${seed}:${t}`));
  const lo = mix32(hi ^ hashLabel(`${t}:${seed}`));
  return `sbx-${hi.toString(16).padStart(8, '0')}${lo.toString(16).padStart(8, '0')}`;
}

function close(server: Server, sim: SimPlatform, state: SandboxState | undefined): Promise<void> {
  sim.stop();
  return new Promise((resolve, reject) => {
    // the last save once no request can change the world any more
    server.close((err) => {
      state?.close();
      if (err) reject(err);
      else resolve();
    });
    server.closeAllConnections();
  });
}
