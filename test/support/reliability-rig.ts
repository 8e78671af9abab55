import { createApiClient, type ApiClient, type ApiClientOptions, type RequestEvent, type ResponseEvent } from '../../src/api/index.js';
import { TestClock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import { Rng, type ExecReport, type Intent } from '../../src/core/index.js';
import { FillTracker, Journal, OrderExecutor, QuoteExecutor, TransferExecutor, type ExecContext } from '../../src/exec/index.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import { RestVenue } from '../../src/venue/index.js';

/** Start of simulated time in the reliability rig. */
export const RIG_T0 = Date.UTC(2025, 5, 2, 9);

/**
 * The execution half of the live pipeline over real loopback HTTP on one TestClock: the sandbox
 * (whose injected latency also runs on that clock), the typed client, RestVenue, an in-memory
 * journal and the executors, with every report and request attempt recorded. Fault cases drive it
 * with `drive`, which moves simulated time only while the operation waits on the clock.
 */
export interface ExecRig {
  readonly clock: TestClock;
  readonly sandbox: SandboxHandle;
  readonly api: ApiClient;
  readonly venue: RestVenue;
  readonly journal: Journal;
  readonly orders: OrderExecutor;
  readonly quotes: QuoteExecutor;
  readonly transfers: TransferExecutor;
  readonly fills: FillTracker;
  readonly reports: ExecReport[];
  readonly requests: RequestEvent[];
  readonly responses: ResponseEvent[];
  /** Approves and places a limit buy of 0.001 BTC (journaled first, like the engine does). */
  placeBuy(refId: string, price: string): Promise<void>;
  /** Runs `work` to completion, advancing the clock by `stepMs` whenever nothing else can move. */
  drive<T>(work: Promise<T>, stepMs?: number, maxSteps?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startExecRig(options: Partial<SandboxOptions> = {}, client: Partial<ApiClientOptions> = {}): Promise<ExecRig> {
  const clock = new TestClock(RIG_T0);
  const sandbox = await startSandbox({ clock, wallClock: clock, seed: 3, funding: { USD: '1000000', BTC: '10' }, ...options });
  const requests: RequestEvent[] = [];
  const responses: ResponseEvent[] = [];
  const api = createApiClient({
    apiUrl: sandbox.apiUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: LOCAL_CLIENT_ID,
    clientSecret: LOCAL_CLIENT_SECRET,
    localCredential: true,
    clock,
    rng: new Rng(9),
    baseBackoffMs: 100,
    maxBackoffMs: 1_000,
    onRequest: (e) => requests.push(e),
    onResponse: (e) => responses.push(e),
    ...client,
  });
  const venue = new RestVenue(api, sandbox.sim.profiles.defaultId);
  const journal = new Journal(':memory:');
  const reports: ExecReport[] = [];
  const ctx: ExecContext = { venue, journal, clock, emit: (r) => reports.push(r) };
  const orders = new OrderExecutor(ctx);
  const idle = (): boolean => requests.length === responses.length;
  const drive = <T>(work: Promise<T>, stepMs = 100, maxSteps = 10_000): Promise<T> => driveClock(clock, work, stepMs, maxSteps, idle);
  return {
    clock,
    sandbox,
    api,
    venue,
    journal,
    orders,
    reports,
    requests,
    responses,
    drive,
    quotes: new QuoteExecutor(ctx, 1_000),
    transfers: new TransferExecutor(ctx),
    fills: new FillTracker(ctx, RIG_T0 - 60_000),
    placeBuy: (refId, price) => {
      const intent: Intent = {
        kind: 'place-order',
        intentId: refId,
        strategy: 'rig',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        baseAmount: '0.001',
        price,
      };
      return drive(orders.place(intent, { kind: 'approve', intent, at: clock.now() }));
    },
    close: async () => {
      await api.close();
      await sandbox.close();
      journal.close();
    },
  };
}

/**
 * Awaits `work` while stepping a TestClock: between steps it yields to the event loop until no
 * request attempt is outstanding (loopback I/O completes on its own) or, for a request parked on
 * the clock (injected latency), a few hundred turns; so simulated time passes only for waits on
 * the clock (backoffs, Retry-After, latency).
 */
export async function driveClock<T>(
  clock: TestClock,
  work: Promise<T>,
  stepMs: number,
  maxSteps: number,
  idle: () => boolean = () => true,
): Promise<T> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  settled.catch(() => undefined);
  for (let i = 0; i < maxSteps && !done; i++) {
    let quietTurns = 0;
    for (let t = 0; t < 400 && !done && quietTurns < 4; t++) {
      await new Promise<void>((r) => setImmediate(r));
      quietTurns = idle() ? quietTurns + 1 : 0;
    }
    if (!done) clock.advance(stepMs);
  }
  if (!done) throw new Error(`work did not finish within ${maxSteps} steps of ${stepMs} ms of simulated time`);
  return settled;
}

/** Orders at the sandbox carrying `refId` (the venue's truth). */
export function venueOrders(sandbox: SandboxHandle, refId: string): number {
  return sandbox.sim.orders().filter((o) => o.refId === refId).length;
}
