import type { Instrument, MarketEvent, MarketSymbol } from '../../core/index.js';
import { reenter, withoutCrossed, type PaperOrder } from './records.js';
import type { RecordedTrade } from '../../venue/polling/index.js';
import { RecordedBookVenue, type RecordedQuote } from '../book/venue.js';
import type {
  ExecuteQuoteRequest,
  PlaceOrderRequest,
  VenueBalance,
  VenueFill,
  VenueOrder,
  VenueQuote,
  VenueQuoteExecution,
} from '../../venue/venue.js';

export interface PaperEngineOptions {
  readonly feeBps: number;
  readonly latencyMs: number;
  readonly now: () => number;
  /** Orders, fills and quote executions the engine holds before it is rebuilt with only what is live (default 5,000). */
  readonly compactAfter?: number;
  /** Told when an open order could not be entered again as the engine was rebuilt (it is cancelled). */
  readonly onNote?: (text: string) => void;
}

/** What a step of the engine did to our orders: the new fills (with our ids) and whether anything changed. */
export interface Taken {
  readonly fills: readonly VenueFill[];
  readonly changed: boolean;
}

type BookEvent = Extract<MarketEvent, { kind: 'book' }>;

/**
 * The matching side of the paper venue: a RecordedBookVenue fed with the live books, quotes and
 * trades, and the link from its orders to the paper orders (`PaperOrder`, whose status, amounts and
 * fill count it keeps up to date, naming each fill `<order>-f<n>`). Its records only grow, so past
 * `compactAfter` it is rebuilt with only what is live: the balances, the open orders entered again
 * for what they have left, the quotes on offer and the last books (without the levels the open
 * orders took).
 */
export class PaperEngine {
  private inner: RecordedBookVenue;
  /** The engine's order id → our order (live orders only). */
  private byInner = new Map<string, PaperOrder>();
  /** Orders entered since the engine was built. */
  private entered = 0;
  /** Bumped by everything that changes the engine (a rebuild in progress then starts again later). */
  private version = 0;
  private compacting: Promise<Taken> | undefined;
  private rebuilt = 0;
  private readonly lastBooks = new Map<MarketSymbol, BookEvent>();
  private readonly lastQuotes = new Map<string, RecordedQuote>();
  private fillCursor = 0;
  /** Per market, the newest trade time given to the engine and the trades at that time. */
  private readonly tradeMarks = new Map<MarketSymbol, { at: number; ids: Set<string> }>();
  /** Fills and closes whose order id is not mapped yet (a book came between a placement and its answer). */
  private parked: { fills: VenueFill[]; closed: VenueOrder[] } = { fills: [], closed: [] };

  constructor(
    private readonly o: PaperEngineOptions,
    funding: Readonly<Record<string, string>>,
  ) {
    this.inner = this.build(funding);
  }

  /** How often the engine was rebuilt with only what is live. */
  get rebuilds(): number {
    return this.rebuilt;
  }

  /** A book as received: orders that arrived meet it, resting ones it crosses fill. */
  book(e: BookEvent): Taken {
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
    const taken = this.settle();
    return { fills: taken.fills, changed: taken.changed || arrived };
  }

  quote(q: RecordedQuote): void {
    this.inner.quote(q);
    this.lastQuotes.set(q.quoteId, q);
    if (this.lastQuotes.size > 64) for (const [id, old] of this.lastQuotes) if (old.expiresAt < this.o.now()) this.lastQuotes.delete(id);
  }

  /**
   * The trades a poll read, oldest first: each goes to the engine once. Polls overlap (each returns the
   * latest trades), so only trades at or after the newest time seen pass, those at that very time once;
   * the engine is given them without their match number, so it keeps no set of every trade ever seen.
   */
  trades(market: MarketSymbol, trades: readonly RecordedTrade[]): Taken {
    this.version++;
    let mark = this.tradeMarks.get(market) ?? { at: Number.NEGATIVE_INFINITY, ids: new Set<string>() };
    for (const t of trades) {
      const id = t.matchNumber ?? `${t.at}/${t.price}/${t.amount}`;
      if (t.at < mark.at || (t.at === mark.at && mark.ids.has(id))) continue;
      if (t.at > mark.at) mark = { at: t.at, ids: new Set() };
      mark.ids.add(id);
      this.inner.trade(market, { price: t.price, amount: t.amount, at: t.at });
    }
    this.tradeMarks.set(market, mark);
    return this.settle();
  }

