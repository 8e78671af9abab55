import type { SchedulerLike } from 'rxjs';
import { Observable } from 'rxjs/internal/Observable';
import { timer } from 'rxjs/internal/observable/timer';
import { repeat } from 'rxjs/internal/operators/repeat';
import { retry } from 'rxjs/internal/operators/retry';
import type { Priority } from '../../api/index.js';
import type { Clock } from '../../clock/index.js';
import type { Rng } from '../../core/index.js';
import { backoffDelayMs, type BackoffSettings } from './backoff.js';
import type { RequestBudget } from './request-budget.js';
import type { HealthBook } from './stream-health.js';

/** Requests currently on the wire, so `stop()` can wait for them. Never larger than the stream count. */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  track<T>(p: Promise<T>): Promise<T> {
    const settled = p.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return p;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Resolves when every request tracked so far has settled. */
  async drained(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

/** Shared machinery of every poll stream of one source. */
export interface PollContext {
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  readonly health: HealthBook;
  readonly budget: RequestBudget;
  readonly backoff: BackoffSettings;
  readonly rng: Rng;
  readonly inflight: InFlight;
}

/** One stream: what to request, how often, and at which priority. */
export interface PollSpec<T> {
  readonly name: string;
  readonly intervalMs: number;
  readonly priority: Priority;
  /** Operation id, so the shared budget recognises the request when the client sends it. */
  readonly operation: string;
  /** Sends the request and turns the response into what the stream emits. */
  run(signal: AbortSignal): Promise<T>;
}

/**
 * A poll stream on the clock's scheduler. Polls start on a fixed grid of `intervalMs`; a poll
 * never starts while the previous one is in flight — a slow response delays the next poll to the
 * next grid slot after it arrives (ticks missed meanwhile are dropped, as `exhaustMap` would).
 * Every poll first waits for the shared budget. An error is counted in the health book and
 * retried after an exponential, seeded-jitter backoff on the clock; the stream never errors or
 * completes on its own. Unsubscribing aborts the request in flight.
 */
export function pollStream<T>(spec: PollSpec<T>, ctx: PollContext): Observable<T> {
  let lastStartAt = ctx.clock.now();
  ctx.health.register(spec.name);
  const once = new Observable<T>((subscriber) => {
    const abort = new AbortController();
    lastStartAt = ctx.clock.now();
    const request = (async () => {
      await ctx.budget.acquire(spec.priority, spec.operation, abort.signal);
      ctx.health.polled(spec.name);
      return spec.run(abort.signal);
    })();
    ctx.inflight.track(request).then(
      (value) => {
        if (abort.signal.aborted) return;
        ctx.health.succeeded(spec.name, ctx.clock.now());
        subscriber.next(value);
        subscriber.complete();
      },
      (err: unknown) => {
        if (abort.signal.aborted) return;
        ctx.health.failed(spec.name, err);
        subscriber.error(err);
      },
    );
    return () => abort.abort(new Error(`${spec.name} stopped`));
  });
  return once.pipe(
    repeat({ delay: () => timer(nextSlotDelayMs(lastStartAt, ctx.clock.now(), spec.intervalMs), ctx.scheduler) }),
    retry({
      delay: (err: unknown) => timer(backoffDelayMs(ctx.health.consecutiveErrors(spec.name), err, ctx.backoff, ctx.rng), ctx.scheduler),
    }),
  );
}

/** Delay from `now` to the next slot of the grid `startedAt + k·interval` (k ≥ 1) not yet passed. */
export function nextSlotDelayMs(startedAt: number, now: number, intervalMs: number): number {
  const elapsed = now - startedAt;
  if (elapsed < intervalMs) return intervalMs - elapsed;
  const rem = elapsed % intervalMs;
  return rem === 0 ? 0 : intervalMs - rem;
}
