/**
 * The book model's run (`--fill-model book`): a stream recording replayed through the kernel with a venue that fills against
 * the recorded market (src/fills/book/venue.ts). Every recorded market event of the
 * strategy's market (books, tickers, prices, quotes) reaches the strategy at its receive time, as in
 * the live run; each book also moves the venue's book. Orders meet the book in force when they arrive
 * (decision time plus `--latency-ms`). Equity is marked at every recorded event, at the last book mid
 * (or price). When the run polled no prices, each book's mid is also given as a price event, as the
 * point model replays book mids, so price strategies decide on the same points in both models.
 * The warm-up history the run loaded warms the strategy first, as it did live: the prices the
 * recording's header holds, or (recordings from before headers held them) its `history:` responses.
 * Recorded trades (`trades:` responses, with `streams.trades_ms`) reach the venue at the time they
 * executed, so a resting limit fills on a trade that went at or through its price while it rested.
 * A bar strategy's bars are built as the run built them, from the recorded trades (each response when
 * the run received it) or else the recorded prices, and close at their ends between the recorded
 * steps, as the run's timer closed them (recorded-bars.ts); `barInputs` says which.
 * The kernel, the replay source and the venue are built by the one driver (driver.ts).
 */
import { performance } from 'node:perf_hooks';
import { D, InputError, splitMarket, type MarketEvent } from '../src/core/index.js';
import type { JournalStore } from '../src/exec/journal-store.js';
import type { Logger } from '../src/log/index.js';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../src/risk/limits.js';
import { executionOfDecimals, type PointExecution } from '../src/fills/point/orders.js';
import { marketsOf, type StrategyDefinition } from '../src/strategy/define.js';
import type { RecordedQuoteExecution } from '../src/fills/book/venue.js';
import type { VenueFill } from '../src/venue/venue.js';
import { buildBookBundle } from './driver.js';
import { unitsOf } from './money-units.js';
import { bookFillRule } from './fill-model.js';
import { RecordedBarClock, recordedBarInputs } from './recorded-bars.js';
import { loadRecordedMarket, type RecordedMarket } from './recorded-market.js';
import { runFigures, type ReplayKernelOptions } from './replay-kernel.js';
import { RoundTripTracker } from './round-trips.js';
import type { BacktestRun } from './run.js';

export interface RecordedBookConfig {
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  /** The stream recording. */
  readonly path: string;
  readonly initial?: Readonly<Record<string, string>>;
  readonly feeBps?: number;
  /** Decision-to-venue latency, ms (default 0). */
  readonly latencyMs?: number;
  readonly limits?: RiskLimits;
  readonly log?: Logger;
  readonly timer?: () => number;
  /** The replay's journal (default: in memory); a caller's journal is left open for it to read. */
  readonly journal?: JournalStore;
  /** Keep what the report draws beyond the figures (plotted series, a bar strategy's candles; see BacktestConfig.charts). */
  readonly charts?: boolean;
  /** The strategy's instance name (default its definition's). */
  readonly name?: string;
  /** More strategies on the same market and account (the divergence report replays a run's together); the figures are the first's. */
  readonly alongside?: ReplayKernelOptions['alongside'];
}

/** Replays a recording through the strategy with the recorded-book venue; the same report as a point run. */
export interface RecordedBookRun extends BacktestRun {
  readonly warmUpEvents: number;
  /** Where the warm-up came from (the header's prices, or the history lines of an older recording). */
  readonly warmUpFrom: RecordedMarket['warmUpFrom'];
  /** Recorded trades of the market the venue met. */
  readonly recordedTrades: number;
  /** The fill rule as it applied to this recording (with or without trades), for the manifest. */
  readonly fillRule: string;
  /** What the data was, for the manifest: the file, its books and trades. */
  readonly dataSource: string;
  /**
   * What each market's declared bars were built from, one line per market in the live run's header's
   * words (none when no strategy declares bars), for the manifest.
   */
  readonly barInputs: readonly string[];
}

