/**
 * The portfolio backtest: every strategy of a config on every market it declares, on one account,
 * with the config's risk limits, allocations and fee, through the one kernel a live run builds. The
 * markets' series are merged by time (merge.ts states the rules); each point steps point replay in
 * its market, so the strategies compete for the same balances as they do live, and the account is
 * marked at every point at each market's last price.
 */
import { performance } from 'node:perf_hooks';
import { D, InputError, splitMarket, type Dec, type Decision, type MarketEvent, type MarketSymbol } from '../src/core/index.js';
import type { Logger } from '../src/log/index.js';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../src/risk/limits.js';
import type { StrategyDefinition } from '../src/strategy/define.js';
import { MergedSeries, type MarketSeries } from './merge.js';
import type { ReplayKernel } from './replay-kernel.js';
import { buildBacktestBundle, type BacktestBundle } from './driver.js';
import { RoundTripTracker } from './round-trips.js';
import type { RoundTrip } from './metrics.js';
import type { OrderOutcomes } from './run.js';
import type { PlotColumns } from '../src/engine/plots.js';
import type { StartHolding } from '../src/engine/positions.js';
import type { CandleColumns } from './report/candles.js';
import { PortfolioTape, type PortfolioTapeData } from './report/portfolio-tape.js';
import { barsOfSeries, closeBarsUpTo, rowBar } from './bar-replay.js';
import { lowFirstOf, type IntrabarRule } from '../src/fills/point/bar-range.js';
import type { PriceSeriesLike } from '../src/sim/prices/price-data.js';
import { DailyPnl, strategyFigures, type StrategyCounts, type StrategyFigures } from './portfolio-figures.js';

/** One strategy of the portfolio: its instance name (unique), plugin, params and markets. */
export interface PortfolioStrategy {
  readonly name: string;
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  readonly markets: readonly MarketSymbol[];
  /** `strategies[].allocation`: an amount of the quote asset, or a share of its balance at start. */
  readonly allocation?: string;
  /** `strategies[].holdings`: starting balances made this strategy's own (price: default the market's first). */
  readonly holdings?: ReadonlyArray<PortfolioHolding>;
}

/** One balance the config assigns to a strategy, `key` naming it (`strategies.N.holdings.MARKET`). */
export interface PortfolioHolding {
  readonly key: string;
  readonly market: string;
  readonly amount: string;
  readonly price?: string;
}

export interface PortfolioConfig {
  readonly strategies: readonly PortfolioStrategy[];
  /** One series per market the strategies trade, in the config's market order (the tie rule). */
  readonly series: readonly MarketSeries[];
  readonly initial?: Readonly<Record<string, string>>;
  readonly feeBps?: number;
  readonly slippageBps?: number;
  readonly quoteSpreadBps?: number;
  readonly limits?: RiskLimits;
  /** Over OHLCV rows, which extreme of a bar is taken as reached first (see IntrabarRule; default adverse). */
  readonly intrabar?: IntrabarRule;
  readonly onProgress?: (done: number, total: number) => void;
  readonly progressEvery?: number;
  readonly timer?: () => number;
  readonly log?: Logger;
  /** Hears each decision on an intent, in order (parity checks against a live run). */
  readonly onDecision?: (d: Decision) => void;
  /** Keep what report.html draws (`charts` of the run): fills by strategy, round trips, candles, plotted series. */
  readonly charts?: boolean;
  /** A SQLite journal file for the replay's records (default: in memory; the divergence report reads one back). */
  readonly journalFile?: string;
  /** History the strategies warm up on before the first point, oldest first (a recording's warm-up). */
  readonly warmUp?: readonly MarketEvent[];
}

/** A market of the portfolio at the end: its points, last price and what the account holds of it. */
export interface MarketFigures {
  readonly market: MarketSymbol;
  readonly points: number;
  readonly lastPrice: number;
  /** The account's base held at the end. */
  readonly held: string;
  /** Held × last price, in the quote asset. */
  readonly exposure: number;
  /** Largest exposure marked at any point of the market. */
  readonly peakExposure: number;
  readonly fees: string;
  readonly trades: readonly RoundTrip[];
}

