/**
 * What a backtest run returns (runBacktest in run.ts, the book replay in book-run.ts, the kernel's
 * figures in replay-kernel.ts): kept apart so the parts that build a run import its shape, not the run.
 */
import type { DenialReason, MarketSymbol } from '../src/core/index.js';
import type { PlotColumns } from '../src/engine/plots.js';
import type { StrategyFailure } from '../src/engine/strategy-failure.js';
import type { BacktestMetrics, RoundTrip } from './metrics.js';
import type { CandleColumns } from './report/candles.js';
import type { FillMarker, MoneyUnits } from './money-units.js';
import type { WarmUpSource } from './recorded-series.js';

/** One decision on a strategy intent, for parity checks against a live run. */
export interface IntentTrace {
  readonly at: number;
  readonly kind: string;
  readonly market?: string;
  readonly side?: string;
  readonly outcome: string;
}

/** Orders of a backtest by outcome: each counted once per report of that kind. */
export interface OrderOutcomes {
  readonly accepted: number;
  readonly fills: number;
  readonly cancelled: number;
  readonly rejected: number;
  readonly failed: number;
  /** Still open (resting or untriggered) at the last point. */
  readonly openAtEnd: number;
}

/** The denials of one code in a backtest: the reason people read, with the numbers behind it. */
export interface DenialSummary {
  readonly count: number;
  readonly first: { readonly at: number; readonly message: string; readonly details: DenialReason['details'] };
  readonly last: { readonly at: number; readonly message: string; readonly details: DenialReason['details'] };
}

export interface BacktestRun {
  readonly market: MarketSymbol;
  readonly times: Float64Array;
  readonly prices: Float64Array;
  /** Marked at each point (a view of `equityBuffer` when one was given). */
  readonly equity: Float64Array;
  readonly trades: readonly RoundTrip[];
  /** Why each round trip's closing sell was made (stop-loss, signal, ...; '' where its intent did not say), one per trade (absent: not followed). */
  readonly exitReasons?: readonly string[];
  /** Each fill, for the report's chart (empty with `figuresOnly`). */
  readonly fills: readonly FillMarker[];
  readonly feesPaid: string;
  readonly openSince?: number;
  readonly metrics: BacktestMetrics;
  /** Replay time in ms (building the engine included, loading the data excluded). */
  readonly elapsedMs: number;
  /** Each decision on an intent (empty with `figuresOnly`; `decisions` still counts them). */
  readonly intents: readonly IntentTrace[];
  /** Risk decisions by outcome ("approve" or a denial code). */
  readonly decisions: Readonly<Record<string, number>>;
  /** Why the strategy was stopped, when it was (it threw or returned a non-intent). */
  readonly strategyStopped?: string;
  /** The same as data (strategy, handler, message, first stack frames) for `--json` and the exit code. */
  readonly strategyFailure?: StrategyFailure;
  /**
   * Where a stopped strategy stopped: the replay ends at that point and the figures (times, prices,
   * equity, metrics) cover the points up to and including it (`points` of the `total` there were).
   */
  readonly stoppedAt?: StopPoint;
  /** Risk denials by code: how many, and the reason (message and numbers) of the first and the last. */
  readonly denials: Readonly<Record<string, DenialSummary>>;
  /** What became of the orders: reports heard by kind, and how many were still open at the last point. */
  readonly orders: OrderOutcomes;
  readonly finalBalances: Readonly<Record<string, string>>;
  /**
   * What a reader must know before trusting the figures: e.g. that no decision was possible because
   * the data is shorter than the strategy's warm-up (see warm-up-note.ts). Empty when all is well.
   */
  readonly warnings: readonly string[];
  /** How people see its money: base and quote asset, and the market's price decimals (its tick's). */
  readonly units: MoneyUnits;
  /** Events the strategy was warmed on before the first point (a recording's warm-up history), and where they came from. */
  /** The series the strategies plotted (`ctx.plot`), every point; absent when none was plotted. */
  readonly plots?: readonly PlotColumns[];
  /** Each market's candles of the shortest timeframe its strategies declared (bar strategies only, not in figures-only runs). */
  readonly candles?: readonly CandleColumns[];
  readonly warmUpEvents?: number;
  readonly warmUpFrom?: WarmUpSource;
}

/** The point a stopped strategy's replay ended at: how many points it covered, of how many, and its time. */
export interface StopPoint {
  readonly points: number;
  readonly total: number;
  readonly at: number;
}
