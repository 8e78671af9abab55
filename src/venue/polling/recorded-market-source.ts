import type { Observable } from 'rxjs';
import { Subject } from 'rxjs/internal/Subject';
import type { Clock } from '../../clock/index.js';
import { InputError, type MarketEvent, type MarketSymbol } from '../../core/index.js';
import type { AccountEvent } from '../../state/index.js';
import type { MarketSource, MarketSubscription, MarketTrades, StreamHealth } from '../market-source.js';
import type { VenueFill } from '../venue.js';
import { ResponseDecoder, type Decoded } from './decode.js';
import { headerWarmUp, readRecording, readRecordingHeader } from './recording-reader.js';
import { HealthBook } from './stream-health.js';
import { parseStreamName } from './stream-names.js';
import { subscribedTo } from './stream-plan.js';
import { MAX_WARM_UP_POINTS } from './warm-up-history.js';

export interface RecordedMarketSourceOptions {
  /** A file written by a polling source with `streams.record`. */
  readonly path: string;
  readonly clock: Clock;
  /** Emit each response when the clock reaches its time (default true); false: as fast as read. */
  readonly paced?: boolean;
  /** Must match the recording run's book depth for identical book events (default 50). */
  readonly bookDepth?: number;
}

/**
 * Replays a recording through the MarketSource port: the same decoder as the live source turns
 * each recorded response into the same events, stamped with the recorded receive times, so a live
 * run can be re-run through strategies offline. Reads the file one line at a time.
 */
export class RecordedMarketSource implements MarketSource {
  private readonly events = new Subject<MarketEvent>();
  private readonly account = new Subject<AccountEvent>();
  private readonly fills = new Subject<readonly VenueFill[]>();
  private readonly tapes = new Subject<MarketTrades>();
  /** New public trades of each market (a trades stream), for bars built from trades. */
  readonly trades$: Observable<MarketTrades> = this.tapes.asObservable();
  readonly events$: Observable<MarketEvent> = this.events.asObservable();
  readonly account$: Observable<AccountEvent> = this.account.asObservable();
  readonly fills$: Observable<readonly VenueFill[]> = this.fills.asObservable();
  private readonly healthBook = new HealthBook();
  private abort: AbortController | undefined;
  private replay: Promise<void> = Promise.resolve();
  private skipped = 0;

  constructor(private readonly options: RecordedMarketSourceOptions) {}

  /**
   * The last `points` recorded warm-up prices of each market, oldest first: those the header holds,
   * else (older recordings) those of the recorded `history:` responses.
   */
  async warmUp(markets: readonly MarketSymbol[], points: number): Promise<readonly MarketEvent[]> {
    if (!Number.isInteger(points) || points < 0 || points > MAX_WARM_UP_POINTS) {
      throw new InputError('points', `expected an integer from 0 to ${MAX_WARM_UP_POINTS}, got ${String(points)}`);
    }
    const run = await readRecordingHeader(this.options.path);
    const latest = new Map<MarketSymbol, readonly MarketEvent[]>();
    for (const m of markets) {
      const fromHeader = headerWarmUp(run, m);
      if (fromHeader !== undefined) latest.set(m, fromHeader);
    }
    const wanted = new Set(markets.filter((m) => !latest.has(m)));
    const decoder = new ResponseDecoder({ bookDepth: this.options.bookDepth });
    if (wanted.size > 0)
      for await (const entry of readRecording(this.options.path)) {
        const id = parseStreamName(entry.stream);
        if (id?.kind !== 'history' || id.market === undefined || !wanted.has(id.market)) continue;
        latest.set(id.market, decoder.decode(id, entry.body, entry.at).market);
      }
    return [...latest.values()].flatMap((events) => events.slice(Math.max(0, events.length - points))).sort((a, b) => a.at - b.at);
  }

  /** Starts replaying from the beginning of the file; market events are filtered by the subscriptions. */
  start(subscriptions: readonly MarketSubscription[]): void {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.replay = this.run(subscriptions, abort.signal).catch((err: unknown) => {
      if (!abort.signal.aborted) this.events.error(err);
    });
  }

  /** Resolves when the whole file has been replayed (or the replay stopped). */
  finished(): Promise<void> {
    return this.replay;
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.replay;
  }

  health(): readonly StreamHealth[] {
    return this.healthBook.snapshot();
  }

  /** Lines skipped because their stream is unknown to this version or their body did not decode. */
  skippedLines(): number {
    return this.skipped;
  }

  private async run(subscriptions: readonly MarketSubscription[], signal: AbortSignal): Promise<void> {
    const wanted = subscribedTo(subscriptions);
    const decoder = new ResponseDecoder({ bookDepth: this.options.bookDepth });
    const paced = this.options.paced ?? true;
    for await (const entry of readRecording(this.options.path)) {
      if (signal.aborted) return;
      const id = parseStreamName(entry.stream);
      if (id === undefined) {
        this.skipped++;
        continue;
      }
      if (id.kind === 'history') continue;
      const wait = entry.at - this.options.clock.now();
      if (paced && wait > 0) await this.options.clock.sleep(wait, signal).catch(() => undefined);
      if (signal.aborted) return;
      let decoded: Decoded;
      try {
        decoded = decoder.decode(id, entry.body, entry.at);
      } catch (err) {
        this.skipped++;
        this.healthBook.failed(entry.stream, err);
        continue;
      }
      this.healthBook.polled(entry.stream);
      this.healthBook.succeeded(entry.stream, entry.at);
      this.dispatch(decoded, wanted);
    }
  }

  private dispatch(d: Decoded, wanted: ReturnType<typeof subscribedTo>): void {
    for (const e of d.market) if (e.kind !== 'timer' && wanted(e.kind, e.market)) this.events.next(e);
    if (d.account !== undefined) this.account.next(d.account);
    if (d.trades !== undefined) this.tapes.next(d.trades);
    if (d.fills !== undefined) this.fills.next(d.fills);
  }
}
