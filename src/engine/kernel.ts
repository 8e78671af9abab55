import type { Observable, Subscription } from 'rxjs';
import type { Clock } from '../clock/index.js';
import type { Dec, Decision, ExecReport } from '../core/index.js';
import {
  errorMessage,
  FillTracker,
  isJournalFileFailure,
  OrderExecutor,
  QuoteExecutor,
  Reconciler,
  TransferExecutor,
  type ExecContext,
  type JournalStore,
} from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { RiskGate, type HaltCause, type HaltKind, type RiskLimits, type StrategyPause } from '../risk/index.js';
import { AccountStore, MarketStore, midOf, type AccountEvent } from '../state/index.js';
import { HotStream } from '../state/hot-stream.js';
import type { MarketSource, Venue, VenueOrder } from '../venue/index.js';
import { cancelOrders, DEFAULT_CANCEL_TIMEOUT_MS, type CancelAllResult } from './cancel-all.js';
import { Engine } from './engine.js';
import { useBarInputs } from './engine-bars.js';
import { IntentIds } from './intent-ids.js';
import { OpenOrderBook } from './open-order-book.js';
import { Allocations } from './allocations.js';
import { forcedExitIntents, type ForcedExit } from './forced-exit.js';
import { PlotBook } from './plots.js';
import { PositionBook, unassignedNote, type StartHolding } from './positions.js';
import { EngineRiskView } from './risk-view.js';
import type { StrategyRunner } from './strategy-runner.js';
import { pauseStrategy, restorePauses, resumeStrategy } from './strategy-pauses.js';
import { DEFAULT_TRANSFER_LIMITS_REFRESH_MS, MetadataFeed, type VenueMetadata } from './venue-metadata.js';

/** The ports every mode passes; live, paper and backtest differ only in these (and the fill model behind the venue). */
export interface KernelPorts {
  readonly clock: Pick<Clock, 'now' | 'setTimeout'>;
  readonly venue: Venue;
  readonly journal: JournalStore;
  readonly log?: Logger;
}

export interface KernelOptions {
  readonly limits: RiskLimits;
  /** Builds the strategy runners once the intent ids are known (ids continue the journal's). */
  readonly strategies: (ids: IntentIds) => readonly StrategyRunner[];
  readonly refPrefix: string;
  /** Market store: data older than this is stale; bounded price history per market. */
  readonly staleAfterMs?: number;
  readonly historyCapacity?: number;
  /** `strategies[].allocation` by strategy name: an amount of the quote asset, or a share ("25%") of its balance at start (a map given, even empty, turns the check on: a live run fills it once its runners are named). */
  readonly allocations?: ReadonlyMap<string, string>;
  /** Fills are read from this time on (a live run looks a day back, a backtest from its first point). */
  readonly fillsSinceMs: number;
  /** Passed to the executors' context (see ExecContext). */
  readonly exec?: Partial<Pick<ExecContext, 'lateWriteMs' | 'crash'>>;
  /** Where instruments and transfer limits are read (default: the venue, as in every mode). */
  readonly metadata?: VenueMetadata;
  /** How often transfer limits are read again (default 60 s; also after every transfer). */
  readonly transferLimitsRefreshMs?: number;
  /** When the periodic re-read runs (see MetadataFeedDeps.refresh; default `always`). */
  readonly transferLimitsRefresh?: 'always' | 'after-transfers';
  /**
   * Close declared bars on a timer at each bar's end (live and paper runs). A backtest leaves it off
   * and ticks at each boundary between its points itself (`engine.tick`), on its test clock.
   */
  readonly barTimer?: boolean;
  /** Points kept per plotted series (`ctx.plot`): the latest 2,000 by default (live), Infinity in a backtest, 0 for none. */
  readonly plotPoints?: number;
  /** How many points a plotted series may get, when they are all kept (a backtest's point count: see PlotBookOptions.expectedPoints). */
  readonly plotExpected?: number;
  /** A backtest's replay source: balances arrive synchronously after the reports of their time (see EngineRiskView). */
  readonly replay?: boolean;
  /** Balances made strategies' own with the first balances (a backtest's; see PositionBookDeps.startHoldings). */
  readonly startHoldings?: ReadonlyArray<StartHolding>;
}

