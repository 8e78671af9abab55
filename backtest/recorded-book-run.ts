/**
 * `--fill-model book`: a stream recording replayed through the kernel with a venue that fills against
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
 */
import { performance } from 'node:perf_hooks';
import { TestClock } from '../src/clock/test-clock.js';
import { D, InputError, splitMarket, type MarketEvent, type MarketSymbol } from '../src/core/index.js';
import type { JournalStore } from '../src/exec/journal-store.js';
import { MemoryJournal } from '../src/exec/memory-journal.js';
import type { Logger } from '../src/log/index.js';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../src/risk/limits.js';
import { MAX_LISTED_PROBLEMS, PriceDataError, type PriceProblem } from '../src/sim/prices/price-file.js';
import { executionOfDecimals, type PointExecution } from '../src/fills/point/orders.js';
import { marketsOf, type StrategyDefinition } from '../src/strategy/define.js';
import { HotStream } from '../src/state/hot-stream.js';
import type { AccountEvent, OpenOrderView } from '../src/state/index.js';
import type { MarketSource, StreamHealth } from '../src/venue/market-source.js';
import { ResponseDecoder } from '../src/venue/polling/decode.js';
import { tradesFromWire, type RecordedTrade } from '../src/venue/polling/recent-trades.js';
import { readRecording } from '../src/venue/polling/recording-reader.js';
import { parseStreamName } from '../src/venue/polling/stream-names.js';
import { RecordedBookVenue, type RecordedQuoteExecution } from '../src/fills/book/venue.js';
import type { VenueFill, VenueOrder } from '../src/venue/venue.js';
import { unitsOf } from './money-units.js';
import { WarmUpCollector, type WarmUpSource } from './recorded-series.js';
import { BOOK_FILL_RULE } from './fill-model.js';
import { buildReplayKernel, runFigures } from './replay-kernel.js';
import { RoundTripTracker } from './round-trips.js';
import type { BacktestRun } from './run.js';
import { RECORDS_KEPT } from './wiring.js';

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
}

/** The recorded market events of one market, grouped by receive time, oldest first. */
export interface RecordedMarket {
  readonly market: MarketSymbol;
  readonly steps: readonly { readonly at: number; readonly events: readonly MarketEvent[] }[];
  readonly books: number;
  readonly hasPrices: boolean;
  /** The warm-up history the run loaded before going live, oldest first. */
  readonly warmUp: readonly MarketEvent[];
  /** Where the warm-up came from: the header's prices, the `history:` lines (older recordings), or none. */
  readonly warmUpFrom: WarmUpSource;
  /** The recorded trades of the market (`trades:` responses), by execution time, oldest first. */
  readonly trades: readonly RecordedTrade[];
  /** Whether the run polled trades of the market at all (`streams.trades_ms`), even if none happened. */
  readonly tradesPolled: boolean;
}

/** True when the recording holds order books of `market` (what `--fill-model book` fills against). */
export async function recordingHasBooks(path: string, market: MarketSymbol): Promise<boolean> {
  for await (const entry of readRecording(path)) if (entry.stream === `book:${market}`) return true;
  return false;
}

/** Decodes the market events of `market` (problems named by line, all at once, as for price files). */
export async function loadRecordedMarket(path: string, market: MarketSymbol): Promise<RecordedMarket> {
  const decoder = new ResponseDecoder();
  const problems: PriceProblem[] = [];
  const steps: { at: number; events: MarketEvent[] }[] = [];
  let books = 0;
  let hasPrices = false;
  let lastAt = -Infinity;
  const warmUp = await WarmUpCollector.of(path, market);
  const trades: RecordedTrade[] = [];
  let tradesPolled = false;
  for await (const entry of readRecording(path)) {
    const id = parseStreamName(entry.stream);
    if (id === undefined || !['book', 'ticker', 'prices', 'quotes', 'history', 'trades'].includes(id.kind)) continue;
    if (id.market !== undefined && id.market !== market) continue;
    if (id.kind === 'trades') {
      try {
        tradesPolled = true;
        trades.push(...tradesFromWire(entry.body));
      } catch (err) {
        problems.push({ line: entry.line, where: `line ${entry.line}`, message: `the trades response does not decode: ${(err as Error).message}` });
      }
      continue;
    }
    if (id.kind === 'history') {
      warmUp.add(decoder, id, entry, problems);
      continue;
    }
    let events: readonly MarketEvent[];
    try {
      events = decoder.decode(id, entry.body, entry.at).market.filter((e) => e.market === market);
    } catch (err) {
      problems.push({ line: entry.line, where: `line ${entry.line}`, message: `the ${id.kind} response does not decode: ${(err as Error).message}` });
      continue;
    }
    if (events.length === 0) continue;
    if (entry.at < lastAt) {
      problems.push({ line: entry.line, where: `line ${entry.line}`, message: `time ${new Date(entry.at).toISOString()} is earlier than the response before it` });
      continue;
    }
    books += events.filter((e) => e.kind === 'book').length;
    hasPrices ||= events.some((e) => e.kind === 'price');
    const last = steps[steps.length - 1];
    if (last !== undefined && last.at === entry.at) last.events.push(...events);
    else steps.push({ at: entry.at, events: [...events] });
    lastAt = entry.at;
  }
  if (problems.length > 0) throw new PriceDataError(path, problems.slice(0, MAX_LISTED_PROBLEMS), problems.length);
  if (books === 0) throw new InputError('--fill-model', `${path} holds no order books of ${market}, so nothing to fill against: use --fill-model points (fills at the recorded prices), or record a run whose strategy needs books`);
  const warm = warmUp.result();
  return { market, steps, books, hasPrices, warmUp: warm.events, warmUpFrom: warm.from, trades: trades.sort((a, b) => a.at - b.at), tradesPolled };
}

