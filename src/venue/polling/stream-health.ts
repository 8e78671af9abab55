import { MalformedResponseError, VenueUnreachableError } from '../../api/index.js';
import { TradeloopError } from '../../core/index.js';
import type { StreamHealth } from '../market-source.js';

interface HealthRecord {
  readonly stream: string;
  lastSuccessAt: number | undefined;
  consecutiveErrors: number;
  lastError: string | undefined;
  polls: number;
  malformed: number;
  unreachableSince: number | undefined;
}

const MAX_ERROR_TEXT = 200;

/**
 * Health of every stream a source runs: last success, consecutive errors, last error, polls and
 * malformed responses.
 * One mutable record per stream, created when the stream starts (a fixed set), read as immutable
 * copies, so `health()` is cheap and memory does not grow with time.
 */
export class HealthBook {
  private readonly records = new Map<string, HealthRecord>();

  /** Registers a stream (idempotent) so it is reported before its first poll. */
  register(stream: string): void {
    if (!this.records.has(stream))
      this.records.set(stream, {
        stream,
        lastSuccessAt: undefined,
        consecutiveErrors: 0,
        lastError: undefined,
        polls: 0,
        malformed: 0,
        unreachableSince: undefined,
      });
  }

  polled(stream: string): void {
    this.record(stream).polls++;
  }

  succeeded(stream: string, at: number): void {
    const r = this.record(stream);
    r.lastSuccessAt = at;
    r.consecutiveErrors = 0;
    r.unreachableSince = undefined;
  }

  /**
   * Counts an error; returns the number of errors in a row, for the backoff. A malformed response
   * (a record the decoder refused) is also counted apart: it is the venue's data, not the network.
   * A poll the client did not send because the venue is unreachable (its breaker is open) keeps
   * the time since when, so health() shows one outage rather than a count of refused polls.
   */
  failed(stream: string, err: unknown): number {
    const r = this.record(stream);
    r.consecutiveErrors++;
    if (err instanceof MalformedResponseError) r.malformed++;
    if (err instanceof VenueUnreachableError) r.unreachableSince = err.since;
    r.lastError = describeError(err);
    return r.consecutiveErrors;
  }

  consecutiveErrors(stream: string): number {
    return this.records.get(stream)?.consecutiveErrors ?? 0;
  }

  snapshot(): readonly StreamHealth[] {
    return [...this.records.values()].map(({ unreachableSince, ...r }) => ({
      ...r,
      ...(unreachableSince !== undefined && { unreachableSince }),
    }));
  }

  clear(): void {
    this.records.clear();
  }

  private record(stream: string): HealthRecord {
    this.register(stream);
    return this.records.get(stream) as HealthRecord;
  }
}

/** "CODE: message", bounded; API errors are already scrubbed of secrets by the client. */
function describeError(err: unknown): string {
  const text =
    err instanceof TradeloopError ? `${err.code}: ${err.message}` : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT - 1)}…` : text;
}