/**
 * The trading core, built in this one place for every mode: market and account stores, the risk
 * view and gate, the executors, fill tracker and reconciler, the open-order book and the engine.
 * Live and paper runs (`LiveRun`) and backtests (`backtest/driver.ts`) differ only in the ports they
 * pass and in what they do around it (reconcile before trading, timers and shutdown live; stepping
 * the points in a backtest); they watch it through `decisions$` and `reports$` and keep no state in it.
 *
 * Executors report into a queue the kernel owns (`reports$`), which the engine consumes: the
 * engine↔executor cycle is broken here rather than by a late-bound reference.
 */
export class Kernel {
  readonly market: MarketStore;
  readonly account: AccountStore;
  readonly riskView: EngineRiskView;
  readonly gate: RiskGate;
  readonly engine: Engine;
  readonly strategies: readonly StrategyRunner[];
  readonly orders: OrderExecutor;
  readonly quotes: QuoteExecutor;
  readonly transfers: TransferExecutor;
  readonly fills: FillTracker;
  readonly reconciler: Reconciler;
  readonly openOrders: OpenOrderBook;
  /** Each strategy's own position per market, from its own fills (see PositionBook). */
  readonly positions: PositionBook;
  /** Capital per strategy (see Allocations). */
  readonly allocations: Allocations;
  /** The indicator series the strategies plot (`ctx.plot`), for the dashboard and the report. */
  readonly plots: PlotBook;
  private readonly ids: IntentIds;
  // called for every report and decision: plain loops over their subscribers (see HotStream)
  private readonly reports = new HotStream<ExecReport>();
  private readonly decisions = new HotStream<Decision>();
  private readonly subs: Subscription[] = [];
  private readonly sourceSubs: Subscription[] = [];
  private readonly cancelAsked = new Set<string>();
  private readonly pending = new Set<Promise<void>>();
  private metadata: MetadataFeed | undefined;
  /** Orders open (or in flight) when trading was halted: cancelled as soon as each can be. */
  private readonly haltCancels = new Set<string>();