export interface PortfolioRun {
  /** The quote asset every market is priced in (equity's unit). */
  readonly quote: string;
  /** The merged points (every market's), oldest first, and the account marked at each. */
  readonly times: Float64Array;
  readonly equity: Float64Array;
  readonly strategies: readonly StrategyFigures[];
  readonly markets: readonly MarketFigures[];
  /** The Pearson correlation of the strategies' daily P&L changes (same order as `strategies`). */
  readonly correlation: { readonly days: number; readonly matrix: readonly (readonly (number | null)[])[] };
  readonly feesPaid: string;
  readonly decisions: Readonly<Record<string, number>>;
  readonly orders: OrderOutcomes;
  readonly finalBalances: Readonly<Record<string, string>>;
  /** Strategies that stopped (threw), by name: the replay ended at the point the first stopped. */
  readonly stopped: readonly string[];
  readonly elapsedMs: number;
  /** What report.html draws, when `charts` was asked for. */
  readonly charts?: PortfolioCharts;
}

/** A portfolio's chart data: fills and round trips by strategy, each market's candles, the plotted series. */
export interface PortfolioCharts extends PortfolioTapeData {
  readonly candles?: readonly CandleColumns[];
  readonly plots?: readonly PlotColumns[];
}

/** Checks the strategies against the data before anything runs: every market has data, all share one quote. */
export function checkPortfolio(strategies: readonly PortfolioStrategy[], series: readonly MarketSeries[]): string {
  if (strategies.length === 0) throw new InputError('strategies', 'no strategy to backtest: add one under strategies: in the config');
  const given = new Set(series.map((s) => s.market));
  const traded = new Set(strategies.flatMap((s) => s.markets));
  for (const s of strategies) {
    const missing = s.markets.find((m) => !given.has(m));
    if (missing !== undefined)
      throw new InputError(
        '--data',
        `no data for ${missing} (traded by strategy ${s.name}): add --data ${missing}=FILE, or fetch it into the history cache (tradeloop history fetch --market ${missing}) and give --from/--to`,
      );
  }
  const stray = series.find((s) => !traded.has(s.market));
  if (stray !== undefined)
    throw new InputError(
      '--data',
      `${stray.market}=${stray.source}: no strategy of the config trades ${stray.market}; drop the flag or add a strategy on it`,
    );
  const quotes = new Set([...traded].map((m) => splitMarket(m).quote));
  if (quotes.size > 1)
    throw new InputError(
      'strategies',
      `the markets are priced in ${[...quotes].join(' and ')}: a portfolio backtest marks one account in one quote asset; backtest the markets of each quote asset apart`,
    );
  return [...quotes][0]!;
}

/**
 * The config's holdings as the kernel assigns them with the first balances: each in a market its
 * strategy trades, all of a base together no more than the starting balance funds, at the price given
 * or the market's first. A live run checks the same against what no strategy holds (live/holdings.ts).
 */
export function startHoldingsOf(
  strategies: readonly PortfolioStrategy[],
  series: readonly MarketSeries[],
  initial: Readonly<Record<string, string>>,
): StartHolding[] {
  const out: StartHolding[] = [];
  const taken = new Map<string, Dec>();
  for (const s of strategies)
    for (const h of s.holdings ?? []) {
      const market = h.market as MarketSymbol;
      if (!s.markets.includes(market))
        throw new InputError(
          h.key,
          `${s.name} does not trade ${h.market} (it trades ${s.markets.join(', ')}): assign a holding in one of its markets`,
        );
      const base = splitMarket(market).base;
      const want = (taken.get(base) ?? new D(0)).plus(h.amount);
      taken.set(base, want);
      const funded = new D(initial[base] ?? '0');
      if (want.gt(funded))
        throw new InputError(
          h.key,
          `${want.toFixed()} ${base} assigned, but the backtest starts with ${funded.toFixed()} ${base}: fund it (--initial ${base}=${want.toFixed()},...) or assign less`,
        );
      const first = series.find((x) => x.market === market)?.prices[0];
      out.push({ strategy: s.name, market, amount: h.amount, price: h.price ?? String(first) });
    }
  return out;
}

