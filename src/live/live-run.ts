import type { Subscription } from 'rxjs';
import { sleepOn, type Clock, type TimerHandle } from '../clock/index.js';
import type { Config } from '../config/index.js';
import { assignHoldings, holdingsOf } from './holdings.js';
import { ZERO, type Dec, type Decision, type ExecReport, type MarketSymbol } from '../core/index.js';
import {
  errorMessage,
  type CrashHook,
  type FillTracker,
  type JournalIntentRow,
  type JournalStore,
  type OrderExecutor,
  type QuoteExecutor,
  type ReconcileResult,
  type Reconciler,
  type TransferExecutor,
} from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { RiskGate } from '../risk/index.js';
import { midOf, type AccountStore, type MarketStore } from '../state/index.js';
import { REF_ID_REUSED, type MarketSource, type MarketSubscription, type Venue } from '../venue/index.js';
import type { Engine } from '../engine/engine.js';
import {
  equityOf,
  heldPositions,
  readKillSwitchMarks,
  readStartEquity,
  saveKillSwitchMarks,
  saveStartEquity,
  type StartEquity,
} from './equity.js';
import type { IntentIds } from '../engine/intent-ids.js';
import { Kernel } from '../engine/kernel.js';
import { beforeDeadline } from '../engine/cancel-all.js';
import { describeQuoteExecution, endTally, openOrderViews, orphanViews } from './run-summary.js';
import { Recent, RecentReports, venueUnreachableSince, type RunSummary, type RunView } from './run-view.js';
import type { StrategyRunner } from '../engine/strategy-runner.js';
import type { VenueMetadata } from '../engine/venue-metadata.js';
import { historyStart } from './orphan-history.js';
import { orphansAtStart, type Orphan } from './orphans.js';
import { JOURNAL_WATCH_MS, JournalFailedError, JournalWatch, type JournalFailure } from './journal-watch.js';
import { warmUpPointsFor, warmUpWithRetry } from '../engine/warm-up.js';

const DAY_MS = 24 * 3_600_000;
/** At exit, a quote execution not settled yet is read again after these pauses (doubling), as exit cancels are. */
const QUOTE_FIRST_READ_MS = 250;
const QUOTE_MAX_READ_MS = 2_000;

export interface LiveRunDeps {
  readonly clock: Clock;
  readonly venue: Venue;
  readonly source: MarketSource;
  readonly journal: JournalStore;
  readonly config: Pick<Config, 'risk' | 'streams' | 'run'> & Partial<Pick<Config, 'strategies'>>;
  readonly environment: string;
  /** Builds the strategy runners once the intent ids are known. */
  readonly strategies: (ids: IntentIds) => readonly StrategyRunner[];
  readonly refPrefix: string;
  readonly log: Logger;
  /** Quote asset equity is measured in. */
  readonly equityAsset?: string;
  /** Where instruments and transfer limits are read (default: the venue itself). */
  readonly metadata?: VenueMetadata;
  /** How often transfer limits are read again (default 60 s; also after every transfer); ticks are read at start. */
  readonly transferLimitsRefreshMs?: number;
  /** The shared request budget's state, when the run uses one (`api.rate_limit_store`). */
  readonly budgetStore?: () => { readonly store: string; readonly unreachableSince?: number; readonly bots: number } | undefined;
  /** TEST-ONLY crash hook handed to the executors (the run command builds it from the environment). */
  readonly crash?: CrashHook;
  /** The journal's file, watched for deletion or replacement during the run (absent: a journal in memory). */
  readonly journalPath?: string;
  /** How often the journal's file is looked at (default JOURNAL_WATCH_MS). */
  readonly journalWatchMs?: number;
}

/**
 * One live or paper run: reconciles the journal with the venue before any new intent, warms the
 * strategies up, then feeds the engine from the market source and follows orders and fills until
 * stopped. Every timer is on the injected clock.
 */
