/**
 * What every backtest driver shares, whatever its fill model: the kernel built over a replay's clock,
 * venue and journal with the one strategy runner; the counters a run reports (intent traces, denials,
 * order outcomes); and the figures built from what it marked. The point driver (run.ts) and the
 * book driver (book-run.ts) differ only in the replay source and the fill model, both built by driver.ts.
 */
import type { TestClock } from '../src/clock/test-clock.js';
import type { Decision, DenialReason, MarketSymbol } from '../src/core/index.js';
import type { IntentIds } from '../src/engine/intent-ids.js';
import { Kernel } from '../src/engine/kernel.js';
import { StrategyRunner } from '../src/engine/strategy-runner.js';
import type { JournalStore } from '../src/exec/journal-store.js';
import type { StartHolding } from '../src/engine/positions.js';
import type { Logger } from '../src/log/index.js';
import type { RiskLimits } from '../src/risk/limits.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import type { Venue } from '../src/venue/venue.js';
import { computeMetrics } from './metrics.js';
import { CandleTape } from './report/candles.js';
import type { RoundTripTracker } from './round-trips.js';
import type { BacktestRun, DenialSummary, IntentTrace, StopPoint } from './run-result.js';

export interface ReplayKernelOptions {
  readonly clock: TestClock;
  readonly venue: Venue;
  readonly journal: JournalStore;
  readonly definition: StrategyDefinition;
  /** The main strategy's instance name (default its definition's name). */
  readonly name?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketSymbol[];
  readonly startMs: number;
  readonly limits: RiskLimits;
  /** Capital per strategy by instance name (`strategies[].allocation`), as a live run gives them. */
  readonly allocations?: ReadonlyMap<string, string>;
  readonly log?: Logger;
  /** Keep no intent trace (`intents` comes back empty; `decided` still counts them). */
  readonly figuresOnly?: boolean;
  /** Keep what the report's charts draw: every plotted point and the candles of bar strategies (default: neither). */
  readonly charts?: boolean;
  /** The points the replay steps, when known: a plotted series kept for the charts is made that large at once. */
  readonly points?: number;
  /** Starting balances made strategies' own with the first balances (see PositionBookDeps.startHoldings). */
  readonly startHoldings?: ReadonlyArray<StartHolding>;
  /** More strategies run beside the main one on the same account (each with its own position). */
  readonly alongside?: ReadonlyArray<{
    readonly name: string;
    readonly definition: StrategyDefinition;
    readonly params: Readonly<Record<string, unknown>>;
    readonly markets: readonly MarketSymbol[];
  }>;
}

/** The counters a backtest reports, fed by the kernel's decisions and reports. */
export interface RunCounters {
  readonly intents: IntentTrace[];
  readonly denials: Record<string, DenialSummary>;
  readonly outcomes: { accepted: number; fills: number; cancelled: number; rejected: number; failed: number };
  /** Decisions on intents, counted also when no trace is kept. */
  decided: number;
  /** Why each recent approved sell was made, by its intent id (for the round trips it closes). */
  readonly exitReasons: Map<string, string>;
}

export interface ReplayKernel {
  readonly kernel: Kernel;
  readonly runner: StrategyRunner;
  readonly counters: RunCounters;
  /** Each market's bars of its shortest declared timeframe, when the charts are kept and a strategy declares bars. */
  readonly candles?: CandleTape;
}

/** The kernel of a backtest over the replay's ports, with its counters subscribed. */
export function buildReplayKernel(o: ReplayKernelOptions): ReplayKernel {
  let runner: StrategyRunner | undefined;
  const charts = o.charts === true;
  const kernel = new Kernel(
    { clock: o.clock, venue: o.venue, journal: o.journal, ...(o.log && { log: o.log }) },
    {
      limits: o.limits,
      refPrefix: 'bt',
      fillsSinceMs: o.startMs,
      replay: true,
      // only the run moves money in a backtest: limits are re-read while its transfers can still change them
      transferLimitsRefresh: 'after-transfers',
      // every plotted point for a report; none kept otherwise (the calls are still checked)
      plotPoints: charts ? Infinity : 0,
      ...(charts && o.points !== undefined && { plotExpected: o.points }),
      ...(o.allocations && { allocations: o.allocations }),
      ...(o.startHoldings && { startHoldings: o.startHoldings }),
      strategies: (ids: IntentIds) => [
        (runner = new StrategyRunner(o.name ?? o.definition.name, o.definition, o.params, o.markets, ids, o.log)),
        ...(o.alongside ?? []).map((a) => new StrategyRunner(a.name, a.definition, a.params, a.markets, ids, o.log)),
      ],
    },
  );
  const counters: RunCounters = {
    intents: [],
    denials: {},
    outcomes: { accepted: 0, fills: 0, cancelled: 0, rejected: 0, failed: 0 },
    decided: 0,
    exitReasons: new Map(),
  };
  const figuresOnly = o.figuresOnly === true;
  const noteExitReason = exitReasonsKept(counters.exitReasons);
  kernel.decisions$.subscribe((d) => {
    counters.decided++;
    if (d.kind === 'approve' && (d.intent.kind === 'place-order' || d.intent.kind === 'execute-quote') && d.intent.exitReason !== undefined)
      noteExitReason(d.intent.intentId, d.intent.exitReason);
    if (!figuresOnly) counters.intents.push(traceOf(d));
    if (d.kind === 'deny') noteDenial(counters.denials, d.reason, d.at);
  });
  kernel.reports$.subscribe((r) => {
    if (r.kind === 'filled') counters.outcomes.fills++;
    else if (r.kind === 'accepted' || r.kind === 'cancelled' || r.kind === 'rejected' || r.kind === 'failed') counters.outcomes[r.kind]++;
  });
  const candles = charts ? new CandleTape(kernel.strategies.flatMap((s) => s.barNeeds)) : undefined;
  if (candles !== undefined && !candles.empty) {
    kernel.engine.watchBars((bar) => candles.add(bar));
    return { kernel, runner: runner!, counters, candles };
  }
  return { kernel, runner: runner!, counters };
}

