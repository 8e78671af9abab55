/**
 * The backtest run driver. A TestClock advances point by point; at each point the point-replay source
 * steps point replay (the intents of earlier points fill at this point's price) and emits what changed
 * and the price into the kernel — the same stores, strategy runner, risk gate, journal and executors
 * as live — and last the account is marked at this point's price (the kill switch watches that mark,
 * as a live run's). The per-point path is synchronous: it awaits only when the kernel has executor
 * work in flight (a point where the strategy acted).
 */
import { performance } from 'node:perf_hooks';
import { D, InputError, splitMarket, type Decision, type MarketSymbol } from '../src/core/index.js';
import type { BacktestRun } from './run-result.js';
import type { Logger } from '../src/log/index.js';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../src/risk/limits.js';
import type { PriceSeriesLike } from '../src/sim/prices/price-data.js';
import { marketsOf, type StrategyDefinition } from '../src/strategy/define.js';
import { unitsOf } from './money-units.js';
import type { RecordedWarmUp } from './recorded-series.js';
import { RoundTripTracker } from './round-trips.js';
import { noDecisionWarning } from './warm-up-note.js';
import { runFigures } from './replay-kernel.js';
import { buildBacktestBundle, type BacktestBundle } from './driver.js';
import type { PriceSeries } from '../src/sim/prices/price-file.js';
import { barsOfSeries, closeBarsUpTo, rowBar, type SeriesBars } from './bar-replay.js';
import { lowFirstOf, type IntrabarRule } from '../src/fills/point/bar-range.js';

export interface BacktestConfig {
  readonly definition: StrategyDefinition;
  /** Resolved params (see `resolveParams`). */
  readonly params: Readonly<Record<string, unknown>>;
  /**
   * The points; a recording's (see recorded-series.ts) carry the warm-up history its run loaded, which
   * warms the strategy before the first point when the replay starts there (not for a later `range`).
   */
  readonly series: PriceSeriesLike & { readonly warmUp?: RecordedWarmUp };
  /** The market the points price; default the strategy's only market. */
  readonly market?: MarketSymbol;
  /** Starting balances, asset → decimal string (default USD 10000). */
  readonly initial?: Readonly<Record<string, string>>;
  readonly feeBps?: number;
  readonly slippageBps?: number;
  readonly quoteSpreadBps?: number;
  /** Risk limits (default: the config defaults); `fee_bps` follows `feeBps`. */
  readonly limits?: RiskLimits;
  /**
   * Over OHLCV rows, which extreme of a bar is taken as reached first where the data cannot say (see
   * IntrabarRule; default `adverse`, the low).
   */
  readonly intrabar?: IntrabarRule;
  /** Point indices [start, end) of the series to replay (default all). */
  readonly range?: { readonly start: number; readonly end: number };
  /** Called every `progressEvery` points (default 65 536) and at the end. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly progressEvery?: number;
  readonly log?: Logger;
  /** Elapsed-time source for `elapsedMs` (default performance.now). */
  readonly timer?: () => number;
  readonly journalFile?: string;
  /**
   * Only the figures: no intent trace and no fill markers are kept (`intents` and `fills` come back
   * empty; decisions, denials, orders, trades and metrics are whole). For runs whose traces nobody
   * reads (the optimizer's jobs): each would otherwise keep thousands of small records alive to the
   * end of the run, and the collector copies them between generations.
   */
  readonly figuresOnly?: boolean;
  /** Keep what the report's charts draw beyond the figures: every plotted point (`plots`) and a bar strategy's candles (`candles`). */
  readonly charts?: boolean;
  /**
   * Where to mark equity, reused from run to run (length at least the points replayed): the run's
   * `equity` is then a view of it, valid until the buffer's next run. A run of 1,000,000 points
   * otherwise allocates 8 MB that lives until the next full collection.
   */
  readonly equityBuffer?: Float64Array;
  /** Hears each risk decision as the kernel makes it (the intent whole; `tradeloop verify` compares them). */
  readonly onDecision?: (d: Decision) => void;
}

export type { BacktestRun, DenialSummary, IntentTrace, OrderOutcomes, StopPoint } from './run-result.js';

