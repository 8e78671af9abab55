import type { Observable } from 'rxjs';
import { ZERO, type MarketEvent, type MarketSymbol } from '../../core/index.js';
import type { PointMarket } from './market.js';
import type { BarRange } from './bar-range.js';
import type { AccountEvent, OpenOrderView } from '../../state/index.js';
import { HotStream } from '../../state/hot-stream.js';
import type { MarketSource, StreamHealth } from '../../venue/market-source.js';
import { toVenueFill, toVenueOrder } from './venue.js';
import type { VenueFill, VenueOrder } from '../../venue/venue.js';

/**
 * The MarketSource of a backtest: price points replayed through the same port a live run polls. Each
 * `step` moves point replay to the next point and emits, in the order a live run would learn them,
 * the account's balances and open orders (when they changed), the orders the point closed, the fills
 * it made, then the price event (and the point's held-rate quotes when asked). The kernel consumes it
 * exactly as it consumes the polling streams; nothing is pushed into the stores by hand.
 *
 * Synchronous by design: the backtest's per-point path makes no promise (see ARCHITECTURE.md).
 */
export class PointReplaySource implements MarketSource {
  private readonly events = new HotStream<MarketEvent>();
  private readonly account = new HotStream<AccountEvent>();
  private readonly fills = new HotStream<readonly VenueFill[]>();
  private readonly orders = new HotStream<readonly VenueOrder[]>();
  private version = -1;
  private points = 0;
  /** Whether the last open-orders event listed any (an empty list again tells the kernel nothing new). */
  private listedOpen = true;

  constructor(
    private readonly market: PointMarket,
    private readonly withQuotes = false,
  ) {}

  get events$(): Observable<MarketEvent> {
    return this.events;
  }

  get account$(): Observable<AccountEvent> {
    return this.account;
  }

  get fills$(): Observable<readonly VenueFill[]> {
    return this.fills;
  }

  get orders$(): Observable<readonly VenueOrder[]> {
    return this.orders;
  }

  /** Moves `symbol` to its next point and emits what changed there. */
  step(symbol: MarketSymbol, at: number, price: number, range?: BarRange): void {
    this.points++;
    const pm = this.market;
    const made = pm.point(symbol, at, price, range);
    if (pm.version !== this.version) this.emitAccount(at);
    const closed = pm.closedAtLastPoint();
    if (closed.length > 0) this.orders.next(closed.map(toVenueOrder));
    // a point's fills are its orders' (a quote execution settles when executed, not at a point)
    if (made.length > 0) this.fills.next(made.map(toVenueFill));
    // the per-point emit: a subscriber is called straight from here (see HotStream); an OHLCV row's
    // bar goes with its price, copied (the driver refills one range object per row)
    this.events.next(
      range === undefined
        ? { kind: 'price', market: symbol, at, price }
        : {
            kind: 'price',
            market: symbol,
            at,
            price,
            range: { open: range.open, high: range.high, low: range.low, lowFirst: range.lowFirst !== false },
          },
    );
    if (this.withQuotes) {
      for (const q of pm.quotes(symbol))
        this.events.next({
          kind: 'quote',
          market: symbol,
          at,
          quoteId: q.quoteId,
          side: q.side,
          price: q.price.toFixed(),
          expiresAt: q.expiresAt,
        });
    }
  }

  /**
   * Reports the exits point replay filled inside the bar they were placed in (see PointMarket.place),
   * as a point's fills are reported: the account, the closed orders, the fills. True when there were
   * any (the driver then lets the kernel hear them before the next point).
   */
  reportPlaced(at: number): boolean {
    const pm = this.market;
    const placed = pm.takePlaced();
    if (placed === undefined) return false;
    if (pm.version !== this.version) this.emitAccount(at);
    this.orders.next(placed.closed.map(toVenueOrder));
    this.fills.next(placed.fills.map(toVenueFill));
    return true;
  }

  /** Balances and open orders, as a live run's account poll reports them. */
  private emitAccount(at: number): void {
    const pm = this.market;
    this.version = pm.version;
    this.account.next({ kind: 'balances', at, items: pm.balances() });
    const orders = pm.openOrders();
    // a dense backtest's orders fill at the next point: most account events find none open, as the last did
    if (orders.length === 0 && !this.listedOpen) return;
    this.listedOpen = orders.length > 0;
    const open: OpenOrderView[] = orders.map((o) => ({
      orderId: o.id,
      refId: o.refId,
      market: o.market,
      side: o.side,
      type: o.type,
      ...(o.terms.price && { price: o.terms.price }),
      ...(o.terms.baseAmount && { baseAmount: o.terms.baseAmount }),
      ...(o.terms.quoteAmount && { quoteAmount: o.terms.quoteAmount }),
      amountFilled: o.fill === undefined ? ZERO : o.fill.amount,
      status: o.status,
    }));
    this.account.next({ kind: 'open-orders', at, orders: open });
  }

  /** A backtest warms up on its own first points: no history before them. */
  async warmUp(): Promise<readonly MarketEvent[]> {
    return [];
  }

  start(): void {}

  async stop(): Promise<void> {
    this.events.complete();
    this.account.complete();
    this.fills.complete();
    this.orders.complete();
  }

  health(): readonly StreamHealth[] {
    return [{ stream: 'points', lastSuccessAt: this.market.now(), consecutiveErrors: 0, lastError: undefined, polls: this.points }];
  }
}
