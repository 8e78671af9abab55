import { type z } from 'zod';
import { TestClock } from '../clock/test-clock.js';
import { instrumentOf } from '../platform/instruments.js';
import { D, splitMarket, ZERO, type Dec, type ExecReport, type Instrument, type MarketEvent, type MarketSymbol } from '../core/index.js';
import type { OpenOrderView } from '../state/account-store.js';
import { MarketStore } from '../state/market-store.js';
import { BarFeed, parseTimeframe, type Bar, type Ohlcv } from '../bars/index.js';
import {
  barsOf,
  type IntentDraft,
  type KeptExitLevels,
  type OwnPosition,
  type StrategyContext,
  type StrategyDefinition,
  type StrategyHandlers,
} from './define.js';
import { resolveParams } from './params.js';
import { plotValue } from './plots.js';

/** A market event without its time (the kit stamps the clock's time). */
export type EventInput = MarketEvent extends infer E ? (E extends MarketEvent ? Omit<E, 'at'> & { at?: number } : never) : never;

/**
 * A test kit for strategy authors: feeds a strategy scripted market events and reports on a test
 * clock and collects the intents it returns, with balances the test sets. No engine, no venue.
 *
 *   const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3 }, { USD: '1000' });
 *   kit.prices('BTCUSD', [10, 10, 10, 12]);
 *   expect(kit.intents.at(-1)).toMatchObject({ kind: 'place-order', side: 'BUY' });
 */
export class StrategyTestKit<P extends z.ZodObject> {
  readonly clock: TestClock;
  readonly store: MarketStore;
  readonly intents: IntentDraft[] = [];
  readonly balances = new Map<string, Dec>();
  openOrders: OpenOrderView[] = [];
  /** Instruments by market; a market not set here has a tick of 0.01 (set one to test rounding). */
  readonly instruments = new Map<MarketSymbol, Instrument>();
  /** Exit levels the strategy kept (`ctx.keepExitLevels`), by market; set one to test a restart. */
  readonly exitLevels = new Map<MarketSymbol, KeptExitLevels>();
  /** What `ctx.warmingUp` answers (set it to test a strategy's warm-up path). */
  warmingUp = false;
  readonly handlers: StrategyHandlers;
  readonly ctx: StrategyContext;
  /** The strategy's declared bar series, built from the prices and candles fed as the engine builds them. */
  private readonly feed: BarFeed;
  /** Every bar delivered to `onBar`, in order. */
  readonly barsSeen: Bar[] = [];
  /**
   * What the strategy plotted (`ctx.plot`), by market then name: every point `[time, value]`, oldest
   * first, null for a gap; checked as the engine checks it (a bad call throws from the handler).
   */
  readonly plotted = new Map<MarketSymbol, Map<string, Array<[number, number | null]>>>();

  constructor(
    definition: StrategyDefinition<P>,
    params: Record<string, unknown> = {},
    balances: Record<string, string> = {},
    startMs = Date.UTC(2025, 0, 1),
  ) {
    this.clock = new TestClock(startMs);
    this.store = new MarketStore(this.clock, { staleAfterMs: Number.MAX_SAFE_INTEGER });
    for (const [a, v] of Object.entries(balances)) this.balances.set(a, new D(v));
    const resolved = resolveParams(definition, params);
    this.handlers = definition.create(resolved);
    this.feed = new BarFeed(barsOf(definition, resolved));
    const ctx = {
      now: () => this.clock.now(),
      warmingUp: false,
      market: (m) => this.store.snapshot(m),
      history: (m) => this.store.history(m),
      bars: (m, tf) => {
        const series = this.feed.series(m, tf);
        if (series === undefined)
          throw new Error(`the strategy declared no ${tf} bars of ${m}: add { market: '${m}', timeframe: '${tf}' } to its bars`);
        return series;
      },
      instrument: (m) => this.instruments.get(m) ?? instrumentOf({ market: m, tickRate: '0.01' }),
      account: {
        available: (a) => this.balances.get(a) ?? ZERO,
        total: (a) => this.balances.get(a) ?? ZERO,
        openOrders: (m?: MarketSymbol) => this.openOrders.filter((o) => m === undefined || o.market === m),
      },
      intentIdOf: (d) => (typeof d === 'object' && d !== null ? this.ids.get(d) : undefined),
      position: (m) => this.positionOf(m),
      keepExitLevels: (m, levels) => void this.exitLevels.set(m, levels),
      plot: (m, name, value) => this.plot(m, name, value),
    } satisfies StrategyContext;
    this.ctx = Object.defineProperty(ctx, 'warmingUp', { get: () => this.warmingUp });
  }

