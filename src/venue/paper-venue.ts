import { Subject, type Observable } from 'rxjs';
import { D, type Instrument, type MarketEvent, type MarketSymbol } from '../core/index.js';
import { executionState, fillState, keepRecent, KEEP_NEWEST, orderState, record, reenter, withoutCrossed, type PaperOrder } from './paper-records.js';
import { parsePaperState, type PaperState, type PaperStateStore } from './paper-state.js';
import type { RecordedTrade } from './polling/index.js';
import { RecordedBookVenue, type RecordedQuote } from './recorded-book-venue.js';
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
} from './venue.js';

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
 * RecordedBookVenue fed with the live order books and quotes as the market source receives them
 * (`observe`), with the same fill rules as a backtest of a recording: a market order walks the book
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
  private inner: RecordedBookVenue;
  private readonly orders = new Map<string, PaperOrder>();
  private readonly byRef = new Map<string, PaperOrder>();
  /** The matching engine's order id → our order (live orders only). */
  private byInner = new Map<string, PaperOrder>();
  /** Orders entered in the matching engine since it was built. */
  private innerOrders = 0;
  /** Bumped by everything that changes the matching engine (a rebuild in progress then starts again later). */
  private version = 0;
  private compacting: Promise<void> | undefined;
  private rebuilt = 0;
  /** The last book of each market and the quotes on offer: a rebuilt engine starts from them. */
  private readonly lastBooks = new Map<MarketSymbol, Extract<MarketEvent, { kind: 'book' }>>();
  private readonly lastQuotes = new Map<string, RecordedQuote>();
  private fills: VenueFill[] = [];
  private executions: (VenueQuoteExecution & { readonly at: number })[] = [];
  private seq = 0;
  private kept = false;
  private fillCursor = 0;
  /** Fills and closes of the engine whose order id is not mapped yet (a book came between a placement and its answer). */
  private parked: { fills: VenueFill[]; closed: VenueOrder[] } = { fills: [], closed: [] };
  private saving: Promise<void> = Promise.resolve();
  /** What the restore had to do differently (an open order that could not be re-entered), for the log. */
  readonly restoreNotes: string[] = [];

  private constructor(private readonly o: PaperVenueOptions, funding: Readonly<Record<string, string>>) {
    this.inner = this.engine(funding);
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
    return this.rebuilt;
  }

  /** Whether this venue continues an account kept by an earlier run. */
  get continued(): boolean {
    return this.kept;
  }

  /** A market event as the source received it: books and quotes become what paper orders fill against. */
  observe(e: MarketEvent): void {
    if (e.kind === 'book') {
      this.version++;
      this.lastBooks.set(e.market, e);
      this.inner.book(e.market, e.at, e.bids, e.asks);
      // orders that reached the venue by this book and were not closed by it now rest
      let arrived = false;
      for (const order of this.byInner.values()) {
        if (order.status !== 'SUBMITTED' || order.createdAt + this.o.latencyMs > e.at) continue;
        order.status = 'OPEN';
        arrived = true;
      }
      if (this.settle() || arrived) this.changed();
    } else if (e.kind === 'quote') {
      const q = { quoteId: e.quoteId, market: e.market, side: e.side, price: e.price, expiresAt: e.expiresAt };
      this.inner.quote(q);
      this.lastQuotes.set(q.quoteId, q);
      if (this.lastQuotes.size > 64) for (const [id, old] of this.lastQuotes) if (old.expiresAt < e.at) this.lastQuotes.delete(id);
    }
  }

  /**
   * Public trades of `market` as a trades stream read them (oldest first): a resting limit that was at
   * the venue when a trade went at or through its price fills at its price, up to the trade's amount
   * (each trade once, by its match number), as in a replay of a recording that holds trades.
   */
  observeTrades(market: MarketSymbol, trades: readonly RecordedTrade[]): void {
    this.version++;
    for (const t of trades) this.inner.trade(market, t);
    if (this.settle()) this.changed();
  }

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    const existing = this.byRef.get(req.refId);
    if (existing !== undefined) return record(existing);
    if (this.innerOrders + this.inner.allFills().length >= (this.o.compactAfter ?? 5_000)) await this.compact();
    this.version++;
    const placed = await this.inner.placeOrder(req);
    this.innerOrders++;
    const order: PaperOrder = { id: `paper-${++this.seq}`, request: { ...req }, createdAt: placed.createdAt ?? this.o.now(), status: placed.status, amountFilled: new D(0), notionalFilled: new D(0), fills: 0 };
    this.track(order, placed.orderId);
    this.settle();
    this.changed();
    await this.saving;
    return record(order);
  }

  async cancelOrder(orderId: string): Promise<void> {
    const order = this.find(orderId);
    const inner = [...this.byInner].find(([, o]) => o === order)?.[0];
    if (inner === undefined) return; // closed already: nothing to cancel
    this.version++;
    await this.inner.cancelOrder(inner);
    this.settle();
    this.changed();
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
    return [...this.byInner.values()].map(record);
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    return this.fills.filter((f) => f.at >= sinceMs);
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    return this.inner.listQuotes(market);
  }

  /** Executes a quote the platform offered at its price until its expiry; nothing reaches the platform. */
  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    const existing = this.executions.find((x) => x.refId === req.refId);
    if (existing !== undefined) return existing;
    this.version++;
    const x = await this.inner.executeQuote(req);
    const kept = { ...x, executionId: `paper-q${++this.seq}`, refId: req.refId, at: this.o.now() };
    this.executions.push(kept);
    this.changed();
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
    return this.inner.balances();
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    throw new VenueRejectedError('BAD_REQUEST', `transfer ${req.refId}: paper mode moves no money between profiles (the platform is never written to); run transfers live, or backtest them with --fill-model points`);
  }

  async findTransferByRef(): Promise<VenueTransfer | undefined> {
    return undefined;
  }

  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    return [];
  }

  /** The platform catalog's markets: the order rules the paper fills are ruled by. */
  async instruments(): Promise<readonly Instrument[]> {
    return this.inner.instruments();
  }

  /** Resolves once every change so far is kept in the store (a failed save was reported when it failed). */
  flush(): Promise<void> {
    return this.saving.catch(() => undefined);
  }

  private engine(funding: Readonly<Record<string, string>>): RecordedBookVenue {
    return new RecordedBookVenue({ funding, feeBps: this.o.feeBps, latencyMs: this.o.latencyMs, now: this.o.now });
  }

  private track(order: PaperOrder, innerId: string | undefined): void {
    this.orders.set(order.id, order);
    this.byRef.set(order.request.refId, order);
    if (innerId !== undefined) this.byInner.set(innerId, order);
  }

  private find(orderId: string): PaperOrder {
    const o = this.orders.get(orderId);
    if (o === undefined) throw new VenueNotFoundError(`paper order ${orderId} not found`);
    return o;
  }

  /** Takes the engine's new fills and closed orders into our records; true when any were taken. */
  private settle(): boolean {
    const all = this.inner.allFills();
    const fills = [...this.parked.fills, ...all.slice(this.fillCursor)];
    this.fillCursor = all.length;
    const closed = [...this.parked.closed, ...this.inner.takeClosed()];
    this.parked = { fills: [], closed: [] };
    const taken: VenueFill[] = [];
    for (const f of fills) {
      const order = this.byInner.get(f.orderId);
      if (order === undefined) {
        this.parked.fills.push(f);
        continue;
      }
      order.fills++;
      order.amountFilled = order.amountFilled.plus(f.amount);
      order.notionalFilled = order.notionalFilled.plus(f.amount.times(f.price));
      const fill = { ...f, fillId: `${order.id}-f${order.fills}`, orderId: order.id };
      this.fills.push(fill);
      taken.push(fill);
    }
    for (const c of closed) {
      const order = this.byInner.get(c.orderId);
      if (order === undefined) {
        this.parked.closed.push(c);
        continue;
      }
      order.status = c.status;
      order.closedAt = this.o.now();
      this.byInner.delete(c.orderId);
    }
    this.unsaved.push(...taken);
    return taken.length > 0 || closed.length > this.parked.closed.length;
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
    const balances = Object.fromEntries((await this.inner.balances()).map((b) => [b.asset, b.available.plus(b.trading).toFixed()]));
    return {
      version: 1,
      seq: this.seq,
      balances,
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
    this.executions = state.executions.map((x) => ({ ...x, price: new D(x.price), baseAmount: new D(x.baseAmount), quoteAmount: new D(x.quoteAmount) }));
    for (const s of state.orders) {
      const order: PaperOrder = { ...s, request: s.request, amountFilled: new D(s.amountFilled), notionalFilled: new D(s.notionalFilled) };
      if (TERMINAL_ORDER_STATUSES.has(order.status)) {
        this.track(order, undefined);
        continue;
      }
      const entered = await reenter(this.inner, order);
      if (typeof entered === 'string') this.track(order, entered);
      else {
        this.track(order, undefined);
        this.restoreNotes.push(this.cancelUnentered(order, entered.error));
      }
      this.innerOrders++;
    }
    this.settle();
    await this.persist();
  }

  /** Closes an order that could not be entered again, and says why. */
  private cancelUnentered(order: PaperOrder, why: string): string {
    order.status = 'CANCELLED';
    order.closedAt = this.o.now();
    return `paper order ${order.id} (${order.request.refId}) could not be entered again for what it has left and is cancelled: ${why}`;
  }

  /**
   * Rebuilds the matching engine with only what is live: the balances, the open orders entered again
   * for what they have left, the quotes on offer and the last book of each market (without the levels
   * the open orders took). Waits while an order is on its way (latency); starts again later if
   * anything changed the engine meanwhile.
   */
  private compact(): Promise<void> {
    if ([...this.byInner.values()].some((o) => o.status === 'SUBMITTED')) return Promise.resolve();
    this.compacting ??= this.rebuild().finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async rebuild(): Promise<void> {
    if (this.settle()) this.changed();
    const [old, mark, now] = [this.inner, this.version, this.o.now()];
    const totals = Object.fromEntries((await old.balances()).map((b) => [b.asset, b.available.plus(b.trading).toFixed()]));
    const next = this.engine(totals);
    const live = [...this.byInner.values()];
    for (const q of this.lastQuotes.values()) if (q.expiresAt >= now) next.quote(q);
    for (const [market, b] of this.lastBooks) {
      const { bids, asks } = withoutCrossed(b, live);
      next.book(market, b.at, bids, asks);
    }
    const entered = await Promise.all(live.map(async (order) => [order, await reenter(next, order)] as const));
    if (this.inner !== old || this.version !== mark) return; // the engine moved on meanwhile: the next placement tries again
    this.inner = next;
    this.byInner = new Map();
    this.fillCursor = next.allFills().length;
    this.parked = { fills: [], closed: [] };
    next.takeClosed();
    this.innerOrders = live.length;
    this.rebuilt++;
    for (const [order, id] of entered) {
      if (typeof id === 'string') this.byInner.set(id, order);
      else this.o.onNote?.(this.cancelUnentered(order, id.error));
    }
    this.changed();
  }
}
