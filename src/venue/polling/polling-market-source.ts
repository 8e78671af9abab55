import type { Observable, Subscription } from 'rxjs';
import { Subject } from 'rxjs/internal/Subject';
import type { Clock } from '../../clock/index.js';
import { ClockScheduler } from '../../clock/index.js';
import { Rng, type MarketEvent, type MarketSymbol } from '../../core/index.js';
import type { AccountEvent } from '../../state/index.js';
import type { MarketSource, MarketSubscription, MarketTrades, StreamHealth } from '../market-source.js';
import type { VenueFill } from '../venue.js';
import { DEFAULT_BACKOFF, type BackoffSettings } from './backoff.js';
import { ResponseDecoder, type Decoded } from './decode.js';
import { InFlight, pollStream, type PollContext } from './poll-loop.js';
import type { ResponseSink } from './recorder.js';
import { RequestBudget } from './request-budget.js';
import { DEFAULT_INTERVALS, requestFor, type MarketDataApi, type PollIntervals } from './stream-requests.js';
import { planStreams, type PlanOptions, type PlannedStream } from './stream-plan.js';
import { HealthBook } from './stream-health.js';
import { TradeTape } from './recent-trades.js';
import { loadWarmUp, type WarmUpSettings } from './warm-up-history.js';

export interface PollingMarketSourceOptions {
  readonly api: MarketDataApi;
  readonly clock: Clock;
  /** The bot's profile; without it no account streams run. */
  readonly profileId?: string;
  readonly intervals?: Partial<PollIntervals>;
  /** Shared with the executors' client (see RequestBudget.observe); default: a private one at 20 req/s. */
  readonly budget?: RequestBudget;
  readonly backoff?: Partial<BackoffSettings>;
  /** Jitter of backoffs (default: a fixed seed, so runs repeat). */
  readonly rng?: Rng;
  /** Every response received is written here (see JsonLinesRecorder). */
  readonly recorder?: ResponseSink;
  /** Book levels kept per side (default 50). */
  readonly bookDepth?: number;
  readonly warmUp?: Partial<WarmUpSettings>;
  /** Fills are looked up from this long before `start` (default 60 s), then from the newest seen. */
  readonly fillsLookbackMs?: number;
  /** Streams polled for every subscribed market whatever it asks for (the config turned them on). */
  readonly alwaysPoll?: Pick<PlanOptions, 'tickers' | 'books'>;
}

interface Running {
  readonly stream: PlannedStream;
  readonly subscription: Subscription;
}

/**
 * The live MarketSource: RxJS poll streams over the typed API client, on the injected clock.
 * Polls only what the subscriptions need (see `planStreams`), never overlaps a stream's polls,
 * backs off on errors without ending, shares one request budget with priorities, optionally
 * records every response, and emits events stamped with the local receive time.
 */
export class PollingMarketSource implements MarketSource {
  private readonly events = new Subject<MarketEvent>();
  private readonly account = new Subject<AccountEvent>();
  private readonly fills = new Subject<readonly VenueFill[]>();
  private readonly tapes = new Subject<MarketTrades>();
  /** New public trades of each market (a trades stream), for bars built from trades. */
  readonly trades$: Observable<MarketTrades> = this.tapes.asObservable();
  readonly events$: Observable<MarketEvent> = this.events.asObservable();
  readonly account$: Observable<AccountEvent> = this.account.asObservable();
  /** New fills of the profile's orders, each once, oldest first (feed FillTracker.ingest). */
  readonly fills$: Observable<readonly VenueFill[]> = this.fills.asObservable();
  readonly budget: RequestBudget;
  private readonly ctx: PollContext;
  private readonly decoder: ResponseDecoder;
  private readonly intervals: PollIntervals;
  private readonly running = new Map<string, Running>();
  private fillsSince = 0;