  constructor(
    private readonly ports: KernelPorts,
    private readonly options: KernelOptions,
  ) {
    const { clock, venue, journal, log } = ports;
    this.market = new MarketStore(clock, {
      staleAfterMs: options.staleAfterMs ?? options.limits.stale_after_ms,
      ...(options.historyCapacity !== undefined && { historyCapacity: options.historyCapacity }),
    });
    this.account = new AccountStore(clock);
    this.openOrders = new OpenOrderBook(journal);
    this.riskView = new EngineRiskView(clock, this.market, this.account, options.limits.fee_bps, this.openOrders, options.replay === true);
    const ownership = {
      restricted: (m: string) => this.positions.restricted(m),
      ownSellable: (s: string, m: string) => this.positions.ownSellable(s, m),
    };
    const allocations = (this.allocations = new Allocations(options.allocations ?? new Map(), {
      costOf: (s, q) => this.positions.costOf(s, q),
      total: (a) => this.account.total(a),
      market: this.market,
    }));
    this.gate = new RiskGate(
      options.limits,
      this.riskView,
      log?.child({ component: 'risk' }),
      ownership,
      options.allocations !== undefined ? allocations : undefined,
    );
    const ids = (this.ids = new IntentIds(
      options.refPrefix,
      IntentIds.lastOf(
        options.refPrefix,
        journal.intents().map((r) => r.refId),
      ),
    ));
    this.strategies = options.strategies(ids);
    this.plots = new PlotBook({
      ...(options.plotPoints !== undefined && { capacity: options.plotPoints }),
      ...(options.plotExpected !== undefined && { expectedPoints: options.plotExpected }),
      styles: new Map(this.strategies.map((s) => [s.name, s.definition.plots])),
    });
    restorePauses(
      journal,
      this.gate.pauses,
      this.strategies.map((s) => s.name),
      log,
    );
    this.positions = new PositionBook({
      journal,
      mode: options.limits.positions ?? 'per_strategy',
      markets: new Map(this.strategies.map((s) => [s.name, s.markets])),
      mid: (m) => midOf(this.market.snapshot(m)),
      total: (a) => this.account.total(a),
      snapshot: (m) => this.market.snapshot(m),
      ...(options.startHoldings && { startHoldings: options.startHoldings }),
    });
    const ctx: ExecContext = {
      venue,
      journal,
      clock,
      ...(log && { log: log.child({ component: 'exec' }) }),
      emit: (r) => this.reports.next(r),
      ...options.exec,
    };
    this.orders = new OrderExecutor(ctx);
    this.quotes = new QuoteExecutor(ctx, options.limits.min_quote_time_left_ms);
    this.transfers = new TransferExecutor(ctx);
    this.fills = new FillTracker(ctx, options.fillsSinceMs);
    this.reconciler = new Reconciler(ctx, { orders: this.orders, quotes: this.quotes, transfers: this.transfers, fills: this.fills });
    this.engine = new Engine({
      clock,
      market: this.market,
      account: this.account,
      gate: this.gate,
      riskView: this.riskView,
      journal,
      openOrders: this.openOrders,
      executors: { orders: this.orders, quotes: this.quotes, transfers: this.transfers },
      strategies: this.strategies,
      positions: this.positions,
      plots: this.plots,
      ...(options.barTimer === true && { barTimer: clock }),
      ...(log && { log: log.child({ component: 'engine' }) }),
      onDecision: (d) => {
        this.positions.onDecision(d);
        this.allocations.onDecision(d);
        this.decisions.next(d);
      },
    });
    // the engine hears every report first, then the observers (panel, summary, backtest report)
    this.subs.push(
      this.reports.subscribe((r) => {
        // the order executor accepts an order only under the ref_id the venue gives it: its fills are ours
        if (r.kind === 'accepted') this.fills.confirm(r.orderId, r.refId);
        this.openOrders.onReport(r);
        // a strategy's position moves on the fill report itself, before it hears of it
        this.positions.onReport(r);
        this.allocations.onReport(r);
        this.engine.onReport(r);
        // the engine's risk view has settled a transfer's spend of the limits: read them again
        if (
          r.kind === 'transferred' ||
          ((r.kind === 'rejected' || r.kind === 'failed') &&
            journal.facts(r.refId) !== undefined &&
            journal.get(r.refId)?.kind === 'transfer')
        )
          this.metadata?.refreshSoon();
      }),
    );
    this.openOrders.seed();
  }

  /** Whether executor work or a cancel-all is still running (a backtest awaits `drain` then). */
  get busy(): boolean {
    return this.engine.inFlight > 0 || this.pending.size > 0;
  }

  /** Resolves once every executor operation and cancel-all started so far (and what they start) has finished. */
  async drain(): Promise<void> {
    // the usual case (a backtest's intent at a point): only executor work, awaited without a list
    // of the kernel's own (whose promises never reject: see `track`)
    while (this.busy) await (this.pending.size === 0 ? this.engine.drain() : Promise.all([this.engine.drain(), ...this.pending]));
  }

  /**
   * Starts reading what the gate checks besides market data from the venue, in every mode: the
   * instruments (tick, decimals, caps; strategies read them through `ctx.instrument`) and the transfer
   * limits, read again on the refresh period and after every transfer. Resolves after the first reads;
   * a failed read never throws (the platform catalog's instruments stay in force meanwhile).
   */
  async startMetadata(): Promise<void> {
    if (this.metadata) return;
    const markets = [...new Set(this.strategies.flatMap((s) => [...s.markets]))];
    const { clock, venue, log } = this.ports;
    const source = this.options.metadata ?? venue;
    this.metadata = new MetadataFeed({
      source,
      view: this.riskView,
      clock,
      markets,
      refreshMs: this.options.transferLimitsRefreshMs ?? DEFAULT_TRANSFER_LIMITS_REFRESH_MS,
      ...(log && { log: log.child({ component: 'metadata' }) }),
      track: (p) => this.track(p),
      refresh: this.options.transferLimitsRefresh ?? 'always',
    });
    await this.metadata.start();
  }