export class LiveRun {
  /** The trading core, built as in every other mode. */
  readonly kernel: Kernel;
  readonly market: MarketStore;
  readonly account: AccountStore;
  readonly gate: RiskGate;
  readonly engine: Engine;
  readonly strategies: readonly StrategyRunner[];
  private readonly fills: FillTracker;
  private readonly orders: OrderExecutor;
  private readonly quotes: QuoteExecutor;
  private readonly transfers: TransferExecutor;
  private readonly reconciler: Reconciler;
  private readonly decisions = new Recent<Decision>(12);
  private readonly reports = new RecentReports(12);
  private readonly subs: Subscription[] = [];
  /**
   * The run's own decisions and reports, followed until the summary is made: the exit's drain,
   * cancels and last fill read report too, and a fill heard only then is as much the run's as any.
   */
  private readonly ownSubs: Subscription[] = [];
  private readonly timers: TimerHandle[] = [];
  private readonly markets: readonly MarketSymbol[];
  /** Each config entry's instance name, in config order (what its allocation and holdings are matched by). */
  private readonly names: readonly string[];
  private readonly startedAt: number;
  private startEquity: StartEquity | undefined;
  /** The kill switch's marks as last kept in the journal (JSON), so they are written only when they change. */
  private savedMarks: string | undefined;
  private stopping: Promise<RunSummary> | undefined;
  private ordersPlaced = 0;
  private fillCount = 0;
  private fees = ZERO;
  private pollFills = true;
  /** Orphans found at start, with what was done to each. */
  private orphans: Orphan[] = [];
  /** The venue's open orders as last streamed: order id → "status/amount filled", and when. */
  private openAtVenue: { readonly at: number; readonly byId: ReadonlyMap<string, string> } | undefined;
  private allStoppedResolve: ((reason: string) => void) | undefined;
  /** Resolves when every strategy has stopped (each threw or returned something not an intent). */
  readonly allStopped: Promise<string>;
  private readonly journalWatch: JournalWatch;
  /** Resolves, with what happened, when the journal failed and trading halted (see `JournalWatch`): the run must stop. */
  readonly journalFailed: Promise<string>;

  constructor(private readonly deps: LiveRunDeps) {
    const { clock, config, journal, venue } = deps;
    this.startedAt = clock.now();
    // filled once the runners exist (below): an entry without a name runs under its plugin's name
    const allocations = new Map<string, string>();
    const k = (this.kernel = new Kernel(
      { clock, venue, journal, log: deps.log },
      {
        limits: config.risk,
        strategies: deps.strategies,
        refPrefix: deps.refPrefix,
        staleAfterMs: config.streams.stale_after_ms,
        historyCapacity: config.streams.history_capacity,
        fillsSinceMs: this.startedAt - DAY_MS,
        barTimer: true,
        allocations,
        ...(deps.crash && { exec: { crash: deps.crash } }),
        ...(deps.metadata && { metadata: deps.metadata }),
        ...(deps.transferLimitsRefreshMs !== undefined && { transferLimitsRefreshMs: deps.transferLimitsRefreshMs }),
      },
    ));
    ({ market: this.market, account: this.account, gate: this.gate, engine: this.engine, strategies: this.strategies } = k);
    this.names = instanceNames(config.strategies ?? [], this.strategies);
    for (const [i, s] of (config.strategies ?? []).entries()) if (s.allocation !== undefined) allocations.set(this.names[i]!, s.allocation);
    ({ orders: this.orders, quotes: this.quotes, transfers: this.transfers, fills: this.fills, reconciler: this.reconciler } = k);
    this.ownSubs.push(k.decisions$.subscribe((d) => this.decisions.push(d)));
    this.ownSubs.push(k.reports$.subscribe((r) => this.onReport(r)));
    this.allStopped = new Promise((resolve) => (this.allStoppedResolve = resolve));
    let failed: (reason: string) => void = () => undefined;
    this.journalFailed = new Promise((resolve) => (failed = resolve));
    this.journalWatch = new JournalWatch({
      clock,
      journal,
      intervalMs: deps.journalWatchMs ?? JOURNAL_WATCH_MS,
      ...(deps.journalPath !== undefined && { path: deps.journalPath }),
      onFailure: (f) => failed(this.haltOnJournal(f)),
    });
    this.journalWatch.listen();
    this.markets = [...new Set(this.strategies.flatMap((s) => [...s.markets]))];
  }

