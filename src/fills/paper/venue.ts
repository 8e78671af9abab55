import type { Observable } from 'rxjs';
import { Subject } from 'rxjs/internal/Subject';
import { D, type Instrument, type MarketEvent, type MarketSymbol } from '../../core/index.js';
import { PaperEngine, unentered, type Taken } from './engine.js';
import { executionState, fillState, keepRecent, KEEP_NEWEST, orderState, record, type PaperOrder } from './records.js';
import { parsePaperState, type PaperState, type PaperStateStore } from './state.js';
import type { RecordedTrade } from '../../venue/polling/index.js';
import {
  TERMINAL_ORDER_STATUSES,
  VenueNotFoundError,
  VenueRejectedError,
  type ExecuteQuoteRequest,
  type PlaceOrderRequest,
  type TransferLimitRow,
  type TransferRequest,
  type Venue,
  type VenueBalance,
  type VenueFill,
  type VenueOrder,
  type VenueQuote,
  type VenueQuoteExecution,
  type VenueTransfer,
} from '../../venue/venue.js';

export interface PaperVenueOptions {
  /** Starting balances of a new paper account, asset → decimal string (a kept account keeps its own). */
  readonly funding: Readonly<Record<string, string>>;
  /** Fee in basis points of each fill's notional, in the quote asset. */
  readonly feeBps: number;
  /** Decision-to-venue latency, ms: an order meets the book in force when it arrives (settled as the next book comes in). */
  readonly latencyMs: number;
  /** The run's clock (epoch ms). */
  readonly now: () => number;
  /** Where the paper account is kept between runs (none: it lives only in memory). */
  readonly store?: PaperStateStore;
  /** Closed orders, fills and quote executions are kept this long (default two days; the runner reads a day back). */
  readonly retentionMs?: number;
  /** Told when the account could not be kept after a change a book made (the next change writes it whole again). */
  readonly onSaveError?: (error: unknown) => void;
  /** Told when an open order could not be entered again as the matching engine was rebuilt (it is cancelled). */
  readonly onNote?: (text: string) => void;
  /**
   * Orders and fills the matching engine holds before it is rebuilt with only the open orders (its
   * records only grow; a long paper run must not): default 5,000.
   */
  readonly compactAfter?: number;
}

const DEFAULT_RETENTION_MS = 2 * 86_400_000;

/**
 * The Venue of `tradeloop run --paper` on the platform's real market data. It fills through a
 * RecordedBookVenue (PaperEngine) fed with the live order books, quotes and trades as the market
 * source receives them (`observe`), with the same fill rules as a backtest of a recording: a market order walks the book
 * levels, a crossing limit takes what crosses and rests the rest, a resting limit fills at its price
 * when a later book's opposite side crosses it, a quote executes at its price until `expires_at`.
 *
 * It holds no API client: nothing it does can reach the platform (orders, quote executions and
 * transfers exist only here). Its ids are its own (`paper-N`) and never repeat; the account (balances,
 * open orders with what they filled, recent fills and quote executions) is kept in `store` after every
 * change, and `PaperVenue.open` rebuilds it, so a restarted run continues the paper journal.
 */
export class PaperVenue implements Venue {
  readonly name = 'paper';
  private readonly changes = new Subject<void>();
  /** Fires after every change of the account (fills, orders, balances): the paper source reports it. */
  readonly changes$: Observable<void> = this.changes.asObservable();
  private readonly newFills = new Subject<readonly VenueFill[]>();
  /**
   * Each new paper fill once, as soon as the account that holds it is kept (the paper source's fill
   * stream: no poll needed). Kept first, so the journal never records a fill the kept account lacks.
   */
  readonly fills$: Observable<readonly VenueFill[]> = this.newFills.asObservable();
  /** Fills taken since the last save began: told on fills$ once it is done. */
  private unsaved: VenueFill[] = [];
  private readonly engine: PaperEngine;
  private readonly orders = new Map<string, PaperOrder>();
  private readonly byRef = new Map<string, PaperOrder>();
  private fills: VenueFill[] = [];
  private executions: (VenueQuoteExecution & { readonly at: number })[] = [];
  private seq = 0;
  private kept = false;
  private saving: Promise<void> = Promise.resolve();
  /** What the restore had to do differently (an open order that could not be re-entered), for the log. */
  readonly restoreNotes: string[] = [];

