import { BarFeed, type Bar, type Ohlcv } from '../bars/index.js';
import type { Clock } from '../clock/index.js';
import { assertNever, type Decision, type ExecReport, type Intent, type MarketEvent, type MarketSymbol } from '../core/index.js';
import type { JournalStore, OrderExecutor, QuoteExecutor, TransferExecutor } from '../exec/index.js';
import { isJournalFileFailure } from '../exec/journal-faults.js';
import type { Logger } from '../log/index.js';
import type { RiskGate } from '../risk/index.js';
import { midOf, type AccountStore, type MarketStore } from '../state/index.js';
import type { StrategyContext } from '../strategy/index.js';
import type { OpenOrderBook } from './open-order-book.js';
import { PositionBook } from './positions.js';
import { withKillSwitchReason } from './forced-exit.js';
import type { EngineRiskView } from './risk-view.js';
import type { StrategyRunner } from './strategy-runner.js';
import { EngineBars, type TapeTrade } from './engine-bars.js';
import { PlotBook } from './plots.js';

export interface EngineDeps {
  readonly clock: { now(): number };
  readonly market: MarketStore;
  readonly account: AccountStore;
  readonly gate: RiskGate;
  readonly riskView: EngineRiskView;
  readonly journal: JournalStore;
  /** Our open orders from approval until closed: what `max_open_orders` and `ctx.account.openOrders()` count. */
  readonly openOrders: OpenOrderBook;
  readonly executors: { readonly orders: OrderExecutor; readonly quotes: QuoteExecutor; readonly transfers: TransferExecutor };
  readonly strategies: readonly StrategyRunner[];
  /** Each strategy's own positions (`ctx.position`); the kernel passes its own, an engine made alone keeps one. */
  readonly positions?: PositionBook;
  readonly log?: Logger;
  /** Called with every decision (the live panel shows recent ones). */
  readonly onDecision?: (d: Decision) => void;
  /** Arms a timer at each bar's end on this clock (live and paper runs; a backtest ticks itself). */
  readonly barTimer?: Pick<Clock, 'now' | 'setTimeout'>;
  /** Where `ctx.plot` records (the kernel passes its own; an engine made alone keeps a live-bounded one). */
  readonly plots?: PlotBook;
}

type Item =
  | { readonly kind: 'event'; readonly event: MarketEvent }
  | { readonly kind: 'report'; readonly report: ExecReport }
  | { readonly kind: 'tick'; readonly at: number }
  | { readonly kind: 'trades'; readonly market: string; readonly trades: readonly TapeTrade[] };

/**
 * The engine: one queue of market events and execution reports, each run to completion in order —
 * stores, then strategies, then the risk gate, then the journal, then the executors (whose work is
 * asynchronous and reports back through the same queue). Identical in live, paper and backtest runs.
 */
export class Engine {
  private readonly queue: Item[] = [];
  private draining = false;
  private readonly inflight = new Set<Promise<void>>();
  private readonly owners = new Map<string, StrategyRunner>();
  private accepting = true;
  private warming = false;
  /** Intents dropped on warm-up per strategy, while a warm-up runs. */
  private warmDropped: Map<StrategyRunner, number> | undefined;
  private readonly contexts = new Map<StrategyRunner, StrategyContext>();
  private lastRunner: StrategyRunner | undefined;
  private lastContext: StrategyContext | undefined;
  readonly counters = { events: 0, reports: 0, intents: 0, approved: 0, denied: 0 };
  private readonly positions: PositionBook;
  /** The declared bar series of every strategy (undefined when none declares any). */
  private readonly bars: EngineBars | undefined;
  /** The series the strategies plot (`ctx.plot`). */
  readonly plots: PlotBook;
  /** Hears every declared bar as it closes after the warm-up (a backtest's report keeps its candles). */
  private barWatch: ((bar: Bar) => void) | undefined;

  constructor(private readonly deps: EngineDeps) {
    this.plots = deps.plots ?? new PlotBook();
    this.positions =
      deps.positions ??
      new PositionBook({
        journal: deps.journal,
        mode: 'per_strategy',
        markets: new Map(deps.strategies.map((s) => [s.name, s.markets])),
        mid: (m) => midOf(deps.market.snapshot(m)),
        total: (a) => deps.account.total(a),
        snapshot: (m) => deps.market.snapshot(m),
      });
    const feed = new BarFeed(deps.strategies.flatMap((s) => s.barNeeds));
    const timer = deps.barTimer && { clock: deps.barTimer, tick: () => this.tick(deps.barTimer!.now()) };
    this.bars = feed.empty ? undefined : new EngineBars(feed, (bars) => this.deliverBars(bars), timer);
  }