  /** Ends the metadata refreshes (shutdown). */
  stopMetadata(): void {
    this.metadata?.stop();
  }

  /** Every risk decision, approved or denied, as the engine makes it. */
  get decisions$(): Observable<Decision> {
    return this.decisions;
  }

  /** Every execution report, after the engine has taken it. */
  get reports$(): Observable<ExecReport> {
    return this.reports;
  }

  /**
   * Feeds the kernel from a market source: events into the engine, account state into the stores,
   * fills into the tracker and order updates into the order executor. The same wiring in every mode.
   */
  attach(source: MarketSource): void {
    const subs = this.sourceSubs;
    subs.push(source.events$.subscribe((e) => this.engine.onMarketEvent(e)));
    subs.push(source.account$.subscribe((e) => this.unlessJournalFailed(() => this.applyAccount(e))));
    if (source.fills$) subs.push(source.fills$.subscribe((fills) => this.unlessJournalFailed(() => this.fills.ingest(fills))));
    if (source.orders$) subs.push(source.orders$.subscribe((orders) => this.unlessJournalFailed(() => this.applyOrders(orders))));
    if (source.trades$) subs.push(source.trades$.subscribe((t) => this.engine.onTrades(t.market, t.trades)));
  }

  /** What each market's bars are built from (see `useBarInputs`): one line per market for the run's header. */
  barInputs(source: Pick<MarketSource, 'trades$'>, tradesStream: boolean): string[] {
    return useBarInputs(this.engine.barFeed, this.strategies, tradesStream && source.trades$ !== undefined);
  }

  /**
   * Runs `apply` (journaling what a stream brought); a journal that refuses the write (a failed disk)
   * is logged, not thrown into the stream, where it would end the process: the journal has told its
   * listeners (a live run halts on it), and the stream's next poll brings the facts again.
   */
  private unlessJournalFailed(apply: () => void): void {
    try {
      apply();
    } catch (e) {
      if (!isJournalFileFailure(e)) throw e;
      this.ports.log?.warn(`the journal could not record what the venue reported (${errorMessage(e)})`);
    }
  }

  /** Stops listening to the sources attached (the kernel's state stays readable). */
  detach(): void {
    for (const s of this.sourceSubs.splice(0)) s.unsubscribe();
  }

  /**
   * Account state from the venue. Orders the venue lists open that are not ours (another client on
   * the profile) count toward `max_open_orders` too: the limit caps what rests at the venue.
   */
  applyAccount(e: AccountEvent): void {
    this.account.apply(e);
    if (e.kind === 'balances') {
      this.noteUnassigned(
        this.positions.onBalances(
          e.items.map((b) => b.asset),
          this.ports.clock.now(),
        ),
      );
      this.allocations.onBalances(e.items.map((b) => b.asset));
    }
    if (e.kind !== 'open-orders') return;
    let foreign = 0;
    for (const o of e.orders) if (!this.openOrders.has(o.refId) && this.ports.journal.facts(o.refId) === undefined) foreign++;
    this.riskView.setForeignOpenOrders(foreign);
  }

  /** The start says which balances belong to no strategy (a deposit, a holding adopted from an earlier run). */
  private noteUnassigned(found: ReadonlyArray<{ readonly asset: string; readonly amount: Dec }> | undefined): void {
    if (found?.length)
      this.ports.log?.info(
        { unassigned: Object.fromEntries(found.map((f) => [f.asset, f.amount.toFixed()])) },
        unassignedNote(found, this.positions.mode),
      );
  }

  /** The venue's view of our orders (status, amount filled), applied through the order executor. */
  applyOrders(orders: readonly VenueOrder[]): void {
    for (const o of orders) if (this.ports.journal.facts(o.refId) !== undefined) this.orders.applyOrder(o.refId, o, 'status');
  }