  private constructor(
    private readonly o: PaperVenueOptions,
    funding: Readonly<Record<string, string>>,
  ) {
    const { feeBps, latencyMs, now, compactAfter, onNote } = o;
    this.engine = new PaperEngine(
      { feeBps, latencyMs, now, ...(compactAfter !== undefined && { compactAfter }), ...(onNote && { onNote }) },
      funding,
    );
  }

  /** A paper venue: the account kept in `store` when there is one, else a new one with `funding`. */
  static async open(o: PaperVenueOptions): Promise<PaperVenue> {
    const kept = o.store?.load();
    if (kept === undefined) {
      const venue = new PaperVenue(o, o.funding);
      await venue.persist();
      return venue;
    }
    const state = parsePaperState(kept);
    const venue = new PaperVenue(o, state.balances);
    await venue.restore(state);
    return venue;
  }

  /** How often the matching engine was rebuilt with only what is live (see `compactAfter`). */
  get engineRebuilds(): number {
    return this.engine.rebuilds;
  }

  /** Whether this venue continues an account kept by an earlier run. */
  get continued(): boolean {
    return this.kept;
  }

  /** A market event as the source received it: books and quotes become what paper orders fill against. */
  observe(e: MarketEvent): void {
    if (e.kind === 'book') this.absorb(this.engine.book(e));
    else if (e.kind === 'quote')
      this.engine.quote({ quoteId: e.quoteId, market: e.market, side: e.side, price: e.price, expiresAt: e.expiresAt });
  }

