import { D, type Dec, ZERO } from '../../core/decimal.js';
import { type MarketSpec } from '../market/catalog.js';
import { MarketHistory } from '../market/history.js';
import { type SimOrder } from './order-types.js';
import { type PriceModel } from '../market/price-model.js';
import { type BackgroundTrade, SyntheticMarket } from '../market/synthetic-market.js';

/** A price level as the wire shows it. */
export interface WireLevel {
  readonly price: string;
  readonly amount: string;
}

/** A level of synthetic liquidity still available at the current tick. */
export interface LiveLevel {
  readonly price: Dec;
  readonly priceText: string;
  readonly amount: Dec;
}

/** One trade on the public tape. */
export interface TapeTrade {
  readonly matchNumber: string;
  readonly price: string;
  readonly amount: string;
  readonly at: number;
}

export const RECENT_EXECUTIONS = 2000;
const MAX_ABSORBED = 10_000;

/**
 * Everything live about one market: the synthetic participants, liquidity already taken from them
 * during the current tick, resting and waiting bot orders (price-time priority), and the public
 * tape (background trades merged with bot fills, last 2000).
 */
export class MarketState {
  readonly synthetic: SyntheticMarket;
  readonly history: MarketHistory;
  /** Resting bot orders, best first: bids by price descending then age, asks ascending then age. */
  readonly bids: SimOrder[] = [];
  readonly asks: SimOrder[] = [];
  /** Stop orders waiting for their trigger. */
  readonly stops: SimOrder[] = [];
  private consumedTick = -1;
  private readonly consumed = new Map<string, Dec>();
  private readonly fills: TapeTrade[] = [];
  private readonly absorbed = new Set<string>();
  private synthTape: TapeTrade[] = [];
  private synthCoveredTick: number | undefined;

  constructor(
    readonly spec: MarketSpec,
    model: PriceModel,
    seed: number,
    tickMs: number,
    earliestMs: number,
  ) {
    this.synthetic = new SyntheticMarket(spec, model, seed, tickMs);
    this.history = new MarketHistory(spec, model, seed, earliestMs);
  }

  /** True while bot orders need per-tick processing in this market. */
  isActive(): boolean {
    return this.bids.length > 0 || this.asks.length > 0 || this.stops.length > 0;
  }

  /** Synthetic liquidity left on one side at `tick`, best first. */
  liveLevels(side: 'bids' | 'asks', tick: number): LiveLevel[] {
    this.resetConsumption(tick);
    const out: LiveLevel[] = [];
    for (const l of this.synthetic.book(tick)[side]) {
      const taken = this.consumed.get(side + l.priceText);
      const amount = taken === undefined ? new D(l.amount.toFixed(8)) : new D(l.amount.toFixed(8)).minus(taken);
      if (amount.gt(0)) out.push({ price: new D(l.priceText), priceText: l.priceText, amount });
    }
    return out;
  }

  /** Records that `qty` of a synthetic level was taken during `tick`. */
  consume(side: 'bids' | 'asks', priceText: string, qty: Dec, tick: number): void {
    this.resetConsumption(tick);
    const key = side + priceText;
    this.consumed.set(key, (this.consumed.get(key) ?? ZERO).plus(qty));
  }

  /** Puts an order on the book at its price-time position. */
  rest(order: SimOrder): void {
    const list = order.side === 'BUY' ? this.bids : this.asks;
    const better = order.side === 'BUY' ? (o: SimOrder) => o.price!.gte(order.price!) : (o: SimOrder) => o.price!.lte(order.price!);
    let i = 0;
    while (i < list.length && better(list[i]!)) i++;
    list.splice(i, 0, order);
  }

  /** Removes an order from the book or the stop list (no-op when absent). */
  remove(order: SimOrder): void {
    for (const list of [this.bids, this.asks, this.stops]) {
      const i = list.indexOf(order);
      if (i >= 0) list.splice(i, 1);
    }
  }

  /** The book as the wire shows it: synthetic levels merged with resting bot orders by price. */
  orderBook(tick: number): { bids: WireLevel[]; asks: WireLevel[] } {
    return { bids: this.mergeSide('bids', tick), asks: this.mergeSide('asks', tick) };
  }

  /** Adds a bot fill to the tape. */
  recordFill(trade: TapeTrade): void {
    this.fills.push(trade);
    if (this.fills.length > RECENT_EXECUTIONS) this.fills.splice(0, this.fills.length - RECENT_EXECUTIONS);
  }

