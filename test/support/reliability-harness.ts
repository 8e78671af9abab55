import { Writable } from 'node:stream';
import { createApiClient, type ApiClient, type RequestEvent, type ResponseEvent } from '../../src/api/index.js';
import { TestClock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, parseConfig, type Config } from '../../src/config/index.js';
import { Rng } from '../../src/core/index.js';
import { LiveRun, runnersFor, subscriptionsFor, type LoadedStrategy } from '../../src/live/index.js';
import { Journal } from '../../src/exec/index.js';
import { createLogger, SecretSet, type Logger } from '../../src/log/index.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import { marketsOf, resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { JsonLinesRecorder, PollingMarketSource, RestVenue } from '../../src/venue/index.js';

/** A strategy to run, with its parameters. */
export interface StrategySpec {
  readonly definition: StrategyDefinition;
  readonly params?: Record<string, unknown>;
}

export interface ReliabilityOptions {
  readonly strategies: (ctx: { profileId: string; otherProfileId: string }) => readonly StrategySpec[];
  readonly config?: Record<string, unknown>;
  readonly sandbox?: Partial<SandboxOptions>;
  readonly funding?: Record<string, string>;
  readonly refPrefix?: string;
  readonly journalPath?: string;
  /** Client secret of the sandbox credential (a canary in security tests). */
  readonly clientSecret?: string;
  readonly maxRetries?: number;
  /** Records every stream response to this JSON-lines file (a recorded run). */
  readonly record?: string;
  /** Runs before the LiveRun starts (e.g. to plant a record at the venue). */
  readonly beforeStart?: (h: { sandbox: SandboxHandle; api: ApiClient; clock: TestClock; profileId: string }) => Promise<void>;
}

/**
 * The whole live pipeline in one process on one TestClock, built for fault runs: the sandbox's
 * injected latency and rate-limit windows run on that clock too, every log line is kept in memory,
 * every request attempt and response is recorded, and a second profile exists for transfers.
 */
export interface ReliabilityHarness {
  readonly clock: TestClock;
  readonly sandbox: SandboxHandle;
  readonly api: ApiClient;
  readonly run: LiveRun;
  readonly journal: Journal;
  readonly source: PollingMarketSource;
  readonly profileId: string;
  readonly otherProfileId: string;
  readonly funding: Readonly<Record<string, string>>;
  readonly requests: RequestEvent[];
  readonly responses: ResponseEvent[];
  readonly secrets: SecretSet;
  /** Every log line so far (JSON lines). */
  logs(): string;
  /** Moves simulated time in steps, letting loopback I/O of each step finish first. */
  step(totalMs: number, stepMs: number): Promise<void>;
  close(): Promise<void>;
}

export const HARNESS_T0 = Date.UTC(2025, 6, 1, 8);

