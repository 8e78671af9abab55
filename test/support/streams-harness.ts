import { createApiClient, type ApiClient, type ApiClientOptions, type RequestEvent } from '../../src/api/index.js';
import type { TestClock } from '../../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/index.js';

/**
 * Waits for real I/O (a loopback HTTP round trip) by yielding to the event loop, never by sleeping
 * on wall time: the clock of the test stays where the test put it. Throws after `maxTurns`.
 */
export async function until(condition: () => boolean, what = 'condition', maxTurns = 20_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Lets promise chains and pending loopback I/O run a few event-loop turns. */
export async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A client on the test's clock that logs every request attempt (operation, path, query, time). */
export interface LoggedClient {
  readonly api: ApiClient;
  readonly requests: RequestEvent[];
  /** Attempts that have not answered yet. */
  outstanding(): number;
  count(operation: string, path?: string): number;
  times(operation: string, path?: string): number[];
}

export function loggedClient(clock: TestClock, options: Partial<ApiClientOptions> & { apiUrl: string }): LoggedClient {
  const requests: RequestEvent[] = [];
  let open = 0;
  const api = createApiClient({
    clientId: LOCAL_CLIENT_ID,
    clientSecret: LOCAL_CLIENT_SECRET,
    localCredential: true,
    clock,
    maxRetries: 0,
    ...options,
    onRequest: (e) => {
      open++;
      requests.push(e);
      options.onRequest?.(e);
    },
    onResponse: (e) => {
      open--;
      options.onResponse?.(e);
    },
  });
  const pick = (operation: string, path?: string): RequestEvent[] =>
    requests.filter((r) => r.operation === operation && (path === undefined || r.path === path));
  return {
    api,
    requests,
    outstanding: () => open,
    count: (op, path) => pick(op, path).length,
    times: (op, path) => pick(op, path).map((r) => r.atMs),
  };
}

/**
 * True when nothing is on the wire or about to go out: every poll of `source` in flight is parked
 * on a clock wait (the shared budget or the client's rate limiter) and no attempt awaits an answer.
 */
export function quiet(source: { pendingRequests(): number; readonly budget: { queued(): number } }, client: LoggedClient): () => boolean {
  return () => client.outstanding() === 0 && source.pendingRequests() <= source.budget.queued() + client.api.limiter.queued();
}

/**
 * Steps a TestClock by `stepMs` up to `totalMs`, letting in-flight loopback requests finish after
 * each step (`idle` says when nothing is outstanding).
 */
export async function stepClock(clock: TestClock, totalMs: number, stepMs: number, idle: () => boolean): Promise<void> {
  await settle(idle);
  for (let t = 0; t < totalMs; t += stepMs) {
    clock.advance(Math.min(stepMs, totalMs - t));
    await settle(idle);
  }
}

/** Lets requests started at the current instant go out and answer before time moves on. */
export async function settle(idle: () => boolean): Promise<void> {
  await turns(3);
  await until(idle, 'in-flight requests to settle');
  await turns(3);
}