export async function runRecordedBookBacktest(cfg: RecordedBookConfig): Promise<RecordedBookRun> {
  const timer = cfg.timer ?? (() => performance.now());
  const t0 = timer();
  const markets = marketsOf(cfg.definition, cfg.params as never);
  if (markets.length !== 1)
    throw new InputError(
      'market',
      `strategy ${cfg.definition.name} trades ${markets.join(', ') || 'no market'}: a backtest replays one market`,
    );
  const market = markets[0]!;
  const other = cfg.alongside?.find((a) => a.markets.length !== 1 || a.markets[0] !== market);
  if (other !== undefined)
    throw new InputError(
      'market',
      `strategy ${other.name} trades ${other.markets.join(', ')}: a book replay replays one market, ${market}`,
    );
  const { base, quote } = splitMarket(market);
  const recorded = await loadRecordedMarket(cfg.path, market);
  const feeBps = cfg.feeBps ?? 10;
  const limits = { ...(cfg.limits ?? DEFAULT_RISK_LIMITS), fee_bps: feeBps };
  const startBase = cfg.initial?.[base];
  const firstPrice = startBase !== undefined && new D(startBase).gt(0) ? firstRecordedPrice(recorded) : undefined;
  const startHolding =
    firstPrice === undefined
      ? undefined
      : { strategy: cfg.name ?? cfg.definition.name, market, amount: startBase!, price: String(firstPrice) };
  const b = buildBookBundle({
    definition: cfg.definition,
    params: cfg.params,
    markets: [market],
    // a trades response received before the first market event is heard at its own time
    startMs: Math.min(recorded.steps[0]!.at, recorded.tapes[0]?.at ?? Infinity),
    limits,
    book: { funding: cfg.initial ?? { USD: '10000' }, feeBps, latencyMs: cfg.latencyMs ?? 0 },
    // the starting base is the strategy's own, bought at the first recorded price, as in a backtest
    // on points: a balance no strategy holds is sold by none (risk.positions: per_strategy, as live)
    ...(startHolding !== undefined && { startHoldings: [startHolding] }),
    ...(cfg.name !== undefined && { name: cfg.name }),
    ...(cfg.alongside && { alongside: cfg.alongside }),
    ...(cfg.charts === true && { charts: true }),
    ...(cfg.journal && { journal: cfg.journal }),
    ...(cfg.log && { log: cfg.log }),
  });
  const { clock, venue, source, journal } = b;
  const rk = b.replay;
  const { kernel, runner } = rk;
  const barInputs = recordedBarInputs(kernel.engine, kernel.strategies, recorded);
  const bars = new RecordedBarClock(kernel.engine, recorded);
  const tracker = new RoundTripTracker(true, (ref) => rk.counters.exitReasons.get(ref));
  const watchEquity = cfg.limits?.daily_loss_limit !== undefined || cfg.limits?.max_drawdown_pct !== undefined;
  const times: number[] = [];
  const prices: number[] = [];
  const equity: number[] = [];
  let mark: number | undefined;
  let tracked = 0;
  let trackedQuotes = 0;
  const settle = async (at: number): Promise<void> => {
    // latency-0 orders fill while they are placed: report them, then what the strategy did about it
    for (let round = 0; round < 1000; round++) {
      if (kernel.busy) await kernel.drain();
      if (!(await source.flush(at)) && !kernel.busy) break;
    }
    const fills = venue.allFills();
    for (; tracked < fills.length; tracked++) tracker.add(asExecution(fills[tracked]!));
    const quoted = venue.allQuoteExecutions();
    for (; trackedQuotes < quoted.length; trackedQuotes++) tracker.add(quoteExecution(quoted[trackedQuotes]!));
  };
  try {
    await kernel.startMetadata();
    // the history the live run warmed its strategy on, as it did before its first decision
    if (recorded.warmUp.length > 0) kernel.engine.warmUp(recorded.warmUp);
    // the starting balances, as a live run's first account poll reports them
    await source.flush(clock.now(), true);
    // recorded trades reach the venue when they executed, and the bars (ends, then the trades as the
    // run received them) are run at their times, all before the step received at that time
    let nextTrade = 0;
    const upTo = async (until: number): Promise<void> => {
      const ts = recorded.trades;
      for (;;) {
        const tradeAt = ts[nextTrade]?.at ?? Number.POSITIVE_INFINITY;
        const barAt = bars.nextAt() ?? Number.POSITIVE_INFINITY;
        const at = Math.min(tradeAt, barAt);
        if (at > until || at === Number.POSITIVE_INFINITY) return;
        if (at > clock.now()) clock.advanceTo(at);
        if (barAt <= tradeAt) {
          if (bars.run(clock.now()) && kernel.busy) await settle(clock.now());
          continue;
        }
        if (venue.trade(market, ts[nextTrade++]!).length > 0) await settle(clock.now());
      }
    };
    for (const step of recorded.steps) {
      await upTo(step.at);
      clock.advanceTo(step.at);
      venue.arrive(step.at, false);
      for (const e of step.events) {
        if (e.kind === 'book') venue.book(market, e.at, e.bids, e.asks);
        else if (e.kind === 'quote') venue.quote({ quoteId: e.quoteId, market, side: e.side, price: e.price, expiresAt: e.expiresAt });
      }
      venue.arrive(step.at);
      await settle(step.at);
      for (const e of step.events) {
        source.emit(e);
        const m = markOf(e);
        if (m !== undefined) mark = m;
        if (e.kind === 'book' && !recorded.hasPrices && m !== undefined) source.emit({ kind: 'price', market, at: e.at, price: m });
        await settle(step.at);
      }
      if (mark === undefined) continue;
      const bal = await venue.balances();
      const total = (asset: string): number => {
        const b = bal.find((x) => x.asset === asset);
        return b ? b.available.plus(b.trading).toNumber() : 0;
      };
      let e = total(quote) + total(base) * mark;
      if (watchEquity && kernel.markEquity(new D(e), step.at) !== undefined) {
        await settle(step.at);
        const after = await venue.balances();
        e = after
          .filter((x) => x.asset === quote || x.asset === base)
          .reduce((s, x) => s + x.available.plus(x.trading).toNumber() * (x.asset === base ? mark! : 1), 0);
      }
      times.push(step.at);
      prices.push(mark);
      equity.push(e);
      // a stopped strategy's figures count only the steps up to its failure
      if (runner.stopped !== undefined) break;
    }
    if (runner.stopped === undefined) await upTo(Number.POSITIVE_INFINITY);
    if (times.length === 0)
      throw new InputError('--data', `${cfg.path} holds no book, ticker or price of ${market} to mark the account at`);
    const balances = await venue.balances();
    return {
      ...runFigures(
        rk,
        market,
        { times: Float64Array.from(times), prices: Float64Array.from(prices), equity: Float64Array.from(equity), total: marked(recorded) },
        tracker,
      ),
      elapsedMs: timer() - t0,
      finalBalances: Object.fromEntries(balances.map((x) => [x.asset, x.available.plus(x.trading).toFixed()])),
      units: unitsOf(market, kernel.riskView.instrument(market)?.priceDecimals),
      warmUpEvents: recorded.warmUp.length,
      warmUpFrom: recorded.warmUpFrom,
      recordedTrades: recorded.trades.length,
      fillRule: bookFillRule(recorded.trades.length > 0 ? 'trades' : recorded.tradesPolled ? 'none-happened' : 'not-recorded'),
      dataSource: `${cfg.path} (recorded ${market} books: ${recorded.books}; trades: ${recorded.trades.length === 0 ? 'none' : recorded.trades.length})`,
      barInputs,
      warnings: rk.counters.decided === 0 ? [`the strategy made no decision on the ${times.length} recorded steps of ${market}`] : [],
    };
  } finally {
    kernel.close();
    if (cfg.journal === undefined) journal.close();
  }
}