/** Replays the series through the strategy and returns equity, trades and metrics. */
export async function runBacktest(cfg: BacktestConfig): Promise<BacktestRun> {
  const timer = cfg.timer ?? (() => performance.now());
  const t0 = timer();
  const { start, end } = checkRange(cfg);
  const equity = equityFor(cfg.equityBuffer, end - start);
  const market = pickMarket(cfg);
  const { base, quote } = splitMarket(market);
  const feeBps = cfg.feeBps ?? 10;
  const figuresOnly = cfg.figuresOnly === true;
  const funding = cfg.initial ?? { USD: '10000' };
  const b = buildBacktestBundle({
    definition: cfg.definition,
    params: cfg.params,
    markets: [market],
    startMs: cfg.series.times[start]!,
    limits: { ...(cfg.limits ?? DEFAULT_RISK_LIMITS), fee_bps: feeBps },
    venue: {
      feeBps,
      slippageBps: cfg.slippageBps ?? 0,
      quoteSpreadBps: cfg.quoteSpreadBps ?? 10,
      funding,
    },
    // the starting base is the strategy's own, bought at the first price: it backtests alone, and
    // a balance no strategy holds is sold by none (risk.positions: per_strategy, as live)
    ...(funding[base] !== undefined &&
      new D(funding[base]).gt(0) && {
        startHoldings: [{ strategy: cfg.definition.name, market, amount: funding[base], price: String(cfg.series.prices[start]) }],
      }),
    ...(cfg.log && { log: cfg.log }),
    ...(cfg.journalFile && { journalFile: cfg.journalFile }),
    withQuotes: (cfg.definition.needs ?? []).includes('quote'),
    figuresOnly,
    ...(cfg.charts === true && { charts: true, points: end - start }),
    ...(cfg.onDecision && { onDecision: cfg.onDecision }),
  });
  try {
    await b.kernel.startMetadata();
    // a recording's warm-up history, as the recorded run loaded it before its first decision
    const warm = start === 0 ? cfg.series.warmUp : undefined;
    if (warm !== undefined && warm.events.length > 0) b.kernel.engine.warmUp(warm.events);
    const warmed = warm?.events.length ?? 0;
    const all = cfg.series.times.subarray(start, end);
    const tracker = new RoundTripTracker(!figuresOnly, (ref) => b.replay.counters.exitReasons.get(ref));
    const bars = barsOfSeries(b.kernel.engine.barFeed, cfg.series, market);
    const covered = await replay(b, cfg, {
      market,
      base,
      quote,
      times: all,
      prices: cfg.series.prices.subarray(start, end),
      tracker,
      equity,
      start,
      ...(bars && { bars }),
    });
    // a stopped strategy's figures count only the points up to its failure
    const times = all.subarray(0, covered);
    const prices = cfg.series.prices.subarray(start, start + covered);
    return {
      ...runFigures(b.replay, market, { times, prices, equity: equity.subarray(0, covered), total: all.length }, tracker),
      elapsedMs: timer() - t0,
      finalBalances: Object.fromEntries(b.points.balances().map((x) => [x.asset, x.available.plus(x.trading).toFixed()])),
      // a strategy that stopped is reported as a failure; the warm-up note would only blur it
      units: unitsOf(market, b.kernel.riskView.instrument(market)?.priceDecimals),
      warnings: b.runner.stopped === undefined ? warningsOf(cfg, times.length + warmed, b.replay.counters.decided) : [],
      ...(warm !== undefined && { warmUpEvents: warmed, warmUpFrom: warm.from }),
    };
  } finally {
    b.kernel.close();
    b.journal.close();
  }
}

interface ReplayInput {
  readonly market: MarketSymbol;
  readonly base: string;
  readonly quote: string;
  readonly times: Float64Array;
  readonly prices: Float64Array;
  readonly tracker: RoundTripTracker;
  /** Where each point's equity is marked (one value per point). */
  readonly equity: Float64Array;
  /** Index of the first point in the series (the OHLC rows are the series'). */
  readonly start: number;
  /** The series' rows as bars (an OHLCV file) for the declared bar series. */
  readonly bars?: SeriesBars;
}

/** An OHLCV series' opens, highs and lows, when it has them: orders then fill inside each row's bar. */
function rangesOf(series: BacktestConfig['series']): { opens: Float64Array; highs: Float64Array; lows: Float64Array } | undefined {
  const s = series as Partial<PriceSeries>;
  return s.opens !== undefined && s.highs !== undefined && s.lows !== undefined
    ? { opens: s.opens, highs: s.highs, lows: s.lows }
    : undefined;
}

/**
 * The per-point loop: marks equity at each point into `r.equity`; returns how many points it replayed
 * (all of them, unless the strategy stopped: then the replay ends with the point it stopped at).
 */