/** What a driver marked: the points it covered (up to a failure), of how many it had. */
export interface Marked {
  readonly times: Float64Array;
  readonly prices: Float64Array;
  readonly equity: Float64Array;
  /** Points the replay had, for a stopped run's `stoppedAt`. */
  readonly total: number;
}

/** The figures and counts of a run every driver reports the same way (the driver adds its own fields). */
export function runFigures(
  rk: ReplayKernel,
  market: MarketSymbol,
  m: Marked,
  tracker: RoundTripTracker,
): Pick<
  BacktestRun,
  | 'market'
  | 'times'
  | 'prices'
  | 'equity'
  | 'trades'
  | 'exitReasons'
  | 'fills'
  | 'feesPaid'
  | 'openSince'
  | 'metrics'
  | 'intents'
  | 'decisions'
  | 'denials'
  | 'orders'
  | 'strategyStopped'
  | 'strategyFailure'
  | 'stoppedAt'
  | 'plots'
  | 'candles'
> {
  const { kernel, runner, counters } = rk;
  const open = tracker.openSince !== undefined ? { openSince: tracker.openSince } : {};
  return {
    market,
    times: m.times,
    prices: m.prices,
    equity: m.equity,
    trades: tracker.trades,
    exitReasons: tracker.exitReasons,
    fills: tracker.fills,
    feesPaid: tracker.totalFees,
    ...open,
    metrics: computeMetrics({
      times: m.times,
      equity: m.equity,
      prices: m.prices,
      trades: tracker.trades,
      feesPaid: tracker.totalFees,
      ...open,
    }),
    intents: counters.intents,
    decisions: kernel.gate.stats(),
    denials: counters.denials,
    orders: { ...counters.outcomes, openAtEnd: kernel.openOrders.count() },
    ...(!kernel.plots.empty && { plots: kernel.plots.columns() }),
    ...(rk.candles !== undefined && { candles: rk.candles.columns() }),
    ...(runner.stopped !== undefined && {
      strategyStopped: runner.stopped,
      ...(runner.failure && { strategyFailure: runner.failure }),
      stoppedAt: stopPoint(m.times, m.total),
    }),
  };
}

/** The stop point of a replay that covered `times` of `total` points. */
export function stopPoint(times: Float64Array, total: number): StopPoint {
  return { points: times.length, total, at: times[times.length - 1]! };
}

/** Counts a denial under its code, keeping the first and the last reason. */
export function noteDenial(denials: Record<string, DenialSummary>, reason: DenialReason, at: number): void {
  const seen = denials[reason.code];
  const last = { at, message: reason.message, details: reason.details };
  denials[reason.code] = seen === undefined ? { count: 1, first: last, last } : { count: seen.count + 1, first: seen.first, last };
}

/** One decision as the run's intent trace keeps it. */
export function traceOf(d: Decision): IntentTrace {
  const i = d.intent;
  const outcome = d.kind === 'approve' ? 'approve' : d.reason.code;
  if (i.kind === 'place-order' || i.kind === 'execute-quote') return { at: d.at, kind: i.kind, market: i.market, side: i.side, outcome };
  return { at: d.at, kind: i.kind, outcome };
}

/** Exit reasons kept for the round trips still to close: the latest few hundred sells (a trip closes within a few fills of its sell). */
const EXIT_REASONS_KEPT = 512;

/**
 * Notes an approved sell's exit reason in `reasons`, keeping the latest EXIT_REASONS_KEPT: the oldest
 * is found in a ring of the ids noted (each intent id is noted once), not by iterating the map from
 * its start, which steps over every entry deleted before it.
 */
function exitReasonsKept(reasons: Map<string, string>): (refId: string, reason: string) => void {
  const ring: string[] = [];
  let oldest = 0;
  return (refId, reason) => {
    reasons.set(refId, reason);
    if (ring.length < EXIT_REASONS_KEPT) {
      ring.push(refId);
      return;
    }
    reasons.delete(ring[oldest]!);
    ring[oldest] = refId;
    oldest = oldest + 1 === EXIT_REASONS_KEPT ? 0 : oldest + 1;
  };
}