  /** Reconciles, warms up and starts the streams. Refuses to trade when the journal disagrees. */
  async start(subscriptions: readonly MarketSubscription[]): Promise<ReconcileResult> {
    const log = this.deps.log;
    const rec = await this.reconcileUntilAgreed();
    for (const line of rec.repairs) log.info(`reconciled: ${line}`);
    // records of ours the journal lacks (since its first start) are journaled with their fills, and
    // orphans (orders an earlier run left open, or open ones just journaled) are settled, before any new intent
    this.orphans = await orphansAtStart(this.kernel, this.deps, historyStart(this.deps.journal, this.startedAt));
    const foreign = rec.foreignOpenOrders.filter((id) => this.deps.journal.byVenueId(id) === undefined);
    if (foreign.length) log.warn(`${foreign.length} open order(s) at the venue are not ours (no ref_id with our prefix): left alone`);
    // the run's header says what each market's bars are built from; the warm-up fills the longest series
    for (const line of this.kernel.barInputs(this.deps.source, this.deps.config.streams.trades_ms !== undefined)) log.info(line);
    const warmUp = warmUpPointsFor(
      this.deps.config.streams.warmup_points,
      this.strategies.flatMap((s) => s.barNeeds),
    );
    if (warmUp.short !== undefined) log.warn(warmUp.short);
    const [history] = await Promise.all([
      warmUpWithRetry(this.deps.source, this.markets, warmUp.points, this.deps.clock, log),
      this.kernel.startMetadata(),
      this.readBalances(),
    ]);
    const warmed = this.engine.warmUp(history);
    log.info(`warmed up on ${warmed} historical price point(s) for ${this.markets.join(', ')}`);
    // balances held by no strategy that the config assigns: valued at the warm-up's last price unless it says
    try {
      assignHoldings(this.kernel, holdingsOf(this.deps.config.strategies ?? [], this.names), this.deps.clock.now(), log);
    } catch (e) {
      // trading does not start: the metadata refreshes begun above must not hold the process open
      this.kernel.stopMetadata();
      throw e;
    }
    this.captureStartEquity();
    this.restoreMarks();
    // a journal that failed while the run was starting: nothing is fed to the strategies
    if (this.journalWatch.failure) throw new JournalFailedError(this.journalWatch.failure);
    const source = this.deps.source;
    this.kernel.attach(source);
    // the open-orders poll also says which orders need no status read this cycle, and adopts late landings
    this.subs.push(
      source.account$.subscribe((e) => {
        if (e.kind !== 'open-orders') return;
        this.openAtVenue = { at: e.at, byId: new Map(e.orders.map((o) => [o.orderId, `${o.status}/${o.amountFilled.toFixed()}`])) };
        // an order whose write landed after its intent was closed as NOT_PLACED is adopted, not left untracked
        if (e.orders.some((o) => this.deps.journal.get(o.refId)?.status === 'NOT_PLACED')) void this.orders.adoptLate(e.orders);
      }),
    );
    this.pollFills = source.fills$ === undefined;
    source.start(subscriptions);
    this.every(this.deps.config.streams.orders_ms, () => this.follow());
    this.every(5_000, async () => {
      this.markEquity();
      this.deps.journal.checkpoint();
    });
    this.journalWatch.start();
    return rec;
  }

  /** Stops new intents, optionally cancels open orders, drains and flushes; idempotent. */
  stop(reason: string): Promise<RunSummary> {
    this.stopping ??= this.shutdown(reason);
    return this.stopping;
  }

