import type { Observable } from 'rxjs';
// rxjs's own modules of these classes, not its index: the index loads every operator (some 220 files),
// which a backtest, which uses none, would load at start (the same modules the index re-exports)
import { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
import { Subject } from 'rxjs/internal/Subject';
import type { Clock } from '../clock/index.js';
import type { MarketEvent, MarketSymbol } from '../core/index.js';
import { emptySnapshot, midOf, type MarketSnapshot } from './market-snapshot.js';
import { isStale } from './observed.js';
import { PriceHistory } from './price-history.js';
import { reduceMarket } from './reduce-market.js';

export interface MarketStoreOptions {
  /** Data older than this is stale (default 10 s). */
  readonly staleAfterMs?: number;
  /** Price points kept per market (default 2048). */
  readonly historyCapacity?: number;
  /**
   * Events stamped in the future held at most (default 10,000): beyond, the one furthest in the
   * future is dropped and counted (`droppedEvents`), so a source whose clock runs ahead cannot grow
   * memory without bound.
   */
  readonly maxHeldEvents?: number;
}

type PriceEvent = Extract<MarketEvent, { kind: 'price' }>;

interface Entry {
  /** The snapshot as of the last event reduced (see `pending`). */
  snapshot: MarketSnapshot;
  readonly history: PriceHistory;
  subject?: BehaviorSubject<MarketSnapshot>;
  /**
   * A price event not reduced into `snapshot` yet: with no one observing the market's changes, the
   * snapshot is made when first read rather than at every point (a backtest's strategies mostly read
   * the event, not the snapshot). `pendingAt` is the latest time among the price events it stands for.
   */
  pending?: PriceEvent;
  pendingAt: number;
}

/**
 * The market-state store: one immutable snapshot per market, replaced on each event, with
 * observables and synchronous reads. The store never answers with data newer than the clock: an
 * event stamped in the future waits until the clock reaches it, so look-ahead in a backtest is
 * impossible rather than merely detected.
 */
export class MarketStore {
  private readonly entries = new Map<MarketSymbol, Entry>();
  private readonly future: MarketEvent[] = [];
  private readonly changes = new Subject<MarketSnapshot>();
  readonly staleAfterMs: number;
  private readonly historyCapacity: number;
  private readonly maxHeldEvents: number;
  private dropped = 0;
  private lastMarket: MarketSymbol | undefined;
  private lastEntry: Entry | undefined;

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    options: MarketStoreOptions = {},
  ) {
    this.staleAfterMs = options.staleAfterMs ?? 10_000;
    this.historyCapacity = options.historyCapacity ?? 2048;
    this.maxHeldEvents = options.maxHeldEvents ?? 10_000;
  }

  /** Every snapshot change, all markets. */
  get changes$(): Observable<MarketSnapshot> {
    return this.changes.asObservable();
  }

  /** Applies an event now, or holds it until the clock reaches its time. */
  apply(event: MarketEvent): void {
    if (this.future.length > 0) this.releaseDue();
    if (event.at > this.clock.now()) {
      this.holdUntilDue(event);
      return;
    }
    this.reduce(event);
  }

  /** Current snapshot of `market` (empty when nothing was observed yet). */
  snapshot(market: MarketSymbol): MarketSnapshot {
    if (this.future.length > 0) this.releaseDue();
    const entry = this.entries.get(market);
    return entry === undefined ? emptySnapshot(market) : current(entry);
  }

  /** Snapshots of `market` as they change, starting with the current one. */
  select$(market: MarketSymbol): Observable<MarketSnapshot> {
    const entry = this.entry(market);
    entry.subject ??= new BehaviorSubject(current(entry));
    return entry.subject.asObservable();
  }

  /** Bounded price history of `market` (reference prices, or mids when only books are seen). */
  history(market: MarketSymbol): PriceHistory {
    if (this.future.length > 0) this.releaseDue();
    return this.entry(market).history;
  }

  /** Markets with at least one observation. */
  markets(): MarketSymbol[] {
    return [...this.entries.keys()];
  }

  /** True when the market's price (or best bid/ask) is missing or older than the stale age. */
  isStale(market: MarketSymbol, maxAgeMs = this.staleAfterMs): boolean {
    const s = this.snapshot(market);
    const now = this.clock.now();
    const freshest = [s.price, s.bestBid, s.bestAsk].reduce((a, o) => (o && o.at > a ? o.at : a), Number.NEGATIVE_INFINITY);
    return isStale(Number.isFinite(freshest) ? { value: 0, at: freshest } : undefined, now, maxAgeMs);
  }

  /** Events waiting for the clock (for diagnostics and tests). */
  heldEvents(): number {
    return this.future.length;
  }

  /** Events stamped in the future that were dropped because `maxHeldEvents` were already held. */
  droppedEvents(): number {
    return this.dropped;
  }

  private reduce(event: MarketEvent): void {
    const entry = this.entry(event.market);
    if (event.kind === 'price' && entry.subject === undefined && !this.changes.observed) {
      // the per-point path: no snapshot is made until someone reads one (see Entry.pending)
      entry.pendingAt = entry.pending === undefined ? event.at : Math.max(entry.pendingAt, event.at);
      entry.pending = event;
      entry.history.push(event.at, event.price);
      return;
    }
    const before = current(entry);
    const next = reduceMarket(before, event);
    if (next === before) return;
    entry.snapshot = next;
    if (event.kind === 'price') entry.history.push(event.at, event.price);
    else if (event.kind === 'book' || (event.kind === 'ticker' && next.price === undefined)) {
      const mid = midOf(next);
      if (mid !== undefined && next.price === undefined) entry.history.push(event.at, mid);
    }
    entry.subject?.next(next);
    if (this.changes.observed) this.changes.next(next);
  }

  private entry(market: MarketSymbol): Entry {
    // one market per point in a backtest: the last one found answers without a map lookup
    if (market === this.lastMarket) return this.lastEntry!;
    let entry = this.entries.get(market);
    if (entry === undefined) {
      entry = { snapshot: emptySnapshot(market), history: new PriceHistory(this.historyCapacity), pendingAt: Number.NEGATIVE_INFINITY };
      this.entries.set(market, entry);
    }
    this.lastMarket = market;
    this.lastEntry = entry;
    return entry;
  }

  private holdUntilDue(event: MarketEvent): void {
    let i = this.future.length;
    while (i > 0 && (this.future[i - 1] as MarketEvent).at > event.at) i--;
    this.future.splice(i, 0, event);
    if (this.future.length > this.maxHeldEvents) {
      this.future.pop();
      this.dropped++;
    }
  }

  private releaseDue(): void {
    const now = this.clock.now();
    let n = 0;
    while (n < this.future.length && (this.future[n] as MarketEvent).at <= now) n++;
    if (n === 0) return;
    for (const e of this.future.splice(0, n)) this.reduce(e);
  }
}

/**
 * The entry's snapshot with its pending price reduced in: what reducing every price event in turn
 * would have made (price events change only the price and the time, so the last one's price and the
 * latest of their times are the result).
 */
function current(entry: Entry): MarketSnapshot {
  const p = entry.pending;
  if (p === undefined) return entry.snapshot;
  entry.pending = undefined;
  const next = reduceMarket(entry.snapshot, p);
  const updatedAt = Math.max(entry.snapshot.updatedAt, entry.pendingAt);
  entry.snapshot = next.updatedAt === updatedAt ? next : { ...next, updatedAt };
  return entry.snapshot;
}