  constructor(private readonly options: PollingMarketSourceOptions) {
    this.intervals = { ...DEFAULT_INTERVALS, ...options.intervals };
    for (const [k, v] of Object.entries(this.intervals)) {
      if (v === undefined && k === 'tradesMs') continue;
      if (!(Number.isFinite(v) && v >= 1)) throw new RangeError(`intervals.${k} must be a positive number of ms, got ${String(v)}`);
    }
    this.budget = options.budget ?? new RequestBudget({ clock: options.clock });
    this.decoder = new ResponseDecoder({ bookDepth: options.bookDepth });
    const backoff: BackoffSettings = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.ctx = {
      clock: options.clock,
      scheduler: new ClockScheduler(options.clock),
      health: new HealthBook(),
      budget: this.budget,
      backoff,
      rng: options.rng ?? new Rng('tradeloop-stream-backoff'),
      inflight: new InFlight(),
    };
  }

  warmUp(markets: readonly MarketSymbol[], points: number): Promise<readonly MarketEvent[]> {
    return loadWarmUp(markets, points, {
      api: this.options.api,
      clock: this.options.clock,
      budget: this.budget,
      recorder: this.options.recorder,
      decoder: this.decoder,
      settings: this.options.warmUp,
    });
  }

  /**
   * Starts what the subscriptions need; called again, it keeps streams whose request is unchanged
   * (their cadence continues), starts new ones and stops those no longer needed.
   */
  start(subscriptions: readonly MarketSubscription[]): void {
    const planned = planStreams(subscriptions, this.options.profileId !== undefined, {
      ...this.options.alwaysPoll,
      trades: this.intervals.tradesMs !== undefined,
    });
    const keys = new Set(planned.map((p) => p.key));
    for (const [key, r] of this.running) {
      if (keys.has(key)) continue;
      r.subscription.unsubscribe();
      this.running.delete(key);
    }
    if (this.running.size === 0) this.fillsSince = this.options.clock.now() - (this.options.fillsLookbackMs ?? 60_000);
    for (const stream of planned) {
      if (!this.running.has(stream.key)) this.running.set(stream.key, { stream, subscription: this.run(stream) });
    }
  }

  async stop(): Promise<void> {
    for (const r of this.running.values()) r.subscription.unsubscribe();
    this.running.clear();
    await this.ctx.inflight.drained();
    await this.options.recorder?.close();
  }

  health(): readonly StreamHealth[] {
    const live = new Set([...this.running.values()].map((r) => r.stream.name));
    return this.ctx.health.snapshot().filter((h) => live.has(h.stream));
  }

  /** Polls in flight now (waiting for the budget or for a response): at most one per stream. */
  pendingRequests(): number {
    return this.ctx.inflight.size;
  }

  /** Names of the streams running now (for diagnostics and tests). */
  streams(): string[] {
    return [...this.running.values()].map((r) => r.stream.name);
  }

  private run(stream: PlannedStream): Subscription {
    const request = requestFor(stream, {
      api: this.options.api,
      profileId: this.options.profileId,
      intervals: this.intervals,
      fillsSince: () => this.fillsSince,
    });
    // the platform repeats its latest 2000 trades on every poll: only the new ones are recorded and decoded
    const tape = stream.id.kind === 'trades' ? new TradeTape(this.options.clock.now()) : undefined;
    const spec = {
      name: stream.name,
      intervalMs: request.intervalMs,
      priority: request.priority,
      operation: request.operation,
      run: async (signal: AbortSignal): Promise<Decoded> => {
        const answer = await request.send(signal);
        const body = tape === undefined ? answer : tape.fresh(answer);
        const at = this.options.clock.now();
        this.options.recorder?.write({ at, stream: stream.name, body });
        return this.decoder.decode(stream.id, body, at);
      },
    };
    return pollStream(spec, this.ctx).subscribe((decoded) => this.dispatch(decoded));
  }

  private dispatch(d: Decoded): void {
    for (const e of d.market) this.events.next(e);
    if (d.account !== undefined) this.account.next(d.account);
    if (d.trades !== undefined) this.tapes.next(d.trades);
    if (d.fills !== undefined) {
      const newest = d.fills[d.fills.length - 1];
      if (newest !== undefined) this.fillsSince = Math.max(this.fillsSince, newest.at - (this.options.fillsLookbackMs ?? 60_000));
      this.fills.next(d.fills);
    }
  }
}