/** How many steps of the recording mark the account (a step with a mark, or after one). */
function marked(recorded: RecordedMarket): number {
  const first = recorded.steps.findIndex((s) => s.events.some((e) => markOf(e) !== undefined));
  return first < 0 ? 0 : recorded.steps.length - first;
}

/** The price an event marks the account at: a price, or the mid of a book's or ticker's best levels. */
function markOf(e: MarketEvent): number | undefined {
  if (e.kind === 'price') return e.price;
  const [bid, ask] =
    e.kind === 'book' ? [e.bids[0]?.price, e.asks[0]?.price] : e.kind === 'ticker' ? [e.bid?.price, e.ask?.price] : [undefined, undefined];
  return bid !== undefined && ask !== undefined && bid > 0 && ask > 0 ? (bid + ask) / 2 : undefined;
}

/** A venue fill as the round-trip tracker reads one (quote spent with the fee, or received after it). */
function asExecution(f: VenueFill): PointExecution {
  const notional = f.amount.times(f.price);
  const quoteAmount = f.side === 'BUY' ? notional.plus(f.commission) : notional.minus(f.commission);
  return executionOfDecimals({
    executionId: f.fillId,
    orderId: f.orderId,
    refId: '',
    market: f.market,
    side: f.side,
    amount: f.amount,
    price: f.price,
    commission: f.commission,
    commissionAsset: f.commissionAsset,
    quoteAmount,
    at: f.at,
    kind: 'order',
  });
}

/** A settled quote execution as the round-trip tracker reads one (no fee: the spread is its cost). */
function quoteExecution(x: RecordedQuoteExecution): PointExecution {
  return executionOfDecimals({
    executionId: x.executionId,
    orderId: x.executionId,
    refId: x.refId ?? '',
    market: x.market,
    side: x.side,
    amount: x.baseAmount,
    price: x.price,
    commission: new D(0),
    commissionAsset: splitMarket(x.market).quote,
    quoteAmount: x.quoteAmount,
    at: x.at,
    kind: 'quote',
  });
}

/** The first price the recording gives its market: a price point, a ticker's last trade, or a book's mid. */
function firstRecordedPrice(recorded: { readonly steps: readonly { readonly events: readonly MarketEvent[] }[] }): number | undefined {
  for (const step of recorded.steps)
    for (const e of step.events) {
      if (e.kind === 'price') return e.price;
      if (e.kind === 'ticker' && e.last !== undefined) return e.last.price;
      if (e.kind === 'book' && e.bids[0] !== undefined && e.asks[0] !== undefined) return (e.bids[0].price + e.asks[0].price) / 2;
    }
  return undefined;
}