  view(): RunView {
    const now = this.deps.clock.now();
    const balances = [...(this.account.snapshot.balances?.value.values() ?? [])]
      .filter((b) => !b.available.isZero() || !b.trading.isZero())
      .map((b) => ({ asset: b.asset, available: b.available.toFixed(), trading: b.trading.toFixed() }));
    const equity = this.equity();
    const unreachable = venueUnreachableSince(this.deps.source.health());
    const store = this.deps.budgetStore?.();
    return {
      at: now,
      startedAt: this.startedAt,
      environment: this.deps.environment,
      venue: this.deps.venue.name,
      markets: this.markets.map((m) => ({
        market: m,
        mid: midOf(this.market.snapshot(m)),
        stale: this.market.isStale(m),
        ...this.priceDecimals(m),
      })),
      balances,
      equityAsset: this.equityAsset,
      ...(equity && { equity: equity.toFixed() }),
      ...this.equityFields(equity),
      openOrders: openOrderViews(this.deps.journal),
      decisions: this.decisions.list(),
      reports: this.reports.list(),
      counters: { ...this.engine.counters, fills: this.fillCount, orders: this.ordersPlaced },
      ...(this.gate.killSwitch.tripped && { halted: this.gate.killSwitch.tripped }),
      ...(this.journalWatch.failure && { journalFailure: this.journalWatch.failure.reason }),
      stoppedStrategies: this.strategies.filter((s) => s.stopped).map((s) => `${s.name}: ${s.stopped}`),
      orphans: orphanViews(this.orphans),
      ...(unreachable !== undefined && { venueUnreachableSince: unreachable }),
      ...(store?.unreachableSince !== undefined && {
        budgetStoreUnreachable: { since: store.unreachableSince, store: store.store, bots: store.bots },
      }),
    };
  }

  /** Runs after the engine has taken the report (the kernel's report queue serves the engine first). */
  private onReport(r: ExecReport): void {
    this.reports.push(r);
    if (r.kind === 'accepted') this.ordersPlaced++;
    if (r.kind === 'filled') {
      this.fillCount++;
      this.fees = this.fees.plus(r.commission);
      this.deps.log.info(
        { refId: r.refId, market: r.market, side: r.side, amount: r.amount, price: r.price },
        `filled ${r.side} ${r.amount} ${r.market} @ ${r.price}`,
      );
    }
    if (r.kind === 'unresolved') this.deps.log.warn({ refId: r.refId }, `outcome unresolved: ${r.message}`);
    if (r.kind === 'rejected' && r.code === REF_ID_REUSED) this.haltOnForeignRefId(r.refId, r.message);
  }

  /**
   * Our ref_id already names a different record at the venue: another bot shares the prefix, or the
   * journal was replaced. Ids can no longer be trusted, so every new intent is halted, reducing ones
   * too (cancels still go), and the operator is alerted; restarting needs a fresh journal prefix.
   */
  private haltOnForeignRefId(refId: string, message: string): void {
    const reason = `ref_id ${refId} already names a different record at the venue (another bot on this prefix, or a replaced journal?)`;
    // no new write at all, not even a reducing sell: its ref_id could name someone else's record too
    this.kernel.halt(reason, { allowReducing: false, kind: 'ref-id-conflict' });
    this.deps.log.error(
      { alert: 'REF_ID_CONFLICT', refId },
      `ALERT: trading halted: ${reason}: ${message}; use a new journal.path or run.ref_prefix before restarting`,
    );
  }