  /**
   * `ctx.position`: the kit has one strategy and no fills of its own to keep, so its position is the
   * balance of the market's base asset (all of it sellable) with the exit levels kept.
   */
  private positionOf(market: MarketSymbol): OwnPosition {
    const { base } = splitMarket(market);
    const amount = this.balances.get(base) ?? ZERO;
    return {
      market,
      amount,
      averageCost: undefined,
      realizedPnl: ZERO,
      fees: ZERO,
      unrealizedPnl: undefined,
      entryAt: undefined,
      exitLevels: this.exitLevels.get(market) ?? {},
      sellable: amount,
    };
  }

  /** The points of one plotted series (`ctx.plot(market, name, …)`), oldest first; empty when never plotted. */
  plots(market: MarketSymbol, name: string): ReadonlyArray<[number, number | null]> {
    return this.plotted.get(market)?.get(name) ?? [];
  }

  private plot(market: MarketSymbol, name: string, value: unknown): void {
    const names = this.plotted.get(market);
    const points = names?.get(name);
    const v = plotValue(market, name, value, points !== undefined, names?.size ?? 0);
    const at = this.clock.now();
    if (points === undefined) {
      if (names === undefined) this.plotted.set(market, new Map([[name, [[at, v]]]]));
      else names.set(name, [[at, v]]);
    } else if (points.at(-1)?.[0] === at) points[points.length - 1] = [at, v];
    else points.push([at, v]);
  }

  /** Applies an event at the current clock time and returns the intents it produced. */
  event(e: EventInput): IntentDraft[] {
    const event = { ...e, at: e.at ?? this.clock.now() } as MarketEvent;
    if (event.at > this.clock.now()) this.clock.advanceTo(event.at);
    // as the engine: bars due close first, then the point is applied and counted into the open bars
    const out = this.closeBars(event.at);
    this.store.apply(event);
    if (event.kind === 'price') this.feed.point(event.market, 'points', event.at, event.price);
    return [...out, ...this.collect(this.handlers.onEvent?.(event, this.ctx))];
  }

  /** Closes the declared bars whose end is at or before `now` (as the engine's clock does) and returns what `onBar` made. */
  closeBars(now = this.clock.now()): IntentDraft[] {
    const out: IntentDraft[] = [];
    for (const bar of this.feed.closeDue(now)) {
      this.barsSeen.push(bar);
      out.push(...this.collect(this.handlers.onBar?.(bar, this.ctx)));
    }
    return out;
  }

  /**
   * Feeds candles of `market` (an OHLCV file's rows, `spacing` apart from `startMs`, default the
   * clock's time) as a backtest does: the clock ticks at each row's start (closing the bars due), the
   * row goes into every declared series of the market, and the last bars close at the end of the last
   * row. Returns the intents `onBar` made.
   */
  candles(market: MarketSymbol, spacing: string, rows: ReadonlyArray<Ohlcv>, startMs = this.clock.now()): IntentDraft[] {
    const ms = parseTimeframe(spacing, 'candles spacing').ms;
    this.feed.use(market, 'bars', ms);
    const out: IntentDraft[] = [];
    rows.forEach((row, i) => {
      const at = startMs + i * ms;
      if (at > this.clock.now()) this.clock.advanceTo(at);
      out.push(...this.closeBars(at));
      this.feed.bar(market, at, row);
    });
    const end = startMs + rows.length * ms;
    if (end > this.clock.now()) this.clock.advanceTo(end);
    return [...out, ...this.closeBars(end)];
  }

  /** Feeds a price series, one point per `stepMs`, returning all intents produced. */
  prices(market: MarketSymbol, series: readonly number[], stepMs = 60_000): IntentDraft[] {
    const out: IntentDraft[] = [];
    for (const price of series) {
      this.clock.advance(stepMs);
      out.push(...this.event({ kind: 'price', market, price }));
    }
    return out;
  }

