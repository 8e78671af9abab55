/**
 * The backtest bundle: the same Engine, stores, risk gate, journal and executors a live run builds,
 * with a TestClock and PointVenue (point replay) in place of the live clock and RestVenue. Nothing
 * strategy-facing differs from live; only the clock and the venue are swapped.
 */
import { TestClock } from '../src/clock/test-clock.js';
import type { Decision, ExecReport, MarketSymbol } from '../src/core/index.js';
// modules by file, not through the package indexes: a backtest (and each optimizer thread) loads
// only the backtest path, not the HTTP client, the sandbox server or the config loader
import { Engine } from '../src/engine/engine.js';
import { IntentIds } from '../src/engine/intent-ids.js';
import { EngineRiskView } from '../src/engine/risk-view.js';
import { StrategyRunner } from '../src/engine/strategy-runner.js';
import type { ExecContext } from '../src/exec/exec-context.js';
import { FillTracker } from '../src/exec/fill-tracker.js';
import { Journal } from '../src/exec/journal.js';
import type { JournalStore } from '../src/exec/journal-store.js';
import { MemoryJournal } from '../src/exec/memory-journal.js';
import { OrderExecutor } from '../src/exec/order-executor.js';
import { QuoteExecutor } from '../src/exec/quote-executor.js';
import { TransferExecutor } from '../src/exec/transfer-executor.js';
import type { Logger } from '../src/log/index.js';
import { RiskGate } from '../src/risk/gate.js';
import type { RiskLimits } from '../src/risk/limits.js';
import { PointMarket, type PointMarketOptions } from '../src/sim/point-market.js';
import { AccountStore, type OpenOrderView } from '../src/state/account-store.js';
import { MarketStore } from '../src/state/market-store.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import { PointVenue, toVenueFill, toVenueOrder } from '../src/venue/point-venue.js';

/**
 * Closed orders, fills and finished intents a backtest keeps for lookups. Nothing reads them again
 * once reported (round trips and metrics take each fill as it comes), and keeping every one made the
 * collector copy and mark records the run no longer needs: with this window, memory and GC work stay
 * flat however many orders a run makes.
 */
export const RECORDS_KEPT = 32;

export interface BundleOptions {
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketSymbol[];
  readonly startMs: number;
  readonly limits: RiskLimits;
  readonly venue: PointMarketOptions;
  /** SQLite journal file (default: the in-memory journal; a backtest leaves no journal behind unless asked). */
  readonly journalFile?: string;
  readonly log?: Logger;
  readonly onDecision?: (d: Decision) => void;
}

/** Everything the driver steps: the clock, the stores, point replay and the engine. */
export interface BacktestBundle {
  readonly clock: TestClock;
  readonly market: MarketStore;
  readonly account: AccountStore;
  readonly points: PointMarket;
  readonly venue: PointVenue;
  readonly gate: RiskGate;
  readonly journal: JournalStore;
  readonly engine: Engine;
  readonly orders: OrderExecutor;
  readonly fills: FillTracker;
  readonly runner: StrategyRunner;
  /** Forgets the finished intents beyond the window (the driver calls it as each point begins). */
  readonly forgetFinished: () => void;
}

/** Builds the bundle; the caller closes `journal` when done. */
export function buildBacktestBundle(o: BundleOptions): BacktestBundle {
  const clock = new TestClock(o.startMs);
  const market = new MarketStore(clock, { staleAfterMs: o.limits.stale_after_ms });
  const account = new AccountStore(clock);
  const points = new PointMarket({ keepClosed: RECORDS_KEPT, ...o.venue });
  const venue = new PointVenue(points);
  const riskView = new EngineRiskView(clock, market, account, o.limits.fee_bps);
  const gate = new RiskGate(o.limits, riskView, o.log);
  // in memory unless a file is asked for: same records and rules, a fraction of the cost per intent
  const memory = o.journalFile === undefined ? new MemoryJournal({ keepFinished: RECORDS_KEPT }) : undefined;
  const journal: JournalStore = memory ?? new Journal(o.journalFile!);
  const holder: { engine?: Engine } = {};
  const ctx: ExecContext = { venue, journal, clock, ...(o.log && { log: o.log }), emit: (r: ExecReport) => holder.engine?.onReport(r) };
  const orders = new OrderExecutor(ctx);
  const runner = new StrategyRunner(o.definition.name, o.definition, o.params, o.markets, new IntentIds('bt'), o.log);
  const engine = new Engine({
    clock, market, account, gate, riskView, journal,
    executors: { orders, quotes: new QuoteExecutor(ctx), transfers: new TransferExecutor(ctx) },
    strategies: [runner],
    ...(o.log && { log: o.log }),
    ...(o.onDecision && { onDecision: o.onDecision }),
  });
  holder.engine = engine;
  return { clock, market, account, points, venue, gate, journal, engine, orders, fills: new FillTracker(ctx, o.startMs), runner,
    forgetFinished: () => memory?.forgetFinished(),
  };
}

/** Pushes point replay's balances and open orders into the account store, as live polling would. */
export function syncAccount(b: BacktestBundle, at: number): void {
  b.account.apply({ kind: 'balances', at, items: b.points.balances() });
  const open: OpenOrderView[] = b.points.openOrders().map((o) => ({
    orderId: o.id, refId: o.refId, market: o.market, side: o.side, type: o.type,
    ...(o.price && { price: o.price }), ...(o.baseAmount && { baseAmount: o.baseAmount }), ...(o.quoteAmount && { quoteAmount: o.quoteAmount }),
    amountFilled: o.amountFilled, status: o.status,
  }));
  b.account.apply({ kind: 'open-orders', at, orders: open });
}

/**
 * Reports what the last point did to orders through the live executors: each closed order's status
 * via OrderExecutor.applyOrder (cancelled → a `cancelled` report) and each fill via FillTracker.ingest
 * (journaled once, a `filled` report), exactly the paths a live poll takes.
 */
export function reportPoint(b: BacktestBundle): void {
  const closed = b.points.closedAtLastPoint();
  for (const o of closed) b.orders.applyOrder(o.refId, toVenueOrder(o), 'status');
  const fresh = b.points.executions(b.clock.now()).filter((x) => x.kind === 'order');
  if (fresh.length > 0) b.fills.ingest(fresh.map(toVenueFill));
}