/**
 * The MarketSource of a recorded-book replay: emits, in the order a live run learns them, the
 * account (when it changed), the orders that closed, the new fills, then the recorded events.
 */
class RecordedBookSource implements MarketSource {
  readonly events$ = new HotStream<MarketEvent>();
  readonly account$ = new HotStream<AccountEvent>();
  readonly fills$ = new HotStream<readonly VenueFill[]>();
  readonly orders$ = new HotStream<readonly VenueOrder[]>();
  private fillsSeen = 0;
  private quotesSeen = 0;
  private lastAt = 0;
  private steps = 0;

  constructor(private readonly venue: RecordedBookVenue) {}

  /** Reports what the venue did since the last call (the account always with `force`); true when there was anything. */
  async flush(at: number, force = false): Promise<boolean> {
    const v = this.venue;
    const closed = v.takeClosed();
    const fills = v.allFills().slice(this.fillsSeen);
    const settled = v.allQuoteExecutions().length - this.quotesSeen;
    if (closed.length === 0 && fills.length === 0 && settled === 0 && !force) return false;
    this.fillsSeen += fills.length;
    this.quotesSeen += settled;
    this.account$.next({ kind: 'balances', at, items: await v.balances() });
    const open: OpenOrderView[] = (await v.listOpenOrders()).map((o) => ({
      orderId: o.orderId, refId: o.refId, market: o.market, side: o.side, type: o.type,
      ...(o.price && { price: o.price }), ...(o.baseAmount && { baseAmount: o.baseAmount }), ...(o.quoteAmount && { quoteAmount: o.quoteAmount }),
      amountFilled: o.amountFilled, status: o.status,
    }));
    this.account$.next({ kind: 'open-orders', at, orders: open });
    if (closed.length > 0) this.orders$.next(closed);
    if (fills.length > 0) this.fills$.next(fills);
    return true;
  }

  emit(e: MarketEvent): void {
    this.steps++;
    this.lastAt = e.at;
    this.events$.next(e);
  }

  async warmUp(): Promise<readonly MarketEvent[]> {
    return [];
  }

  start(): void {}

  async stop(): Promise<void> {
    for (const s of [this.events$, this.account$, this.fills$, this.orders$] as HotStream<unknown>[]) s.complete();
  }

  health(): readonly StreamHealth[] {
    return [{ stream: 'recording', lastSuccessAt: this.lastAt, consecutiveErrors: 0, lastError: undefined, polls: this.steps }];
  }
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
}

