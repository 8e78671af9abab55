import type { Clock } from '../../clock/clock.js';
import type { Logger } from '../../log/logger.js';
import { ApiError, MalformedResponseError, TimeoutError, TransportError, VenueUnreachableError } from '../errors.js';

/** Settings of the breaker: how many connection failures in a row open it, how often it probes. */
export interface BreakerSettings {
  /** Consecutive connection failures that open the breaker (`api.breaker_failures`, default 5). */
  readonly failures: number;
  /** At most one probe per this many milliseconds while open (default 1000). */
  readonly probeIntervalMs?: number;
}

/** What the panel and `health()` show: whether the venue is unreachable, and since when. */
export interface VenueReachability {
  /** Epoch ms at which the breaker opened; absent while the venue answers. */
  readonly unreachableSince?: number;
  /** Connection failures in a row (reset by any answer). */
  readonly consecutiveFailures: number;
  /** Probes sent since the breaker opened (0 while closed). */
  readonly probes: number;
  /** The last connection failure, in the client's words (no URL, no secret). */
  readonly lastError?: string;
}

/** Handed out by `admit`, given back to `settle`: whether the attempt is the open breaker's probe. */
export interface BreakerTicket {
  readonly probe: boolean;
}

const PASS: BreakerTicket = { probe: false };
const PROBE: BreakerTicket = { probe: true };

/**
 * One breaker per venue (per API client). During an outage every poll stream retried every request
 * on its own, dozens of connections a second and a warning each; the breaker turns that into one
 * state. After `failures` connection failures in a row (refused, reset, a timeout before any
 * response) it opens: requests fail at once with VENUE_UNREACHABLE (never sent, so a write refused
 * here is known not to have run), except one read a second let through as a probe. Any answer of
 * the venue, even an HTTP error, closes it. Opening is logged once (warn), closing once (info, with
 * the duration).
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private nextProbeAt = 0;
  private probing = false;
  private probes = 0;
  private lastError: string | undefined;
  private readonly probeIntervalMs: number;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
  ) {
    this.probeIntervalMs = settings.probeIntervalMs ?? 1_000;
  }

  /**
   * Called before an attempt. Passes while closed; while open, lets one read through as a probe
   * when the last probe is a probe interval old and none is in flight, else throws
   * VenueUnreachableError. Writes never probe: they fail fast until a read found the venue.
   */
  admit(operation: string, method: string): BreakerTicket {
    if (this.openedAt === undefined) return PASS;
    const now = this.clock.now();
    if (method === 'GET' && !this.probing && now >= this.nextProbeAt) {
      this.probing = true;
      this.probes++;
      this.nextProbeAt = now + this.probeIntervalMs;
      return PROBE;
    }
    throw new VenueUnreachableError(operation, this.openedAt, this.lastError);
  }

  /**
   * Called after an admitted attempt with its error (undefined on success); `unsent` when it ended
   * before the request left (then it only frees the probe slot).
   */
  settle(ticket: BreakerTicket, err: unknown, unsent = false): void {
    if (ticket.probe) this.probing = false;
    if (unsent) return;
    if (err === undefined || answered(err)) this.close();
    else if (connectionFailure(err)) this.fail(err);
  }

  /** True while requests fail fast. */
  isOpen(): boolean {
    return this.openedAt !== undefined;
  }

  state(): VenueReachability {
    return {
      ...(this.openedAt !== undefined && { unreachableSince: this.openedAt }),
      consecutiveFailures: this.failures,
      probes: this.probes,
      ...(this.lastError !== undefined && { lastError: this.lastError }),
    };
  }

  private fail(err: ApiError): void {
    this.failures++;
    this.lastError = err.message;
    if (this.openedAt !== undefined || this.failures < this.settings.failures) return;
    const now = this.clock.now();
    this.openedAt = now;
    this.nextProbeAt = now + this.probeIntervalMs;
    this.probes = 0;
    this.logger.warn(
      { venueUnreachableSince: new Date(now).toISOString(), failures: this.failures, lastError: err.message },
      `venue unreachable since ${new Date(now).toISOString()}: ${this.failures} connection failures in a row (last: ${err.message}); requests fail fast and one read a second probes for its return`,
    );
  }

  private close(): void {
    this.failures = 0;
    const since = this.openedAt;
    if (since === undefined) return;
    this.openedAt = undefined;
    const downMs = this.clock.now() - since;
    this.logger.info(
      { venueUnreachableSince: new Date(since).toISOString(), downMs, probes: this.probes },
      `venue reachable again after ${(downMs / 1000).toFixed(1)} s (unreachable since ${new Date(since).toISOString()}, ${this.probes} probes)`,
    );
    this.probes = 0;
  }
}

/** A connection failure: refused, reset, unreachable, or no response before the connect or headers timeout. */
export function connectionFailure(err: unknown): err is TransportError | TimeoutError {
  if (err instanceof TransportError) return true;
  return err instanceof TimeoutError && err.phase !== 'body';
}

/** The venue answered: any HTTP status (even 5xx or a body the client refused), or a stalled body. */
function answered(err: unknown): boolean {
  if (err instanceof TimeoutError) return err.phase === 'body';
  return err instanceof MalformedResponseError || (err instanceof ApiError && err.status !== undefined);
}
