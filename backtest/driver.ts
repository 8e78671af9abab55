/**
 * The one replay driver's construction: a backtest of any fill model is the kernel every mode builds
 * (stores, risk gate, executors, journal, engine; replay-kernel.ts) fed through its ports by a
 * TestClock, a replay source and a fill model, in place of the live clock, the polling streams and
 * RestVenue. Built here for both fill models: point replay (PointReplaySource over PointVenue, for
 * price series, one strategy or a config's portfolio) and the book model (RecordedBookSource over
 * RecordedBookVenue, for recordings with books). Nothing strategy-facing differs from live; only the
 * ports, and so the fill model, are swapped. run.ts, portfolio.ts and book-run.ts step them.
 */
import { TestClock } from '../src/clock/test-clock.js';
import type { Decision, MarketEvent } from '../src/core/index.js';
// modules by file, not through the package indexes: a backtest (and each optimizer thread) loads
// only the backtest path, not the HTTP client, the sandbox server or the config loader
import type { Kernel } from '../src/engine/kernel.js';
import type { StrategyRunner } from '../src/engine/strategy-runner.js';
import { Journal } from '../src/exec/journal.js';
import type { JournalStore } from '../src/exec/journal-store.js';
import { MemoryJournal } from '../src/exec/memory-journal.js';
import { PointMarket, type PointMarketOptions } from '../src/fills/point/market.js';
import { PointReplaySource } from '../src/fills/point/replay-source.js';
import { PointVenue } from '../src/fills/point/venue.js';
import { RecordedBookVenue } from '../src/fills/book/venue.js';
import { HotStream } from '../src/state/hot-stream.js';
import type { AccountEvent, OpenOrderView } from '../src/state/index.js';
import type { MarketSource, StreamHealth } from '../src/venue/market-source.js';
import type { VenueFill, VenueOrder } from '../src/venue/venue.js';
import { buildReplayKernel, type ReplayKernel, type ReplayKernelOptions } from './replay-kernel.js';

/**
 * Closed orders, fills and finished intents a backtest keeps for lookups. Nothing reads them again
 * once reported (round trips and metrics take each fill as it comes), and keeping every one made the
 * collector copy and mark records the run no longer needs: with this window, memory and GC work stay
 * flat however many orders a run makes.
 */
export const RECORDS_KEPT = 32;

/** The kernel's options (strategies, limits, allocations, ...; see replay-kernel.ts) and the point fill model's. */
export interface BundleOptions extends Omit<ReplayKernelOptions, 'clock' | 'venue' | 'journal'> {
  readonly venue: PointMarketOptions;
  /** SQLite journal file (default: the in-memory journal; a backtest leaves no journal behind unless asked). */
  readonly journalFile?: string;
  /** Emit the held-rate quotes of each point (strategies that need `quote` events). */
  readonly withQuotes?: boolean;
  readonly onDecision?: (d: Decision) => void;
}

/** Everything the driver steps and reads: the clock, point replay, its source and the kernel. */
export interface BacktestBundle {
  readonly clock: TestClock;
  readonly points: PointMarket;
  readonly venue: PointVenue;
  readonly source: PointReplaySource;
  readonly kernel: Kernel;
  readonly journal: JournalStore;
  readonly runner: StrategyRunner;
  /** The kernel with its runner and the run's counters (see replay-kernel.ts). */
  readonly replay: ReplayKernel;
  /** Forgets the finished intents beyond the window (the driver calls it as each point begins). */
  readonly forgetFinished: () => void;
}

/** Builds the point-replay bundle; the caller closes `journal` (and the kernel) when done. */
export function buildBacktestBundle(o: BundleOptions): BacktestBundle {
  const clock = new TestClock(o.startMs);
  const points = new PointMarket({ keepClosed: RECORDS_KEPT, ...o.venue });
  const venue = new PointVenue(points);
  // in memory unless a file is asked for: same records and rules, a fraction of the cost per intent
  const memory = o.journalFile === undefined ? new MemoryJournal({ keepFinished: RECORDS_KEPT }) : undefined;
  const journal: JournalStore = memory ?? new Journal(o.journalFile!);
  const { journalFile: _file, venue: _venue, withQuotes: _quotes, onDecision: _decision, ...kernelOptions } = o;
  const rk = buildReplayKernel({ ...kernelOptions, clock, venue, journal });
  const kernel = rk.kernel;
  if (o.onDecision) kernel.decisions$.subscribe(o.onDecision);
  const source = new PointReplaySource(points, o.withQuotes ?? false);
  kernel.attach(source);
  return { clock, points, venue, source, kernel, journal, runner: rk.runner, replay: rk, forgetFinished: () => memory?.forgetFinished() };
}