  /**
   * Public trades of `market` as a trades stream read them (oldest first): a resting limit that was at
   * the venue when a trade went at or through its price fills at its price, up to the trade's amount
   * (each trade once, by its match number), as in a replay of a recording that holds trades.
   */
  observeTrades(market: MarketSymbol, trades: readonly RecordedTrade[]): void {
    this.absorb(this.engine.trades(market, trades));
  }

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    const existing = this.byRef.get(req.refId);
    if (existing !== undefined) return record(existing);
    const { order, taken } = await this.engine.place(req, (placed) => {
      const o: PaperOrder = {
        id: `paper-${++this.seq}`,
        request: { ...req },
        createdAt: placed.createdAt ?? this.o.now(),
        status: placed.status,
        amountFilled: new D(0),
        notionalFilled: new D(0),
        fills: 0,
      };
      this.track(o);
      return o;
    });
    this.absorb(taken);
    await this.saving;
    return record(order);
  }

  async cancelOrder(orderId: string): Promise<void> {
    const taken = await this.engine.cancel(this.find(orderId));
    if (taken === undefined) return; // closed already: nothing to cancel
    this.absorb({ fills: taken.fills, changed: true });
    await this.saving;
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    return record(this.find(orderId));
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    const o = this.byRef.get(refId);
    return o && record(o);
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    return this.openOrders();
  }

  /** The paper orders still open, oldest first (synchronous: the paper source reports them). */
  openOrders(): VenueOrder[] {
    return this.engine.live().map(record);
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    return this.fills.filter((f) => f.at >= sinceMs);
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    return this.engine.listQuotes(market);
  }

  /** Executes a quote the platform offered at its price until its expiry; nothing reaches the platform. */
  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    const existing = this.executions.find((x) => x.refId === req.refId);
    if (existing !== undefined) return existing;
    const x = await this.engine.executeQuote(req);
    const kept = { ...x, executionId: `paper-q${++this.seq}`, refId: req.refId, at: this.o.now() };
    this.executions.push(kept);
    this.absorb({ fills: [], changed: true });
    await this.saving;
    return kept;
  }

  async getQuoteExecution(executionId: string): Promise<VenueQuoteExecution> {
    const x = this.executions.find((e) => e.executionId === executionId);
    if (x === undefined) throw new VenueNotFoundError(`paper quote execution ${executionId} not found`);
    return x;
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    return this.executions.find((x) => x.refId === refId);
  }

  async balances(): Promise<readonly VenueBalance[]> {
    return this.engine.balances();
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    throw new VenueRejectedError(
      'BAD_REQUEST',
      `transfer ${req.refId}: paper mode moves no money between profiles (the platform is never written to); run transfers live, or backtest them (both fill models take transfers)`,
    );
  }

  async findTransferByRef(): Promise<VenueTransfer | undefined> {
    return undefined;
  }

  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    return [];
  }

  /** The platform catalog's markets: the order rules the paper fills are ruled by. */
  async instruments(): Promise<readonly Instrument[]> {
    return this.engine.instruments();
  }

  /** Resolves once every change so far is kept in the store (a failed save was reported when it failed). */
  flush(): Promise<void> {
    return this.saving.catch(() => undefined);
  }

  private track(order: PaperOrder): void {
    this.orders.set(order.id, order);
    this.byRef.set(order.request.refId, order);
  }

  private find(orderId: string): PaperOrder {
    const o = this.orders.get(orderId);
    if (o === undefined) throw new VenueNotFoundError(`paper order ${orderId} not found`);
    return o;
  }

  /** Takes what a step of the engine did into the account; a change is kept, then told. */
  private absorb(taken: Taken): void {
    this.fills.push(...taken.fills);
    this.unsaved.push(...taken.fills);
    if (taken.changed || taken.fills.length > 0) this.changed();
  }

  private changed(): void {
    this.prune();
    const fills = this.unsaved;
    this.unsaved = [];
    // a write the caller awaits hears a failed save itself; one made by a book is reported here (the
    // fills are told either way: the account in memory holds them, and the next save keeps it whole)
    const tell = (): void => {
      if (fills.length > 0) this.newFills.next(fills);
    };
    this.persist().then(tell, (e: unknown) => {
      this.o.onSaveError?.(e);
      tell();
    });
    this.changes.next();
  }

  /**
   * Keeps the whole account in the store, in order (each save waits for the one before). A failed save
   * fails this call only: the next one writes the whole account again.
   */
  private persist(): Promise<void> {
    const store = this.o.store;
    if (store === undefined) return Promise.resolve();
    const next = this.saving.catch(() => undefined).then(async () => store.save(JSON.stringify(await this.snapshot())));
    this.saving = next;
    return next;
  }

  private async snapshot(): Promise<PaperState> {
    return {
      version: 1,
      seq: this.seq,
      balances: await this.engine.totals(),
      orders: [...this.orders.values()].map(orderState),
      fills: this.fills.map(fillState),
      executions: this.executions.map(executionState),
    };
  }

  /**
   * Drops closed orders, fills and quote executions older than the retention, or past the newest
   * KEEP_AT_MOST; open orders always stay, and so do the newest KEEP_NEWEST closed orders and quote
   * executions whatever their age (a restart checks that the venue still holds the journal's latest).
   */
  private prune(): void {
    const before = this.o.now() - (this.o.retentionMs ?? DEFAULT_RETENTION_MS);
    this.fills = keepRecent(this.fills, (f) => f.at >= before, 0);
    this.executions = keepRecent(this.executions, (x) => x.at >= before, KEEP_NEWEST);
    const closed = [...this.orders.values()].filter((o) => o.closedAt !== undefined);
    const kept = new Set(keepRecent(closed, (o) => o.closedAt! >= before, KEEP_NEWEST));
    if (kept.size === closed.length) return;
    for (const order of closed) {
      if (kept.has(order)) continue;
      this.orders.delete(order.id);
      this.byRef.delete(order.request.refId);
    }
  }

  /** Rebuilds a kept account: records as they were, and every open order entered again for what it has left. */
  private async restore(state: PaperState): Promise<void> {
    this.kept = true;
    this.seq = state.seq;
    this.fills = state.fills.map((f) => ({ ...f, amount: new D(f.amount), price: new D(f.price), commission: new D(f.commission) }));
    this.executions = state.executions.map((x) => ({
      ...x,
      price: new D(x.price),
      baseAmount: new D(x.baseAmount),
      quoteAmount: new D(x.quoteAmount),
    }));
    for (const s of state.orders) {
      const order: PaperOrder = { ...s, request: s.request, amountFilled: new D(s.amountFilled), notionalFilled: new D(s.notionalFilled) };
      this.track(order);
      if (TERMINAL_ORDER_STATUSES.has(order.status)) continue;
      const why = await this.engine.restore(order);
      if (why === undefined) continue;
      order.status = 'CANCELLED';
      order.closedAt = this.o.now();
      this.restoreNotes.push(unentered(order, why));
    }
    this.engine.settle();
    await this.persist();
  }
}