  /** The bot fills on the tape and the background trades they replaced (snapshots). */
  savedTape(): { fills: TapeTrade[]; absorbed: string[] } {
    return { fills: [...this.fills], absorbed: [...this.absorbed] };
  }

  restoreTape(tape: { readonly fills: readonly TapeTrade[]; readonly absorbed: readonly string[] }): void {
    this.fills.splice(0, this.fills.length, ...tape.fills);
    this.absorbed.clear();
    for (const m of tape.absorbed) this.absorbed.add(m);
  }

  /** Marks a background trade as taken by a bot order (its bot fill replaces it on the tape). */
  absorb(trade: BackgroundTrade): void {
    this.absorbed.add(trade.matchNumber);
    if (this.absorbed.size > MAX_ABSORBED) this.absorbed.delete(this.absorbed.values().next().value as string);
  }

  /** The latest trades up to `nowMs`, newest first (at most 2000). */
  recentTrades(nowMs: number): TapeTrade[] {
    const tick = this.synthetic.tickOf(nowMs);
    this.extendSynthTape(tick - 1);
    const current = this.synthetic
      .trades(tick)
      .filter((t) => t.at <= nowMs)
      .map((t) => this.toTape(t));
    const merged = [...this.synthTape, ...current, ...this.fills.filter((f) => f.at <= nowMs)].filter(
      (t) => !this.absorbed.has(t.matchNumber),
    );
    merged.sort((a, b) => b.at - a.at);
    return merged.slice(0, RECENT_EXECUTIONS);
  }

  /** The latest trade up to `nowMs` without building the whole tape (tickers need only this). */
  lastTrade(nowMs: number): TapeTrade | undefined {
    const fill = this.fills.findLast((f) => f.at <= nowMs);
    const current = this.synthetic.tickOf(nowMs);
    for (let k = current; k > current - 100_000; k--) {
      if (fill !== undefined && (k + 1) * this.synthetic.tickMs <= fill.at) return fill;
      const trades = this.synthetic.trades(k).filter((t) => t.at <= nowMs && !this.absorbed.has(t.matchNumber));
      const last = trades[trades.length - 1];
      if (last !== undefined) return fill !== undefined && fill.at >= last.at ? fill : this.toTape(last);
    }
    return fill;
  }

  private extendSynthTape(lastTick: number): void {
    const from = this.synthCoveredTick === undefined ? undefined : this.synthCoveredTick + 1;
    if (from !== undefined && from > lastTick) return;
    const fresh: TapeTrade[] = [];
    if (from === undefined || lastTick - from > 100_000) {
      for (let k = lastTick; fresh.length < RECENT_EXECUTIONS && k > lastTick - 200_000; k--) {
        const trades = this.synthetic.trades(k);
        for (let i = trades.length - 1; i >= 0; i--) fresh.push(this.toTape(trades[i]!));
      }
      this.synthTape = fresh.reverse();
    } else {
      for (let k = from; k <= lastTick; k++) for (const t of this.synthetic.trades(k)) this.synthTape.push(this.toTape(t));
    }
    if (this.synthTape.length > RECENT_EXECUTIONS) this.synthTape = this.synthTape.slice(-RECENT_EXECUTIONS);
    this.synthCoveredTick = lastTick;
  }

  private toTape(t: BackgroundTrade): TapeTrade {
    return { matchNumber: t.matchNumber, price: t.priceText, amount: t.amount.toFixed(8), at: t.at };
  }

  private mergeSide(side: 'bids' | 'asks', tick: number): WireLevel[] {
    const levels = new Map<string, { price: Dec; amount: Dec }>();
    for (const l of this.liveLevels(side, tick)) levels.set(l.priceText, { price: l.price, amount: l.amount });
    for (const o of this[side]) {
      const text = o.price!.toFixed(this.spec.priceDecimals);
      const left = o.baseAmount!.minus(o.amountFilled);
      const cur = levels.get(text);
      levels.set(text, { price: o.price!, amount: (cur?.amount ?? ZERO).plus(left) });
    }
    const sorted = [...levels.entries()].sort((a, b) => (side === 'bids' ? b[1].price.cmp(a[1].price) : a[1].price.cmp(b[1].price)));
    return sorted.map(([price, l]) => ({ price, amount: l.amount.toFixed(8) }));
  }

  private resetConsumption(tick: number): void {
    if (tick !== this.consumedTick) {
      this.consumed.clear();
      this.consumedTick = tick;
    }
  }
}
