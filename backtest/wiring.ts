/**
 * The backtest bundle: the kernel every mode builds (stores, risk gate, executors, journal, engine),
 * fed through its ports by a TestClock, the point-replay MarketSource and PointVenue (point replay) in
 * place of the live clock, the polling streams and RestVenue. Nothing strategy-facing differs from
 * live; only the ports, and so the fill model, are swapped.
 */
import { TestClock } from '../src/clock/test-clock.js';
import type { Decision, MarketSymbol } from '../src/core/index.js';
// modules by file, not through the package indexes: a backtest (and each optimizer thread) loads
// only the backtest path, not the HTTP client, the sandbox server or the config loader
import type { Kernel } from '../src/engine/kernel.js';
import type { StrategyRunner } from '../src/engine/strategy-runner.js';
import { Journal } from '../src/exec/journal.js';
import type { JournalStore } from '../src/exec/journal-store.js';
import { MemoryJournal } from '../src/exec/memory-journal.js';
import type { Logger } from '../src/log/index.js';
import type { RiskLimits } from '../src/risk/limits.js';
import { PointMarket, type PointMarketOptions } from '../src/fills/point/market.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import { PointReplaySource } from '../src/fills/point/replay-source.js';
import { PointVenue } from '../src/fills/point/venue.js';
import { buildReplayKernel, type ReplayKernel, type ReplayKernelOptions } from './replay-kernel.js';

/**
 * Closed orders, fills and finished intents a backtest keeps for lookups. Nothing reads them again
 * once reported (round trips and metrics take each fill as it comes), and keeping every one made the
 * collector copy and mark records the run no longer needs: with this window, memory and GC work stay
 * flat however many orders a run makes.
 */
export const RECORDS_KEPT = 32;

export interface BundleOptions {
  readonly definition: StrategyDefinition;
  /** The main strategy's instance name (default its definition's name). */
  readonly name?: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketSymbol[];
  readonly startMs: number;
  readonly limits: RiskLimits;
  /** Capital per strategy by instance name (`strategies[].allocation`). */
  readonly allocations?: ReadonlyMap<string, string>;
  readonly venue: PointMarketOptions;
  /** SQLite journal file (default: the in-memory journal; a backtest leaves no journal behind unless asked). */
  readonly journalFile?: string;
  readonly log?: Logger;
  /** Emit the held-rate quotes of each point (strategies that need `quote` events). */
  readonly withQuotes?: boolean;
  readonly onDecision?: (d: Decision) => void;
  /** Keep no intent trace (the counters still count). */
  readonly figuresOnly?: boolean;
  /** More strategies run beside the main one on the same account (each with its own position). */
  readonly alongside?: ReplayKernelOptions['alongside'];
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

/** Builds the bundle; the caller closes `journal` (and the kernel) when done. */
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