/** Replays the merged series through every strategy on one account (see the module comment). */
export async function runPortfolioBacktest(cfg: PortfolioConfig): Promise<PortfolioRun> {
  const timer = cfg.timer ?? (() => performance.now());
  const t0 = timer();
  const quote = checkPortfolio(cfg.strategies, cfg.series);
  const merged = new MergedSeries(cfg.series);
  if (merged.total === 0) throw new InputError('--data', 'the data holds no points');
  const startMs = Math.min(...cfg.series.filter((s) => s.times.length > 0).map((s) => s.times[0]!));
  const feeBps = cfg.feeBps ?? 10;
  const limits = { ...(cfg.limits ?? DEFAULT_RISK_LIMITS), fee_bps: feeBps };
  const [main, ...rest] = cfg.strategies;
  const allocations = new Map(cfg.strategies.flatMap((s) => (s.allocation === undefined ? [] : [[s.name, s.allocation] as const])));
  const funding = cfg.initial ?? { USD: '10000' };
  const startHoldings = startHoldingsOf(cfg.strategies, cfg.series, funding);
  // the bundle a single-strategy backtest builds, with every strategy of the config on it
  const b = buildBacktestBundle({
    definition: main!.definition,
    name: main!.name,
    params: main!.params,
    markets: main!.markets,
    startMs,
    limits,
    figuresOnly: true,
    ...(cfg.charts === true && { charts: true }),
    venue: {
      feeBps,
      slippageBps: cfg.slippageBps ?? 0,
      quoteSpreadBps: cfg.quoteSpreadBps ?? 10,
      funding,
    },
    ...(startHoldings.length > 0 && { startHoldings }),
    alongside: rest.map((s) => ({ name: s.name, definition: s.definition, params: s.params, markets: s.markets })),
    withQuotes: cfg.strategies.some((s) => (s.definition.needs ?? []).includes('quote')),
    ...(allocations.size > 0 && { allocations }),
    ...(cfg.log && { log: cfg.log }),
    ...(cfg.onDecision && { onDecision: cfg.onDecision }),
    ...(cfg.journalFile !== undefined && { journalFile: cfg.journalFile }),
  });
  const rk = b.replay;
  const { points } = b;
  const counts = countByStrategy(rk, cfg.strategies);
  const tape =
    cfg.charts === true
      ? new PortfolioTape(
          (ref) => b.journal.get(ref)?.strategy,
          (ref) => rk.counters.exitReasons.get(ref),
        )
      : undefined;
  try {
    await rk.kernel.startMetadata();
    if (cfg.warmUp !== undefined && cfg.warmUp.length > 0) rk.kernel.engine.warmUp(cfg.warmUp);
    const r = await replay(cfg, rk, {
      merged,
      bundle: b,
      quote,
      watchEquity: limits.daily_loss_limit !== undefined || limits.max_drawdown_pct !== undefined,
      ...(tape && { tape }),
    });
    const positions = rk.kernel.positions;
    const lastPrice = (m: MarketSymbol): number => r.last[cfg.series.findIndex((s) => s.market === m)]!;
    return {
      quote,
      times: r.times,
      equity: r.equity,
      strategies: cfg.strategies.map((s) => strategyFigures(s, positions, counts.get(s.name)!, lastPrice)),
      markets: cfg.series.map((s, k) => {
        const t = r.trackers.get(s.market)!;
        const held = points.balance(splitMarket(s.market).base);
        return {
          market: s.market,
          points: s.times.length,
          lastPrice: r.last[k]!,
          held: held.available.plus(held.trading).toFixed(),
          exposure: held.available.plus(held.trading).toNumber() * r.last[k]!,
          peakExposure: r.peak[k]!,
          fees: t.totalFees,
          trades: t.trades,
        };
      }),
      correlation: r.daily.correlation(),
      feesPaid: [...r.trackers.values()].reduce((sum, t) => sum.plus(t.totalFees), new D(0)).toFixed(),
      decisions: rk.kernel.gate.stats(),
      orders: { ...rk.counters.outcomes, openAtEnd: rk.kernel.openOrders.count() },
      finalBalances: Object.fromEntries(points.balances().map((x) => [x.asset, x.available.plus(x.trading).toFixed()])),
      stopped: rk.kernel.strategies.filter((s) => s.stopped !== undefined).map((s) => `${s.name}: ${s.stopped}`),
      elapsedMs: timer() - t0,
      ...(tape && {
        charts: {
          ...tape.data(),
          ...(rk.candles && { candles: rk.candles.columns() }),
          ...(!rk.kernel.plots.empty && { plots: rk.kernel.plots.columns() }),
        },
      }),
    };
  } finally {
    rk.kernel.close();
    b.journal.close();
  }
}

