import type { Observable } from 'rxjs';
import type { MarketEvent, MarketSymbol } from '../core/index.js';
import type { AccountEvent } from '../state/index.js';
import type { VenueFill, VenueOrder } from './venue.js';

/** Which data a market source polls for one market (only what running strategies need). */
export interface MarketSubscription {
  readonly market: MarketSymbol;
  readonly kinds: ReadonlySet<'price' | 'ticker' | 'book' | 'quote'>;
}

/** Health of one stream: when it last succeeded and how many errors in a row it has seen. */
export interface StreamHealth {
  readonly stream: string;
  readonly lastSuccessAt: number | undefined;
  readonly consecutiveErrors: number;
  readonly lastError: string | undefined;
  readonly polls: number;
  /**
   * Responses refused since the stream started because a record lacked or garbled money, side,
   * status or market (MalformedResponseError): nothing of them reached the stores or the journal.
   * Absent from sources that decode no venue records (a replay of price points).
   */
  readonly malformed?: number;
  /**
   * Set while the stream's polls are refused because the venue is unreachable (the client's circuit
   * breaker is open): epoch ms since when. The stream's data then only ages (strategies see it go
   * stale); cleared by the next successful poll.
   */
  readonly unreachableSince?: number;
}

/** New public trades of one market's tape (the trades stream), oldest first; numbers, for bars (signals). */
export interface MarketTrades {
  readonly market: MarketSymbol;
  readonly trades: ReadonlyArray<{ readonly at: number; readonly price: number; readonly amount: number }>;
}

/**
 * The MarketSource port: what the engine consumes for market and account state. Live and paper
 * runs use PollingMarketSource (RxJS over the API client); a recorded run replays through the same
 * port. Every event's `at` is the local receive time on the engine's clock.
 */
export interface MarketSource {
  readonly events$: Observable<MarketEvent>;
  /** Balances, open orders and pending quote executions of the bot's profile. */
  readonly account$: Observable<AccountEvent>;
  /**
   * New fills of the profile's orders, each reported once, oldest first (optional: sources that
   * poll executions offer it; feed it to the fill tracker instead of a second poll).
   */
  readonly fills$?: Observable<readonly VenueFill[]>;
  /**
   * The venue's latest view of our orders that changed (optional: a replay source reports the orders
   * each point closed; a polling source leaves them to the runner's follow-up reads).
   */
  readonly orders$?: Observable<readonly VenueOrder[]>;
  /**
   * New public trades of each subscribed market, each once (optional: sources with a trades stream,
   * `streams.trades_ms`, offer it; declared bars of a market are then built from its trades).
   */
  readonly trades$?: Observable<MarketTrades>;
  /** Historical price events per market, oldest first, to warm indicators before going live. */
  warmUp(markets: readonly MarketSymbol[], points: number): Promise<readonly MarketEvent[]>;
  /** Starts polling what the subscriptions need (and the account streams). */
  start(subscriptions: readonly MarketSubscription[]): void;
  /** Stops every stream; resolves when no request is in flight. */
  stop(): Promise<void>;
  health(): readonly StreamHealth[];
}