  /** The bars of every declared series (undefined when no strategy declares any). */
  get barFeed(): BarFeed | undefined {
    return this.bars?.feed;
  }

  /** Closes the bars whose end is at or before `at` (the engine's clock), delivering them to the strategies. */
  tick(at: number): void {
    if (this.bars) this.push({ kind: 'tick', at });
  }

  /** Public trades of `market` (the trades stream), for bars built from trades. */
  onTrades(market: string, trades: readonly TapeTrade[]): void {
    if (this.bars?.feed.inputOf(market) === 'trades' && trades.length > 0) this.push({ kind: 'trades', market, trades });
  }

  /** A bar of `market` starting at `at` from a backtest (an OHLCV file's row; see BarFeed.use). */
  onSourceBar(market: string, at: number, bar: Ohlcv): void {
    this.bars?.feed.bar(market, at, bar);
  }

  /** Calls `listener` with each declared bar as it closes (not those of the warm-up), before the strategies hear it. */
  watchBars(listener: (bar: Bar) => void): void {
    this.barWatch = listener;
  }

  /** Cancels the bar timer (shutdown). */
  stopBars(): void {
    this.bars?.stop();
  }

  /** Feeds a market event (from a market source). */
  onMarketEvent(event: MarketEvent): void {
    if (this.draining) {
      this.queue.push({ kind: 'event', event });
      return;
    }
    // the per-point path of a backtest: run the event at once, without a queue item
    this.draining = true;
    try {
      this.processEvent(event);
      this.runQueue();
    } finally {
      this.draining = false;
    }
  }

  /**
   * Replays historical events through the stores and strategies before going live, so indicators
   * are ready for the first decision. Strategies see `ctx.warmingUp` true meanwhile; whatever they
   * return is dropped before an intent id is taken: nothing made on history is decided, journaled or
   * sent, and no report follows.
   */
  warmUp(events: Iterable<MarketEvent>): number {
    let n = 0;
    const dropped = new Map<StrategyRunner, number>();
    this.setWarming(true);
    this.warmDropped = dropped;
    try {
      for (const event of events) {
        n++;
        if (this.bars) this.bars.closeDue(event.at);
        this.deps.market.apply(event);
        if (this.bars && event.kind === 'price') this.bars.feed.point(event.market, 'history', event.at, event.price);
        for (const s of this.deps.strategies) {
          const made = s.onWarmUpEvent(event, this.contextFor(s));
          if (made > 0) dropped.set(s, (dropped.get(s) ?? 0) + made);
        }
      }
    } finally {
      this.setWarming(false);
      this.warmDropped = undefined;
    }
    for (const [s, count] of dropped) {
      this.deps.log?.info(
        { strategy: s.name, dropped: count },
        `strategy ${s.name} returned ${count} intent(s) on warm-up history: dropped, not sent (a strategy can skip them by checking ctx.warmingUp)`,
      );
    }
    return n;
  }

  /** Feeds an execution report (from executors or the venue). */
  onReport(report: ExecReport): void {
    this.push({ kind: 'report', report });
  }

  /** Number of executor operations still running. */
  get inFlight(): number {
    return this.inflight.size;
  }

  /** Resolves once every executor operation started so far (and those they start) has finished. */
  async drain(): Promise<void> {
    // the tracked promises never reject and leave the set as they settle (see dispatch); one in
    // flight, the usual case in a backtest, is awaited as it is
    while (this.inflight.size > 0) await (this.inflight.size === 1 ? this.inflight.values().next().value! : Promise.all(this.inflight));
  }

  /** Stops accepting new intents (shutdown or kill switch); cancels still go through. */
  stopIntents(): void {
    this.accepting = false;
  }

  private push(item: Item): void {
    this.queue.push(item);
    if (this.draining) return;
    this.draining = true;
    try {
      this.runQueue();
    } finally {
      this.draining = false;
    }
  }