async function replay(b: BacktestBundle, cfg: BacktestConfig, r: ReplayInput): Promise<number> {
  const { market, times, prices, equity } = r;
  const n = times.length;
  const pm = b.points;
  const kernel = b.kernel;
  const source = b.source;
  const watchEquity = cfg.limits?.daily_loss_limit !== undefined || cfg.limits?.max_drawdown_pct !== undefined;
  const every = Math.max(1, cfg.progressEvery ?? 65_536);
  const marks = { version: -1, funds: -1, consumed: 0, quote: 0, base: 0 };
  const feed = kernel.engine.barFeed;
  const row = { open: 0, high: 0, low: 0, close: 0, volume: 0 };
  // one range object, refilled per row (the fill model reads it during the step only)
  const ranges = rangesOf(cfg.series);
  const range = { open: 0, high: 0, low: 0, lowFirst: true };
  const rule = cfg.intrabar ?? 'adverse';
  for (let i = 0; i < n; i++) {
    const at = times[i]!;
    const price = prices[i]!;
    // the bars ending by this point close at their end, as a live run's timer closes them
    if (feed !== undefined && (feed.nextClose() ?? Infinity) < at) await closeBarsUpTo(b, feed, at);
    b.clock.advanceTo(at);
    b.forgetFinished();
    if (ranges !== undefined) {
      const k = r.start + i;
      range.open = ranges.opens[k]!;
      range.high = ranges.highs[k]!;
      range.low = ranges.lows[k]!;
      range.lowFirst = lowFirstOf(rule, range.open, range.high, range.low);
      source.step(market, at, price, range);
    } else source.step(market, at, price);
    if (r.bars !== undefined) kernel.engine.onSourceBar(market, at, rowBar(r.bars, cfg.series.prices, r.start + i, row));
    if (kernel.busy) await kernel.drain();
    // exits filled inside this bar (a position helper's stop reached by the low): heard before the next point
    while (source.reportPlaced(at)) if (kernel.busy) await kernel.drain();
    if (pm.version !== marks.version) refresh(b, r, marks);
    let e = marks.quote + marks.base * price;
    // the kill switch acts as in a live run: halts new intents and cancels open orders (settled here)
    if (watchEquity && kernel.markEquity(new D(e), at) !== undefined) {
      await kernel.drain();
      if (pm.version !== marks.version) refresh(b, r, marks);
      e = marks.quote + marks.base * price;
    }
    equity[i] = e;
    if (b.runner.stopped !== undefined) {
      cfg.onProgress?.(n, n);
      return i + 1;
    }
    if (cfg.onProgress && i % every === 0) cfg.onProgress(i, n);
  }
  cfg.onProgress?.(n, n);
  return n;
}

/**
 * After a change at point replay: equity totals (read again only when a total can have changed: an
 * order placed or cancelled only moves funds between available and trading), and new fills into
 * round trips (the report's own reading).
 */
function refresh(
  b: BacktestBundle,
  r: ReplayInput,
  marks: { version: number; funds: number; consumed: number; quote: number; base: number },
): void {
  const pm = b.points;
  marks.version = pm.version;
  if (pm.fundsVersion !== marks.funds) {
    marks.funds = pm.fundsVersion;
    marks.quote = pm.totalNumber(r.quote);
    marks.base = pm.totalNumber(r.base);
  }
  if (pm.executionCount === marks.consumed) return;
  for (const x of pm.executionsFrom(marks.consumed)) r.tracker.add(x);
  marks.consumed = pm.executionCount;
}

function equityFor(buffer: Float64Array | undefined, n: number): Float64Array {
  if (buffer === undefined) return new Float64Array(n);
  if (buffer.length < n)
    throw new InputError('equityBuffer', `holds ${buffer.length} points; this run replays ${n}: give a buffer of at least ${n}`);
  return buffer.length === n ? buffer : buffer.subarray(0, n);
}

function warningsOf(cfg: BacktestConfig, points: number, intents: number): string[] {
  const none = noDecisionWarning(cfg.definition, cfg.params, points, intents);
  return none === undefined ? [] : [none];
}

function checkRange(cfg: BacktestConfig): { start: number; end: number } {
  const len = cfg.series.length;
  const start = cfg.range?.start ?? 0;
  const end = cfg.range?.end ?? len;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > len || end - start < 1) {
    throw new InputError('range', `points [${start}, ${end}) are outside the ${len} points of ${cfg.series.source}`);
  }
  return { start, end };
}

function pickMarket(cfg: BacktestConfig): MarketSymbol {
  const markets = marketsOf(cfg.definition, cfg.params as never);
  const market = cfg.market ?? markets[0];
  if (market === undefined || markets.length !== 1 || markets[0] !== market) {
    throw new InputError(
      'market',
      `strategy ${cfg.definition.name} trades ${markets.join(', ') || 'no market'}, but the data prices ${market ?? 'no market'}: a backtest replays one market; set the strategy's market param to match (e.g. --params market=${market ?? 'BTCUSD'})`,
    );
  }
  return market;
}