  /** Enters `req`; `create` makes our order from the engine's answer. */
  async place(req: PlaceOrderRequest, create: (placed: VenueOrder) => PaperOrder): Promise<{ order: PaperOrder; taken: Taken }> {
    const held = this.entered + this.inner.allFills().length + this.inner.allQuoteExecutions().length;
    const before = held >= (this.o.compactAfter ?? 5_000) ? await this.compact() : undefined;
    this.version++;
    const placed = await this.inner.placeOrder(req);
    this.entered++;
    const order = create(placed);
    this.byInner.set(placed.orderId, order);
    const taken = this.settle();
    return { order, taken: before ? { fills: [...before.fills, ...taken.fills], changed: true } : { fills: taken.fills, changed: true } };
  }

  /** Cancels a live order; undefined when it is closed already. */
  async cancel(order: PaperOrder): Promise<Taken | undefined> {
    const id = [...this.byInner].find(([, o]) => o === order)?.[0];
    if (id === undefined) return undefined;
    this.version++;
    await this.inner.cancelOrder(id);
    return this.settle();
  }

  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    this.version++;
    return this.inner.executeQuote(req);
  }

  listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    return this.inner.listQuotes(market);
  }

  balances(): Promise<readonly VenueBalance[]> {
    return this.inner.balances();
  }

  instruments(): Promise<readonly Instrument[]> {
    return this.inner.instruments();
  }

  /** Each asset's total (available plus held), as decimal strings. */
  async totals(): Promise<Record<string, string>> {
    return Object.fromEntries((await this.inner.balances()).map((b) => [b.asset, b.available.plus(b.trading).toFixed()]));
  }

  /** Our orders still live in the engine, oldest first. */
  live(): PaperOrder[] {
    return [...this.byInner.values()];
  }

  /** Enters a kept open order again (a restart); why it could not be, when it could not. */
  async restore(order: PaperOrder): Promise<string | undefined> {
    const id = await reenter(this.inner, order);
    this.entered++;
    if (typeof id !== 'string') return id.error;
    this.byInner.set(id, order);
    return undefined;
  }

  /** Takes the engine's new fills and closed orders into our orders. */
  settle(): Taken {
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
      taken.push({ ...f, fillId: `${order.id}-f${order.fills}`, orderId: order.id });
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
    return { fills: taken, changed: taken.length > 0 || closed.length > this.parked.closed.length };
  }

  private build(funding: Readonly<Record<string, string>>): RecordedBookVenue {
    return new RecordedBookVenue({ funding, feeBps: this.o.feeBps, latencyMs: this.o.latencyMs, now: this.o.now });
  }

  /** Rebuilds the engine, unless an order is on its way (latency): then a later placement tries again. */
  private compact(): Promise<Taken> {
    if (this.live().some((o) => o.status === 'SUBMITTED')) return Promise.resolve({ fills: [], changed: false });
    this.compacting ??= this.rebuild().finally(() => (this.compacting = undefined));
    return this.compacting;
  }

  private async rebuild(): Promise<Taken> {
    const first = this.settle();
    const [old, mark, now] = [this.inner, this.version, this.o.now()];
    const next = this.build(await this.totals());
    const live = this.live();
    for (const q of this.lastQuotes.values()) if (q.expiresAt >= now) next.quote(q);
    for (const [market, b] of this.lastBooks) {
      const { bids, asks } = withoutCrossed(b, live);
      next.book(market, b.at, bids, asks);
    }
    const entered = await Promise.all(live.map(async (order) => [order, await reenter(next, order)] as const));
    if (this.inner !== old || this.version !== mark) return first; // the engine moved on meanwhile: a later placement tries again
    [this.inner, this.byInner, this.fillCursor, this.parked, this.entered] = [
      next,
      new Map(),
      next.allFills().length,
      { fills: [], closed: [] },
      live.length,
    ];
    next.takeClosed();
    this.rebuilt++;
    for (const [order, id] of entered) {
      if (typeof id === 'string') this.byInner.set(id, order);
      else {
        order.status = 'CANCELLED';
        order.closedAt = now;
        this.o.onNote?.(unentered(order, id.error));
      }
    }
    return { fills: first.fills, changed: true };
  }
}

/** Says that an open order could not be entered again (a restart, a rebuilt engine) and is cancelled. */
export function unentered(order: PaperOrder, why: string): string {
  return `paper order ${order.id} (${order.request.refId}) could not be entered again for what it has left and is cancelled: ${why}`;
}