  private runQueue(): void {
    if (this.queue.length === 0) return;
    for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) this.process(next);
  }

  private processEvent(event: MarketEvent): void {
    this.counters.events++;
    const bars = this.bars;
    // a bar closes before the point at or after its end joins the bars (it never holds what came later),
    // and reaches the strategies once that point is the market's state: a decision at the boundary
    // sees the market as of its own time, as a live run's does, not as of the bar's last point
    const closed = bars?.feed.closeDue(event.at);
    this.deps.market.apply(event);
    if (closed !== undefined && closed.length > 0) this.deliverBars(closed);
    if (bars !== undefined && event.kind === 'price') {
      bars.feed.point(event.market, 'points', event.at, event.price);
      bars.arm();
    }
    const strategies = this.deps.strategies;
    for (let i = 0; i < strategies.length; i++) {
      const s = strategies[i]!;
      const intents = s.onEvent(event, this.contextFor(s));
      if (intents) this.handleIntents(s, intents);
    }
  }

  private process(item: Item): void {
    if (item.kind === 'event') {
      this.processEvent(item.event);
      return;
    }
    if (item.kind === 'tick' || item.kind === 'trades') {
      this.bars!.input(item.kind === 'tick' ? item.at : this.deps.clock.now(), item.kind === 'trades' ? item : undefined);
      return;
    }
    this.counters.reports++;
    const r = item.report;
    this.trackReport(r);
    const owner = this.owners.get(r.refId);
    // nothing more will be reported for a denied, rejected or failed intent (it never reached the
    // venue), an order's last fill (orderDone) or a settled quote execution: its owner is forgotten, so
    // a long run does not grow this map with every order it ever made
    if (
      r.kind === 'denied' ||
      r.kind === 'rejected' ||
      r.kind === 'failed' ||
      (r.kind === 'filled' && r.orderDone === true) ||
      (r.kind === 'quote-executed' && r.settled)
    )
      this.owners.delete(r.refId);
    if (owner) {
      const intents = owner.onReport(r, this.contextFor(owner));
      if (intents) this.handleIntents(owner, intents);
    }
  }

  /** Closed bars to the strategies that declared them, in the feed's order; on warm-up, what they return is dropped. */
  private deliverBars(closed: readonly Bar[]): void {
    const strategies = this.deps.strategies;
    for (const bar of closed) {
      if (this.barWatch !== undefined && this.warmDropped === undefined) this.barWatch(bar);
      for (const s of strategies) {
        if (!s.declares(bar.market, bar.timeframe)) continue;
        if (this.warmDropped !== undefined) {
          const made = s.onWarmUpBar(bar, this.contextFor(s));
          if (made > 0) this.warmDropped.set(s, (this.warmDropped.get(s) ?? 0) + made);
          continue;
        }
        const intents = s.onBar(bar, this.contextFor(s));
        if (intents) this.handleIntents(s, intents);
      }
    }
  }

  /**
   * Makes the running strategy instance named `strategy` the owner of an order this run did not make
   * (one adopted at start), so it hears that order's reports; a name no running instance has owns nothing.
   */
  /** Intents whose strategy still hears their reports (orders open or not known to be done). */
  get ownedIntents(): number {
    return this.owners.size;
  }

  /**
   * Sends intents made for a running strategy from outside it (an operator's forced exit): decided by
   * the gate, journaled and sent like the strategy's own, and their reports go to the strategy.
   * False when no running instance has that name.
   */
  submit(strategy: string, intents: readonly Intent[]): boolean {
    const owner = this.deps.strategies.find((s) => s.name === strategy);
    if (!owner) return false;
    this.handleIntents(owner, intents);
    return true;
  }

  own(refId: string, strategy: string): void {
    const owner = this.deps.strategies.find((s) => s.name === strategy);
    if (owner) this.owners.set(refId, owner);
  }

  private handleIntents(strategy: StrategyRunner, intents: readonly Intent[]): void {
    for (const made of intents) {
      const intent = withKillSwitchReason(made, this.deps.gate.killSwitch.causes);
      this.counters.intents++;
      const decision: Decision =
        !this.accepting && intent.kind !== 'cancel-order'
          ? {
              kind: 'deny',
              intent,
              at: this.deps.clock.now(),
              reason: { code: 'HALTED', message: 'the engine is shutting down', details: {} },
            }
          : this.deps.gate.decide(intent);
      // an approved order's decision is journaled by its executor, together with the "sent" mark
      if ((decision.kind === 'deny' || intent.kind !== 'place-order') && !this.journaled(decision)) continue;
      this.deps.onDecision?.(decision);
      this.owners.set(intent.intentId, strategy);
      if (decision.kind === 'deny') {
        this.counters.denied++;
        // the strategy hears of the denial as its own report, apart from a venue's refusal
        this.push({ kind: 'report', report: { kind: 'denied', refId: intent.intentId, reason: decision.reason, at: decision.at } });
        continue;
      }
      this.counters.approved++;
      this.deps.riskView.reserve(intent);
      if (intent.kind === 'place-order') this.deps.openOrders.add(intent);
      this.dispatch(intent, decision);
    }
  }

  /**
   * Journals a decision the engine records itself; false when the journal refused it (a failed disk:
   * the run's journal watch halts trading): nothing is sent for it, and the event or report that made
   * it is not lost to the other strategies.
   */
  private journaled(decision: Decision): boolean {
    try {
      this.deps.journal.recordDecision(decision);
      return true;
    } catch (e) {
      if (!isJournalFileFailure(e)) throw e;
      this.deps.log?.error(
        { refId: decision.intent.intentId },
        `the journal refused ${decision.intent.intentId}'s decision (${e instanceof Error ? e.message : String(e)}): nothing is sent for it`,
      );
      return false;
    }
  }

  private dispatch(intent: Intent, decision: Decision): void {
    const ex = this.deps.executors;
    let p: Promise<void>;
    switch (intent.kind) {
      case 'place-order':
        p = ex.orders.place(intent, decision);
        break;
      case 'cancel-order':
        p = ex.orders.cancel(intent);
        break;
      case 'execute-quote':
        p = ex.quotes.execute(intent);
        break;
      case 'transfer':
        p = ex.transfers.transfer(intent);
        break;
      default:
        return assertNever(intent);
    }
    // one promise per operation: it leaves the in-flight set as it settles, and never rejects
    const tracked: Promise<void> = p.then(
      () => {
        this.inflight.delete(tracked);
      },
      (e: unknown) => {
        this.inflight.delete(tracked);
        this.deps.log?.error({ refId: intent.intentId, err: e }, 'executor failed unexpectedly');
      },
    );
    this.inflight.add(tracked);
  }

  private trackReport(r: ExecReport): void {
    const view = this.deps.riskView;
    switch (r.kind) {
      case 'accepted':
      case 'filled':
      case 'quote-executed':
      case 'transferred': // held until balances after it arrive
        view.release(r.refId, r.at);
        return;
      case 'cancelled':
      case 'rejected':
      case 'failed':
        view.release(r.refId, r.at, true);
        return;
      case 'denied': // denied before anything was reserved
      case 'unresolved':
        return;
      default:
        return assertNever(r);
    }
  }

  private contextFor(s: StrategyRunner): StrategyContext {
    // the usual run has one strategy: its context without a map lookup per event
    if (s === this.lastRunner) return this.lastContext!;
    let ctx = this.contexts.get(s);
    if (!ctx) {
      ctx = this.buildContext(s);
      this.contexts.set(s, ctx);
    }
    this.lastRunner = s;
    this.lastContext = ctx;
    return ctx;
  }

  private buildContext(s: StrategyRunner): StrategyContext {
    const { market, account, clock, openOrders, riskView } = this.deps;
    const plot = this.plots.recorder(s.name);
    const ctx = {
      now: () => clock.now(),
      warmingUp: false,
      market: (m) => market.snapshot(m),
      history: (m) => market.history(m),
      bars: (m, tf) => {
        const series = s.declares(m, tf) ? this.bars?.feed.series(m, tf) : undefined;
        if (series === undefined)
          throw new Error(`strategy ${s.name} declared no ${tf} bars of ${m}: add { market: '${m}', timeframe: '${tf}' } to its bars`);
        return series;
      },
      instrument: (m) => {
        const i = riskView.instrument(m);
        if (i === undefined) throw new Error(`no instrument for ${m}: the venue does not list this market (see ListMarkets)`);
        return i;
      },
      account: {
        available: (a) => account.available(a),
        total: (a) => account.total(a),
        openOrders: (m?: MarketSymbol) => openOrders.list().filter((o) => o.strategy === s.name && (m === undefined || o.market === m)),
      },
      intentIdOf: (d) => (typeof d === 'object' && d !== null ? s.intentIdOf(d) : undefined),
      position: (m) => this.positions.view(s.name, m),
      keepExitLevels: (m, levels) => this.positions.keepExitLevels(s.name, m, levels),
      plot: (m, name, value) => plot(m, name, clock.now(), value),
    } satisfies StrategyContext;
    return warmingUp(ctx, this.warming);
  }

  /** Starts or ends a warm-up: every strategy's `ctx.warmingUp` says so from now on. */
  private setWarming(on: boolean): void {
    this.warming = on;
    for (const ctx of this.contexts.values()) warmingUp(ctx, on);
  }
}

/**
 * Sets `ctx.warmingUp`: a read-only property (a strategy's assignment throws, as to a getter), made
 * again only when a warm-up starts or ends. Read at every point by the position helpers, a plain value
 * costs less than a getter's call.
 */
function warmingUp(ctx: StrategyContext, on: boolean): StrategyContext {
  return Object.defineProperty(ctx, 'warmingUp', { value: on, writable: false, enumerable: true, configurable: true });
}