  /**
   * The journal failed (a write refused, its file deleted or replaced): no intent can be journaled
   * before its request any more, so every new intent is halted at once (reducing ones too; cancels of
   * open orders still go, straight at the venue), the market data stops reaching the strategies, and
   * the run must stop (see `journalFailed`). Resuming is a restart once the cause is fixed.
   */
  private haltOnJournal(f: JournalFailure): string {
    this.kernel.halt(`journal failed: ${f.reason}`, { allowReducing: false, kind: 'journal' });
    this.kernel.detach();
    this.deps.log.error(
      { alert: 'JOURNAL_FAILED', kind: f.kind },
      `ALERT: trading halted: ${f.reason}; the run stops (exit code 5); fix the cause, then start again`,
    );
    return `journal failed: ${f.reason}`;
  }

  /** Balances before the first live price, so the first intents are not denied for want of them. */
  private async readBalances(): Promise<void> {
    const items = await this.deps.venue
      .balances()
      .catch((e: unknown) =>
        this.deps.log.warn(`balances could not be read before trading (${errorMessage(e)}): waiting for the balances stream`),
      );
    if (items) this.kernel.applyAccount({ kind: 'balances', at: this.deps.clock.now(), items });
  }

  private async reconcileUntilAgreed(): Promise<ReconcileResult> {
    for (let attempt = 1; ; attempt++) {
      const rec = await this.reconciler.reconcile();
      if (rec.agreed) return rec;
      this.deps.log.warn(`journal and venue disagree on ${rec.unresolved.join(', ')}: retrying (attempt ${attempt})`);
      if (attempt >= 10)
        throw new Error(
          `cannot reconcile ${rec.unresolved.length} intent(s) with the venue: ${rec.unresolved.join(', ')}; trading not started`,
        );
      // writes that may still land are looked up again as soon as their window closes, not later
      const backoff = Math.min(30_000, 1_000 * 2 ** attempt);
      const landing = rec.retryAt === undefined ? backoff : Math.max(50, rec.retryAt - this.deps.clock.now() + 10);
      await this.deps.clock.sleep(Math.min(backoff, landing));
    }
  }

  /** Follows open orders and quote executions, resolves unresolved intents of every kind, records new fills. */
  private async follow(): Promise<void> {
    for (const row of this.deps.journal.active()) {
      if (row.state === 'pending' || row.state === 'sent') continue; // the executor still owns it
      if (row.kind === 'place-order' && row.state === 'open' && this.unchangedAtVenue(row)) continue;
      if (row.kind === 'place-order') await (row.state === 'open' ? this.orders.refresh(row) : this.orders.resolve(row.refId));
      else if (row.kind === 'execute-quote') await (row.state === 'open' ? this.quotes.refresh(row) : this.quotes.resolve(row.refId));
      else if (row.kind === 'transfer') await this.transfers.resolve(row.refId);
    }
    // orders still in flight when trading halted are cancelled once they are open
    this.kernel.cancelHalted();
    this.captureStartEquity();
    this.checkStrategies();
    if (this.pollFills)
      await this.fills.poll(); // otherwise the source's fill stream feeds the tracker
    else if (this.fills.heldCount) this.fills.ingest([]); // fills that came before their order was journaled
  }

  /**
   * True when the open-orders stream, read after the row's last change, shows the order still open
   * with the journaled fill: no GetOrder needed. (Polling every open order each cycle starved the
   * market data of the shared request budget once a dozen orders rested.)
   */
  private unchangedAtVenue(row: JournalIntentRow): boolean {
    const seen = this.openAtVenue;
    if (!seen || seen.at < row.updatedAt || row.venueId === null) return false;
    return seen.byId.get(row.venueId) === `${row.status}/${row.amountFilled}`;
  }

  private get equityAsset(): string {
    return this.deps.equityAsset ?? 'USD';
  }

  private equity(): Dec | undefined {
    return equityOf(this.account, this.market, this.equityAsset);
  }

  private priceDecimals(market: MarketSymbol): { priceDecimals?: number } {
    const decimals = this.kernel.riskView.instrument(market)?.priceDecimals;
    return decimals === undefined ? {} : { priceDecimals: decimals };
  }