export interface BookBundleOptions extends Omit<BundleOptions, 'venue' | 'journalFile' | 'withQuotes' | 'onDecision' | 'figuresOnly'> {
  /** The recorded-book venue's funding, fee and latency. */
  readonly book: { readonly funding: Readonly<Record<string, string>>; readonly feeBps: number; readonly latencyMs: number };
  /** The replay's journal (default: in memory); a caller's journal is left open for it to read. */
  readonly journal?: JournalStore;
}

/** The book model's bundle: the kernel over RecordedBookVenue, fed by RecordedBookSource. */
export interface BookBundle {
  readonly clock: TestClock;
  readonly venue: RecordedBookVenue;
  readonly source: RecordedBookSource;
  readonly journal: JournalStore;
  readonly replay: ReplayKernel;
}

/** Builds the book model's bundle (see the module comment). */
export function buildBookBundle(o: BookBundleOptions): BookBundle {
  const clock = new TestClock(o.startMs);
  const venue = new RecordedBookVenue({ ...o.book, now: () => clock.now() });
  const journal = o.journal ?? new MemoryJournal({ keepFinished: RECORDS_KEPT });
  const { book: _book, journal: _journal, ...kernelOptions } = o;
  const replay = buildReplayKernel({ ...kernelOptions, clock, venue, journal });
  const source = new RecordedBookSource(venue);
  replay.kernel.attach(source);
  return { clock, venue, source, journal, replay };
}

/**
 * The MarketSource of a recorded-book replay: emits, in the order a live run learns them, the
 * account (when it changed), the orders that closed, the new fills, then the recorded events.
 */
export class RecordedBookSource implements MarketSource {
  readonly events$ = new HotStream<MarketEvent>();
  readonly account$ = new HotStream<AccountEvent>();
  readonly fills$ = new HotStream<readonly VenueFill[]>();
  readonly orders$ = new HotStream<readonly VenueOrder[]>();
  private fillsSeen = 0;
  private quotesSeen = 0;
  private lastAt = 0;
  private steps = 0;

  constructor(private readonly venue: RecordedBookVenue) {}

  /** Reports what the venue did since the last call (the account always with `force`); true when there was anything. */
  async flush(at: number, force = false): Promise<boolean> {
    const v = this.venue;
    const closed = v.takeClosed();
    const fills = v.allFills().slice(this.fillsSeen);
    const settled = v.allQuoteExecutions().length - this.quotesSeen;
    if (closed.length === 0 && fills.length === 0 && settled === 0 && !force) return false;
    this.fillsSeen += fills.length;
    this.quotesSeen += settled;
    this.account$.next({ kind: 'balances', at, items: await v.balances() });
    const open: OpenOrderView[] = (await v.listOpenOrders()).map((o) => ({
      orderId: o.orderId,
      refId: o.refId,
      market: o.market,
      side: o.side,
      type: o.type,
      ...(o.price && { price: o.price }),
      ...(o.baseAmount && { baseAmount: o.baseAmount }),
      ...(o.quoteAmount && { quoteAmount: o.quoteAmount }),
      amountFilled: o.amountFilled,
      status: o.status,
    }));
    this.account$.next({ kind: 'open-orders', at, orders: open });
    if (closed.length > 0) this.orders$.next(closed);
    if (fills.length > 0) this.fills$.next(fills);
    return true;
  }

  emit(e: MarketEvent): void {
    this.steps++;
    this.lastAt = e.at;
    this.events$.next(e);
  }

  async warmUp(): Promise<readonly MarketEvent[]> {
    return [];
  }

  start(): void {}

  async stop(): Promise<void> {
    for (const s of [this.events$, this.account$, this.fills$, this.orders$] as HotStream<unknown>[]) s.complete();
  }

  health(): readonly StreamHealth[] {
    return [{ stream: 'recording', lastSuccessAt: this.lastAt, consecutiveErrors: 0, lastError: undefined, polls: this.steps }];
  }
}
