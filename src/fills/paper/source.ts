import type { Observable, Subscription } from 'rxjs';
import { Subject } from 'rxjs/internal/Subject';
import { filter } from 'rxjs/internal/operators/filter';
import { share } from 'rxjs/internal/operators/share';
import { tap } from 'rxjs/internal/operators/tap';
import type { Clock } from '../../clock/index.js';
import type { MarketEvent, MarketSymbol } from '../../core/index.js';
import type { AccountEvent } from '../../state/index.js';
import type { MarketSource, MarketSubscription, StreamHealth } from '../../venue/market-source.js';
import type { PaperVenue } from './venue.js';
import type { VenueFill } from '../../venue/venue.js';

export interface PaperMarketSourceOptions {
  /** The platform's market data (books, tickers, prices, quotes), polled without any account stream. */
  readonly market: MarketSource;
  readonly venue: PaperVenue;
  readonly clock: Pick<Clock, 'now'>;
}

/**
 * The MarketSource of `tradeloop run --paper` on real data. Market events come from the platform
 * (`market`); every order book and quote reaches the paper venue before the engine sees the event, so
 * an order decided on a book meets that book. The books of every subscribed market are polled even
 * when a strategy did not ask for them (paper fills need them), but reach the engine only as the
 * strategy asked. The account (balances, open orders) is the paper venue's, reported after every
 * change of it: the real account is never read.
 */
export class PaperMarketSource implements MarketSource {
  readonly events$: Observable<MarketEvent>;
  readonly account$: Observable<AccountEvent>;
  /** The paper venue's fills as they happen (the runner then polls none). */
  readonly fills$: Observable<readonly VenueFill[]>;
  private readonly account = new Subject<AccountEvent>();
  /** Per market, the kinds the strategies asked for (the rest feeds only the paper venue). */
  private wanted = new Map<MarketSymbol, ReadonlySet<string>>();
  private changes: Subscription | undefined;

  constructor(private readonly o: PaperMarketSourceOptions) {
    this.events$ = o.market.events$.pipe(
      tap((e) => o.venue.observe(e)),
      filter((e) => e.kind === 'timer' || this.wanted.get(e.market)?.has(e.kind) === true),
      share(),
    );
    this.account$ = this.account.asObservable();
    this.fills$ = o.venue.fills$;
  }

  warmUp(markets: readonly MarketSymbol[], points: number): Promise<readonly MarketEvent[]> {
    return this.o.market.warmUp(markets, points);
  }

  start(subscriptions: readonly MarketSubscription[]): void {
    this.wanted = new Map(subscriptions.map((s) => [s.market, s.kinds]));
    this.o.market.start(subscriptions.map((s) => ({ market: s.market, kinds: new Set([...s.kinds, 'book' as const]) })));
    this.changes ??= this.o.venue.changes$.subscribe(() => this.report());
    this.report();
  }

  async stop(): Promise<void> {
    this.changes?.unsubscribe();
    this.changes = undefined;
    await this.o.market.stop();
    await this.o.venue.flush();
  }

  health(): readonly StreamHealth[] {
    return this.o.market.health();
  }

  /** The paper account as the account streams of a live run would report it. */
  private report(): void {
    const at = this.o.clock.now();
    this.account.next({ kind: 'open-orders', at, orders: this.o.venue.openOrders() });
    void this.o.venue.balances().then((items) => this.account.next({ kind: 'balances', at, items }));
  }
}