  /** Equity, start equity and PnL at full precision (the panel and summary round them for people). */
  private equityFields(equity: Dec | undefined): Pick<RunSummary, 'startEquity' | 'startEquityAt' | 'pnl'> {
    const start = this.startEquity;
    return {
      ...(start && { startEquity: start.value, startEquityAt: start.at }),
      ...(equity && start && { pnl: equity.minus(start.value).toFixed() }),
    };
  }

  /**
   * The equity the run started with: the journal's, when this journal has run before (a restart keeps
   * the start of the run), else measured now (after warm-up, before any new intent) and kept in the
   * journal. Until balances and prices are known it is measured again at each follow-up.
   */
  private captureStartEquity(): void {
    if (this.startEquity) return;
    const kept = readStartEquity(this.deps.journal, this.equityAsset);
    if (kept) {
      this.startEquity = kept;
      return;
    }
    const equity = this.equity();
    if (!equity) return;
    this.startEquity = { asset: this.equityAsset, value: equity.toFixed(), at: this.deps.clock.now() };
    saveStartEquity(this.deps.journal, this.startEquity);
  }

  private markEquity(): void {
    const equity = this.equity();
    if (!equity) return;
    this.captureStartEquity();
    this.kernel.markEquity(equity, this.deps.clock.now());
    this.saveMarks();
  }

  /**
   * The kill switch's marks (the UTC day's opening equity, the drawdown's peak) as the journal last
   * kept them, taken when they are of this UTC day: a restart mid-day does not start the day's loss
   * afresh. Called once at start, before the first mark.
   */
  private restoreMarks(): void {
    const kept = readKillSwitchMarks(this.deps.journal, this.equityAsset);
    if (kept && this.gate.killSwitch.restore(kept, this.deps.clock.now())) {
      this.savedMarks = JSON.stringify(kept);
      this.deps.log.info(
        `kill switch: the day's opening equity ${kept.dayOpenEquity} and peak ${kept.peak} ${this.equityAsset} kept from earlier today (${kept.day}, UTC)`,
      );
    }
  }

  /** Keeps the kill switch's marks in the journal when they changed. */
  private saveMarks(): void {
    const marks = this.gate.killSwitch.marks();
    if (!marks) return;
    const text = JSON.stringify(marks);
    if (text === this.savedMarks) return;
    saveKillSwitchMarks(this.deps.journal, this.equityAsset, marks);
    this.savedMarks = text;
  }

  /** Resolves `allStopped` once no strategy is left running (each threw or returned a non-intent). */
  private checkStrategies(): void {
    if (this.strategies.length > 0 && this.strategies.every((s) => s.stopped !== undefined)) {
      this.allStoppedResolve?.(`every strategy has stopped: ${this.strategies.map((s) => `${s.name}: ${s.stopped}`).join('; ')}`);
      this.allStoppedResolve = undefined;
    }
  }

  private every(ms: number, task: () => Promise<void>): void {
    const loop = (): void => {
      const handle = this.deps.clock.setTimeout(() => {
        void task()
          .catch((e: unknown) => this.deps.log.warn(`periodic task failed: ${errorMessage(e)}`))
          .finally(() => {
            if (!this.stopping) loop();
          });
      }, ms);
      this.timers.push(handle);
      if (this.timers.length > 8) this.timers.shift();
    };
    loop();
  }