export async function runRecordedBookBacktest(cfg: RecordedBookConfig): Promise<RecordedBookRun> {
  const timer = cfg.timer ?? (() => performance.now());
  const t0 = timer();
  const markets = marketsOf(cfg.definition, cfg.params as never);
  if (markets.length !== 1) throw new InputError('market', `strategy ${cfg.definition.name} trades ${markets.join(', ') || 'no market'}: a backtest replays one market`);
  const market = markets[0]!;
  const { base, quote } = splitMarket(market);
  const recorded = await loadRecordedMarket(cfg.path, market);
  const feeBps = cfg.feeBps ?? 10;
  const clock = new TestClock(recorded.steps[0]!.at);
  const venue = new RecordedBookVenue({ funding: cfg.initial ?? { USD: '10000' }, feeBps, latencyMs: cfg.latencyMs ?? 0, now: () => clock.now() });
  const journal = cfg.journal ?? new MemoryJournal({ keepFinished: RECORDS_KEPT });
  const limits = { ...(cfg.limits ?? DEFAULT_RISK_LIMITS), fee_bps: feeBps };
  const rk = buildReplayKernel({ clock, venue, journal, definition: cfg.definition, params: cfg.params, markets: [market], startMs: recorded.steps[0]!.at, limits, ...(cfg.log && { log: cfg.log }) });
  const { kernel, runner } = rk;
  const source = new RecordedBookSource(venue);
  kernel.attach(source);
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
    await source.flush(recorded.steps[0]!.at, true);
    // recorded trades reach the venue when they executed, before the step received at that time
    let nextTrade = 0;
    const tradesUpTo = async (until: number): Promise<void> => {
      const ts = recorded.trades;
      for (; nextTrade < ts.length && ts[nextTrade]!.at <= until; nextTrade++) {
        const t = ts[nextTrade]!;
        if (t.at > clock.now()) clock.advanceTo(t.at);
        if (venue.trade(market, t).length > 0) await settle(clock.now());
      }
    };
    for (const step of recorded.steps) {
      await tradesUpTo(step.at);
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
        e = after.filter((x) => x.asset === quote || x.asset === base).reduce((s, x) => s + x.available.plus(x.trading).toNumber() * (x.asset === base ? mark! : 1), 0);
      }
      times.push(step.at);
      prices.push(mark);
      equity.push(e);
      // a stopped strategy's figures count only the steps up to its failure
      if (runner.stopped !== undefined) break;
    }
    if (runner.stopped === undefined) await tradesUpTo(Number.POSITIVE_INFINITY);
    if (times.length === 0) throw new InputError('--data', `${cfg.path} holds no book, ticker or price of ${market} to mark the account at`);
    const balances = await venue.balances();
    return {
      ...runFigures(rk, market, { times: Float64Array.from(times), prices: Float64Array.from(prices), equity: Float64Array.from(equity), total: marked(recorded) }, tracker),
      elapsedMs: timer() - t0,
      finalBalances: Object.fromEntries(balances.map((x) => [x.asset, x.available.plus(x.trading).toFixed()])),
      units: unitsOf(market, kernel.riskView.instrument(market)?.priceDecimals),
      warmUpEvents: recorded.warmUp.length,
      warmUpFrom: recorded.warmUpFrom,
      recordedTrades: recorded.trades.length,
      fillRule: bookFillRule(recorded.trades.length > 0 ? 'trades' : recorded.tradesPolled ? 'none-happened' : 'not-recorded'),
      dataSource: `${cfg.path} (recorded ${market} books: ${recorded.books}; trades: ${recorded.trades.length === 0 ? 'none' : recorded.trades.length})`,
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
  const [bid, ask] = e.kind === 'book' ? [e.bids[0]?.price, e.asks[0]?.price] : e.kind === 'ticker' ? [e.bid?.price, e.ask?.price] : [undefined, undefined];
  return bid !== undefined && ask !== undefined && bid > 0 && ask > 0 ? (bid + ask) / 2 : undefined;
}

/** A venue fill as the round-trip tracker reads one (quote spent with the fee, or received after it). */
function asExecution(f: VenueFill): PointExecution {
  const notional = f.amount.times(f.price);
  const quoteAmount = f.side === 'BUY' ? notional.plus(f.commission) : notional.minus(f.commission);
  return executionOfDecimals({ executionId: f.fillId, orderId: f.orderId, refId: '', market: f.market, side: f.side, amount: f.amount, price: f.price, commission: f.commission, commissionAsset: f.commissionAsset, quoteAmount, at: f.at, kind: 'order' });
}

/**
 * The book rule as it applied to one recording: whether resting limits could fill on recorded trades
 * (`trades`), the run polled trades but none happened (`none-happened`), or it did not poll them.
 */
export function bookFillRule(trades: 'trades' | 'none-happened' | 'not-recorded'): string {
  if (trades === 'trades') return BOOK_FILL_RULE;
  const why = trades === 'none-happened' ? 'the recorded trades stream saw no trade of the market' : 'this recording holds no trades (record with streams.trades_ms)';
  return `${BOOK_FILL_RULE} Here ${why}, so resting limits filled only when the opposite side crossed them.`;
}

export { BOOK_FILL_RULE, resolveFillModel, type FillModel, type FillModelFlags } from './fill-model.js';

/** A settled quote execution as the round-trip tracker reads one (no fee: the spread is its cost). */
function quoteExecution(x: RecordedQuoteExecution): PointExecution {
  return executionOfDecimals({ executionId: x.executionId, orderId: x.executionId, refId: x.refId ?? '', market: x.market, side: x.side, amount: x.baseAmount, price: x.price, commission: new D(0), commissionAsset: splitMarket(x.market).quote, quoteAmount: x.quoteAmount, at: x.at, kind: 'quote' });
}