  report(r: ExecReport): IntentDraft[] {
    return this.collect(this.handlers.onReport?.(r, this.ctx));
  }

  /**
   * Fills a place-order intent the strategy returned, as a venue would, in one fill: the balances move
   * (a BUY spends amount × price plus the commission in the quote asset and adds the base; a SELL the
   * reverse), then the strategy hears `accepted` and `filled` (its order done). Returns the intents
   * those reports produced. The amount is the intent's `baseAmount`, or its `quoteAmount` / `price`
   * rounded down to 8 decimals; `commission` is in the quote asset (default 0).
   *
   *   const [buy] = kit.prices('BTCUSD', [100, 101, 105]);
   *   kit.fill(buy, { price: '105.10' });
   */
  fill(intent: IntentDraft | undefined, fill: { readonly price: string | number; readonly commission?: string }): IntentDraft[] {
    if (intent === undefined || intent.kind !== 'place-order')
      throw new TypeError(
        `fill: ${intent === undefined ? 'no intent' : `a ${intent.kind} intent`} given: pass a place-order intent the strategy returned`,
      );
    const price = new D(fill.price);
    if (!price.isFinite() || price.lte(0)) throw new RangeError(`fill: price ${String(fill.price)} is not a price: give a decimal above 0`);
    const commission = new D(fill.commission ?? '0');
    const amount =
      intent.baseAmount !== undefined
        ? new D(intent.baseAmount)
        : new D(intent.quoteAmount ?? '0').div(price).toDecimalPlaces(8, D.ROUND_DOWN);
    if (amount.lte(0)) throw new RangeError('fill: the intent has no baseAmount or quoteAmount to fill');
    const { base, quote } = splitMarket(intent.market);
    const notional = amount.times(price);
    const bal = (a: string): Dec => this.balances.get(a) ?? ZERO;
    if (intent.side === 'BUY') {
      this.balances.set(base, bal(base).plus(amount));
      this.balances.set(quote, bal(quote).minus(notional).minus(commission));
    } else {
      this.balances.set(base, bal(base).minus(amount));
      this.balances.set(quote, bal(quote).plus(notional).minus(commission));
    }
    const n = ++this.fills;
    const refId = this.ids.get(intent) ?? intent.intentId ?? `kit-fill-ref-${n}`;
    const at = this.clock.now();
    return [
      ...this.report({ kind: 'accepted', refId, orderId: `kit-order-${n}`, at }),
      ...this.report({
        kind: 'filled',
        refId,
        orderId: `kit-order-${n}`,
        fillId: `kit-fill-${n}`,
        market: intent.market,
        side: intent.side,
        amount: amount.toFixed(),
        price: price.toFixed(),
        commission: commission.toFixed(),
        commissionAsset: quote,
        orderDone: true,
        at,
      }),
    ];
  }

  /**
   * The id the kit gave an intent the strategy returned (`kit-1`, `kit-2`, ... in order, as the engine
   * stamps ids): the `refId` a hand-written report of that order must carry.
   */
  intentIdOf(intent: IntentDraft | undefined): string | undefined {
    return intent === undefined ? undefined : this.ids.get(intent);
  }

  setBalance(asset: string, amount: string): void {
    this.balances.set(asset, new D(amount));
  }

  private fills = 0;
  private stampedCount = 0;
  /** The id each intent object the strategy returned got, as the engine stamps them. */
  private readonly ids = new WeakMap<object, string>();

  private collect(out: readonly IntentDraft[] | IntentDraft | undefined | void): IntentDraft[] {
    if (out === undefined || out === null) return [];
    const list = Array.isArray(out) ? [...out] : [out as IntentDraft];
    // stamped as the engine does (kit-1, kit-2, ...), unless the kit is warming up (dropped, as live)
    if (!this.warmingUp)
      for (const d of list) if (typeof d === 'object' && d !== null && !this.ids.has(d)) this.ids.set(d, `kit-${++this.stampedCount}`);
    this.intents.push(...list);
    return list;
  }
}