/** Decisions per strategy: intents, approvals and denials by code (what the trap warnings read). */
function countByStrategy(rk: ReplayKernel, strategies: readonly PortfolioStrategy[]): Map<string, StrategyCounts> {
  const counts = new Map(strategies.map((s) => [s.name, { decided: 0, approved: 0, denials: {} as Record<string, number> }]));
  rk.kernel.decisions$.subscribe((d) => {
    const c = counts.get(d.intent.strategy);
    if (c === undefined) return;
    c.decided++;
    if (d.kind === 'approve') c.approved++;
    else c.denials[d.reason.code] = (c.denials[d.reason.code] ?? 0) + 1;
  });
  return counts;
}

interface ReplayParts {
  readonly merged: MergedSeries;
  readonly bundle: BacktestBundle;
  readonly quote: string;
  readonly watchEquity: boolean;
  /** Hears every execution for the report (see PortfolioTape). */
  readonly tape?: PortfolioTape;
}

interface Replayed {
  readonly times: Float64Array;
  readonly equity: Float64Array;
  /** Each market's last price (NaN before its first point), by market index. */
  readonly last: Float64Array;
  readonly peak: Float64Array;
  readonly trackers: ReadonlyMap<MarketSymbol, RoundTripTracker>;
  readonly daily: DailyPnl;
}

const DAY_MS = 86_400_000;