  /**
   * At exit: follows the quote executions still in flight (CREATED at the venue, or whose outcome is
   * unknown) to their end, as the exit's cancels follow orders: each read back (by id, or looked up by
   * ref_id) until the venue says SETTLED or shows it was never made, the journal taking each answer
   * and the account its effect, again after a growing pause, for at most `timeoutMs`. Those it could
   * not resolve are named in the log (and in the summary, by `endTally`).
   */
  private async settleQuoteExecutions(timeoutMs: number): Promise<void> {
    const { clock, journal, log } = this.deps;
    const inFlight = (): JournalIntentRow[] => journal.active().filter((r) => r.kind === 'execute-quote');
    if (inFlight().length === 0) return;
    const deadline = clock.now() + timeoutMs;
    const follow = async (): Promise<boolean> => {
      for (let delay = QUOTE_FIRST_READ_MS; ; delay = Math.min(QUOTE_MAX_READ_MS, delay * 2)) {
        for (const row of inFlight()) await (row.state === 'open' ? this.quotes.refresh(row) : this.quotes.resolve(row.refId));
        if (inFlight().length === 0) return true;
        const left = deadline - clock.now();
        if (left <= 0) return false;
        await sleepOn(clock, Math.min(delay, left));
      }
    };
    if (await beforeDeadline(clock, follow(), deadline)) return;
    const left = inFlight();
    if (left.length > 0)
      log.error(
        `${left.length} quote execution(s) not settled after ${timeoutMs} ms of following them at exit: ${left.map(describeQuoteExecution).join('; ')}; the next start follows them to their end`,
      );
  }

  private async shutdown(reason: string): Promise<RunSummary> {
    const log = this.deps.log;
    log.info(`stopping: ${reason}`);
    this.engine.stopIntents();
    // the bar timer (armed at the next bar's end, an hour away for 1h bars) would hold the process open after the summary
    this.engine.stopBars();
    this.journalWatch.stop();
    this.kernel.stopMetadata();
    for (const t of this.timers) t.cancel();
    this.kernel.detach();
    for (const s of this.subs) s.unsubscribe();
    try {
      await this.deps.source.stop();
      // executor work and cancels begun by a halt finish first, so the exit's cancels see every open order
      await this.kernel.drain();
      const run = this.deps.config.run;
      if (run.cancel_on_exit) await this.kernel.cancelAll(undefined, run.exit_timeout_ms);
      await this.settleQuoteExecutions(run.exit_timeout_ms);
      // the streams are stopped: read the last fills and each open order's state directly (the last
      // open-orders poll predates the cancels above, and would pass them off as still open)
      this.pollFills = true;
      this.openAtVenue = undefined;
      await this.follow().catch(() => undefined);
      // the balances stream is stopped too: read them once more, so equity and the positions held are the exit's
      await this.readBalances();
    } finally {
      for (const s of this.ownSubs) s.unsubscribe();
    }
    const stats = this.gate.stats();
    const denials = Object.fromEntries(Object.entries(stats).filter(([k]) => k !== 'approve'));
    const end = this.equity();
    return {
      durationMs: this.deps.clock.now() - this.startedAt,
      intents: this.engine.counters.intents,
      approved: this.engine.counters.approved,
      denied: this.engine.counters.denied,
      denials,
      ordersPlaced: this.ordersPlaced,
      fills: this.fillCount,
      fees: this.fees.toFixed(),
      equityAsset: this.equityAsset,
      ...(end && { endEquity: end.toFixed() }),
      ...this.equityFields(end),
      ...endTally(this.deps.journal, this.orphans),
      positions: heldPositions(this.account, this.market, this.equityAsset, (m) => this.kernel.riskView.instrument(m)),
      ...this.kernel.positions.summary(),
      stoppedStrategies: this.strategies.filter((s) => s.stopped).map((s) => `${s.name}: ${s.stopped}`),
      ...(this.gate.killSwitch.tripped && { halted: this.gate.killSwitch.tripped }),
      ...(this.journalWatch.failure && { journalFailure: this.journalWatch.failure }),
    };
  }
}

/**
 * The instance name of each config entry, in config order: its `name`, else the name its runner runs
 * under (its plugin's definition's; the runners are built one per entry, in order), else the plugin
 * as written (a run whose runners do not follow its config entries).
 */
function instanceNames(entries: Config['strategies'], runners: readonly { readonly name: string }[]): string[] {
  return entries.map((s, i) => s.name ?? (runners.length === entries.length ? runners[i]!.name : s.plugin));
}