  /**
   * Marks equity for the kill switch. When this observation trips it, new intents are halted (orders
   * that only reduce a position still pass) and every open order is cancelled: the same in every mode.
   * Returns the trip reason when it tripped now.
   */
  markEquity(equity: Dec, at: number): string | undefined {
    const tripped = this.gate.killSwitch.observe(equity, at);
    if (tripped) this.onHalt(`kill switch: ${tripped}`);
    return tripped;
  }

  /**
   * Halts new intents for a cause (an operator's by default; a ref_id conflict, ...), cancelling the
   * open orders as a trip on equity does. With `allowReducing: false` (the run can no longer trust its
   * own ids) nothing new is sent at all. A cause already active keeps its first reason.
   */
  halt(reason: string, options: { readonly allowReducing?: boolean; readonly kind?: HaltKind } = {}): void {
    if (this.gate.killSwitch.trip(reason, { ...options, at: this.ports.clock.now() })) this.onHalt(`halted: ${reason}`);
  }

  /**
   * Orders open when trading halted, and those still in flight then, are cancelled as soon as each has
   * a venue id (call this after following the venue; a no-op when nothing is left). Orders made after
   * the halt (reductions of a position) are not touched: a halt must never trap a position.
   */
  cancelHalted(): void {
    if (this.haltCancels.size === 0) return;
    for (const ref of this.haltCancels) if (!this.openOrders.has(ref)) this.haltCancels.delete(ref);
    // among the kernel's work (see `drain`), so a caller following the venue is not held while they retry
    if (this.haltCancels.size > 0) this.track(this.cancelAll(this.haltCancels).then(() => undefined));
  }

  private onHalt(why: string): void {
    this.ports.log?.error(`${why}; cancelling open orders and halting new intents (orders that only reduce a position still go)`);
    for (const o of this.openOrders.list()) this.haltCancels.add(o.refId);
    this.cancelHalted();
  }

  /** Keeps `p` among the kernel's work in flight (see `busy` and `drain`). */
  private track(p: Promise<void>): void {
    // one promise per piece of work: it leaves `pending` as it settles, and never rejects
    const t: Promise<void> = p.then(
      () => {
        this.pending.delete(t);
      },
      (e: unknown) => {
        this.pending.delete(t);
        this.ports.log?.error({ err: e }, 'kernel work failed unexpectedly');
      },
    );
    this.pending.add(t);
  }

  /**
   * Cancels every order the journal holds open (or those of `only`), straight at the venue, and
   * confirms each by reading it back until the venue says it is closed (see `cancelOrders`): in
   * parallel, a failed cancel sent again while a read proves it did not run, for at most `timeoutMs`.
   * The journal, the stores and the strategies learn each close from the read (a `cancelled` report).
   * The exit and the kill switch both use it. An order already being cancelled by an earlier call is
   * left to that call; one still in flight (no venue id yet) is picked up by a later call.
   * Returns which orders closed and which are still open (ref_ids).
   */
  async cancelAll(only?: ReadonlySet<string>, timeoutMs = DEFAULT_CANCEL_TIMEOUT_MS): Promise<CancelAllResult> {
    const { journal, venue, clock, log } = this.ports;
    const rows = journal
      .intents({ state: 'open', kind: 'place-order' })
      .filter((r) => r.venueId !== null && !this.cancelAsked.has(r.refId) && (only === undefined || only.has(r.refId)));
    for (const r of rows) this.cancelAsked.add(r.refId);
    try {
      return await cancelOrders({ venue, clock, orders: this.orders, ...(log && { log }) }, rows, timeoutMs);
    } finally {
      for (const r of rows) this.cancelAsked.delete(r.refId);
    }
  }