export async function startReliabilityHarness(o: ReliabilityOptions): Promise<ReliabilityHarness> {
  const clock = new TestClock(HARNESS_T0);
  const funding = o.funding ?? { USD: '1000000', BTC: '20' };
  const secret = o.clientSecret ?? LOCAL_CLIENT_SECRET;
  const sandbox = await startSandbox({
    clock,
    wallClock: clock,
    seed: 5,
    funding,
    clients: [{ clientId: LOCAL_CLIENT_ID, clientSecret: secret }],
    ...o.sandbox,
  });
  const requests: RequestEvent[] = [];
  const responses: ResponseEvent[] = [];
  const secrets = new SecretSet();
  const { logger, lines } = memoryLogger(secrets);
  const api = createApiClient({
    apiUrl: sandbox.apiUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: LOCAL_CLIENT_ID,
    clientSecret: secret,
    localCredential: true,
    clock,
    logger,
    secrets,
    rng: new Rng(11),
    maxRetries: o.maxRetries ?? 4,
    baseBackoffMs: 200,
    maxBackoffMs: 2_000,
    onRequest: (e) => requests.push(e),
    onResponse: (e) => responses.push(e),
  });
  const idle = (): boolean => requests.length === responses.length;
  const step = (total: number, stepMs: number): Promise<void> => stepUntilQuiet(clock, total, stepMs, idle);
  const profileId = sandbox.sim.profiles.defaultId;
  const other = await driveUntil(clock, api.createProfile({ nickname: 'reliability-b' }), idle);
  await o.beforeStart?.({ sandbox, api, clock, profileId });
  const loaded = o.strategies({ profileId, otherProfileId: other.id }).map(load);
  const config: Config = parseConfig({
    streams: {
      prices_ms: 1_000,
      ticker_ms: 5_000,
      book_ms: 5_000,
      quotes_ms: 2_000,
      balances_ms: 2_000,
      orders_ms: 1_000,
      warmup_points: 5,
    },
    risk: {
      stale_after_ms: 60_000,
      max_intents_per_minute: 10_000,
      max_open_orders: 1_000,
      price_band_bps: 1_000,
      max_order_notional: '100000',
    },
    ...o.config,
  });
  const s = config.streams;
  const source = new PollingMarketSource({
    api,
    clock,
    profileId,
    intervals: {
      pricesMs: s.prices_ms,
      tickerMs: s.ticker_ms,
      bookMs: s.book_ms,
      quotesMs: s.quotes_ms,
      balancesMs: s.balances_ms,
      ordersMs: s.orders_ms,
      fillsMs: s.orders_ms,
      quoteExecutionsMs: s.orders_ms,
    },
    ...(o.record !== undefined && { recorder: new JsonLinesRecorder(o.record) }),
  });
  const journal = new Journal(o.journalPath ?? ':memory:');
  const run = new LiveRun({
    clock,
    venue: new RestVenue(api, profileId),
    source,
    journal,
    config,
    environment: 'test',
    refPrefix: o.refPrefix ?? 'rel',
    log: logger,
    strategies: runnersFor(loaded, logger),
  });
  await driveUntil(clock, run.start(subscriptionsFor(loaded)), idle);
  return {
    clock,
    sandbox,
    api,
    run,
    journal,
    source,
    profileId,
    otherProfileId: other.id,
    funding,
    requests,
    responses,
    secrets,
    step,
    logs: lines,
    close: async () => {
      await driveUntil(clock, run.stop('test over'), idle);
      await api.close();
      await sandbox.close();
      journal.close();
    },
  };
}

function load(s: StrategySpec): LoadedStrategy {
  const params = resolveParams(s.definition, s.params ?? {}) as Record<string, unknown>;
  return { name: s.definition.name, definition: s.definition, params, markets: marketsOf(s.definition, params as never) };
}

/** A JSON logger into memory, scrubbing `secrets` like the runner's. */
export function memoryLogger(secrets: SecretSet): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { logger: createLogger({ level: 'debug', destination, secrets, pretty: false }), lines: () => chunks.join('') };
}

/** Yields to the event loop until no attempt is outstanding for a few turns (or a bounded while). */
async function quiet(idle: () => boolean): Promise<void> {
  let calm = 0;
  for (let t = 0; t < 2_000 && calm < 4; t++) {
    await new Promise<void>((r) => setImmediate(r));
    calm = idle() ? calm + 1 : 0;
  }
}

/**
 * Steps the clock; after each step waits for loopback I/O. A request parked on the clock (injected
 * latency, a backoff) does not block the step: it is simply not idle for a while.
 */
export async function stepUntilQuiet(clock: TestClock, totalMs: number, stepMs: number, idle: () => boolean): Promise<void> {
  await quiet(idle);
  for (let t = 0; t < totalMs; t += stepMs) {
    clock.advance(Math.min(stepMs, totalMs - t));
    await quiet(idle);
  }
}

/** Awaits `work`, stepping the clock 100 ms at a time while it waits on the clock. */
export async function driveUntil<T>(clock: TestClock, work: Promise<T>, idle: () => boolean, maxSteps = 20_000): Promise<T> {
  let done = false;
  const settled = work.finally(() => (done = true));
  settled.catch(() => undefined);
  for (let i = 0; i < maxSteps && !done; i++) {
    await quiet(() => done || idle());
    if (!done) clock.advance(100);
  }
  return settled;
}