/** The per-point loop over the merged series; ends early at the point a strategy stopped. */
async function replay(cfg: PortfolioConfig, rk: ReplayKernel, p: ReplayParts): Promise<Replayed> {
  const { merged } = p;
  const { points: pm, source, clock } = p.bundle;
  const series = cfg.series;
  const k = series.length;
  const bases = series.map((s) => splitMarket(s.market).base);
  const last = new Float64Array(k).fill(Number.NaN);
  const held = new Float64Array(k);
  const peak = new Float64Array(k);
  const times = new Float64Array(merged.total);
  const equity = new Float64Array(merged.total);
  const trackers = new Map(series.map((s) => [s.market, new RoundTripTracker(false, (ref) => rk.counters.exitReasons.get(ref))]));
  const daily = new DailyPnl(cfg.strategies, rk.kernel.positions, (m) => last[series.findIndex((s) => s.market === m)]!);
  const marks = { version: -1, funds: -1, consumed: 0, quote: 0 };
  const refresh = (): void => {
    marks.version = pm.version;
    if (pm.fundsVersion !== marks.funds) {
      marks.funds = pm.fundsVersion;
      marks.quote = pm.totalNumber(p.quote);
      for (let j = 0; j < k; j++) held[j] = pm.totalNumber(bases[j]!);
    }
    if (pm.executionCount === marks.consumed) return;
    for (const x of pm.executionsFrom(marks.consumed)) {
      trackers.get(x.market as MarketSymbol)?.add(x);
      p.tape?.add(x);
    }
    marks.consumed = pm.executionCount;
  };
  const mark = (): number => {
    let e = marks.quote;
    for (let j = 0; j < k; j++) if (held[j]! !== 0 && last[j]! === last[j]!) e += held[j]! * last[j]!;
    return e;
  };
  const every = Math.max(1, cfg.progressEvery ?? 65_536);
  // OHLCV rows: each point a bar, its orders filled inside it and a bar strategy's bars the rows
  const feed = rk.kernel.engine.barFeed;
  const rows = series.map((s) => barsOfSeries(feed, seriesLike(s), s.market));
  const rule = cfg.intrabar ?? 'adverse';
  const range = { open: 0, high: 0, low: 0, lowFirst: true };
  const row = { open: 0, high: 0, low: 0, close: 0, volume: 0 };
  let day = Math.floor(series.reduce((t, s) => Math.min(t, s.times[0] ?? t), Number.POSITIVE_INFINITY) / DAY_MS);
  let n = 0;
  for (let m = merged.next(); m >= 0; m = merged.next()) {
    const s = series[m]!;
    const at = s.times[merged.point]!;
    const price = s.prices[merged.point]!;
    // a new UTC day: each strategy's P&L as the last day closed it (the correlation's daily returns)
    if (Math.floor(at / DAY_MS) !== day) {
      day = Math.floor(at / DAY_MS);
      daily.sample();
    }
    // the bars ending by this point close at their end, as a live run's timer closes them
    if (feed !== undefined && (feed.nextClose() ?? Infinity) < at) await closeBarsUpTo(p.bundle, feed, at);
    clock.advanceTo(at);
    p.bundle.forgetFinished();
    const i = merged.point;
    if (s.opens !== undefined && s.highs !== undefined && s.lows !== undefined) {
      range.open = s.opens[i]!;
      range.high = s.highs[i]!;
      range.low = s.lows[i]!;
      range.lowFirst = lowFirstOf(rule, range.open, range.high, range.low);
      source.step(s.market, at, price, range);
    } else source.step(s.market, at, price);
    const bars = rows[m];
    if (bars !== undefined) rk.kernel.engine.onSourceBar(s.market, at, rowBar(bars, s.prices, i, row));
    last[m] = price;
    if (rk.kernel.busy) await rk.kernel.drain();
    // exits filled inside this bar (a position helper's stop reached by the low): heard before the next point
    while (source.reportPlaced(at)) if (rk.kernel.busy) await rk.kernel.drain();
    if (pm.version !== marks.version) refresh();
    let e = mark();
    // the kill switch acts as in a live run: halts new intents and cancels open orders (settled here)
    if (p.watchEquity && rk.kernel.markEquity(new D(e), at) !== undefined) {
      await rk.kernel.drain();
      if (pm.version !== marks.version) refresh();
      e = mark();
    }
    const exposure = held[m]! * price;
    if (exposure > peak[m]!) peak[m] = exposure;
    times[n] = at;
    equity[n++] = e;
    if (anyStopped(rk)) break;
    if (cfg.onProgress && n % every === 0) cfg.onProgress(n, merged.total);
  }
  daily.sample();
  cfg.onProgress?.(merged.total, merged.total);
  return { times: times.subarray(0, n), equity: equity.subarray(0, n), last, peak, trackers, daily };
}

/** A market's series as the bar reader takes it (an OHLCV file's columns when it has them). */
function seriesLike(s: MarketSeries): PriceSeriesLike {
  return { ...s, length: s.times.length };
}

function anyStopped(rk: ReplayKernel): boolean {
  for (const r of rk.kernel.strategies) if (r.stopped !== undefined) return true;
  return false;
}