  /**
   * Follows orders as ours that this run did not make (orphans found at start): each counts as open
   * until closed, and its reports go to the strategy the journal names when that strategy runs.
   */
  adopt(refIds: readonly string[]): void {
    for (const ref of refIds) {
      const row = this.ports.journal.get(ref);
      if (row?.intent.kind !== 'place-order') continue;
      if (!this.openOrders.has(ref)) this.openOrders.add(row.intent);
      this.engine.own(ref, row.strategy);
    }
  }

  /** New intent ids go on past every one of `refIds` (ours found at the venue after start), so none is reused. */
  idsPast(refIds: readonly string[]): void {
    this.ids.skipPast(IntentIds.lastOf(this.ids.prefix, refIds));
  }

  /** Halts new intents for a cause (an operator's by default) and leaves every open order as it is (an operator decides what to do with them). */
  haltKeepingOrders(reason: string, kind: HaltKind = 'operator'): void {
    if (this.gate.killSwitch.trip(reason, { kind, at: this.ports.clock.now() }))
      this.ports.log?.error(`halted: ${reason}; open orders are left as they are`);
  }

  /**
   * Lifts the halt causes of `kinds` (an operator's resume) and returns those lifted; the others hold.
   * Once nothing holds, new intents pass again and orders still waiting to be cancelled for the halt
   * are left alone. Which causes may be lifted is the caller's decision (the control API lifts a
   * kill-switch trip only when asked explicitly, and never a cause that needs a restart).
   */
  resume(kinds: Iterable<HaltKind>): HaltCause[] {
    const lifted = this.gate.killSwitch.lift(kinds);
    if (lifted.length === 0) return lifted;
    const still = this.gate.killSwitch.tripped;
    if (still === undefined) this.haltCancels.clear();
    this.ports.log?.warn(
      `lifted by an operator: ${lifted.map((c) => c.reason).join('; ')}${still === undefined ? '; trading resumed' : `; trading stays halted: ${still}`}`,
    );
    return lifted;
  }

  /**
   * An operator's forced exit of `strategy` (in `market`, else every market it trades): a MARKET sell
   * of its own position in each, through the gate like any reducing order (see forcedExitIntents).
   * Undefined when no running strategy has that name.
   */
  forceExit(strategy: string, market?: string): ForcedExit | undefined {
    const runner = this.strategies.find((s) => s.name === strategy);
    if (!runner) return undefined;
    const markets = market === undefined ? [...runner.markets] : [market];
    const { intents, empty } = forcedExitIntents(
      { positions: this.positions, instrument: (m) => this.riskView.instrument(m), nextId: () => this.ids.next() },
      strategy,
      markets,
    );
    const decided = new Map<string, Decision>();
    const sub = this.decisions.subscribe((d) => decided.set(d.intent.intentId, d));
    try {
      this.engine.submit(strategy, intents);
    } finally {
      sub.unsubscribe();
    }
    this.ports.log?.warn({ strategy, markets }, `forced exit of ${strategy} by an operator: ${intents.length} sell(s)`);
    const exits = intents.map((i) => ({
      market: (i as { market: string }).market,
      amount: (i as { baseAmount: string }).baseAmount,
      ...(decided.get(i.intentId) && { decision: decided.get(i.intentId)! }),
    }));
    return { strategy, exits: [...exits, ...empty.map((e) => ({ market: e.market, amount: '0', note: e.note }))] };
  }

  /** Pauses one strategy (see StrategyPauses), journaled so a restart keeps it; false when it was paused already. */
  pauseStrategy(strategy: string, reason: string): boolean {
    return pauseStrategy(this.ports, this.gate.pauses, strategy, reason);
  }

  /** Lifts one strategy's pause (journaled); the pause lifted, or undefined when it was not paused. */
  resumeStrategy(strategy: string): StrategyPause | undefined {
    return resumeStrategy(this.ports, this.gate.pauses, strategy);
  }

  /** Unsubscribes everything (the journal is the caller's to close). */
  close(): void {
    this.stopMetadata();
    this.engine.stopBars();
    this.detach();
    for (const s of this.subs.splice(0)) s.unsubscribe();
    this.reports.complete();
    this.decisions.complete();
  }
}
