/**
 * The messages that cross layers. All readonly and discriminated by `kind`; handle them with
 * exhaustive switches (see `assertNever`). Amounts and prices in intents and reports are decimal
 * strings, exact and serialisable (the journal stores them as they are).
 */
import type { MarketSymbol } from './markets.js';

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET' | 'POST_ONLY_LIMIT' | 'STOP_MARKET' | 'STOP_LIMIT';
export type TimeInForce = 'GTC' | 'FOK' | 'IOC' | 'GTT';

export interface PriceLevel {
  readonly price: number;
  readonly amount: number;
}

/**
 * The bar a replayed price closes (a backtest over OHLCV rows): its open, high and low, and which
 * extreme the replay takes as reached first (`--intrabar`: the adverse low by default). A position
 * helper checks its stop-loss on the low and its take-profit on the high, the first extreme first.
 */
export interface PriceRange {
  /** The bar's first price. */
  readonly open: number;
  /** The highest price inside the bar. */
  readonly high: number;
  /** The lowest price inside the bar. */
  readonly low: number;
  /** The low came before the high inside the bar (the replay's assumption; see IntrabarRule). */
  readonly lowFirst: boolean;
}

/**
 * A position helper's exit decided on a bar's extreme, as a venue request carries it (from the
 * intent's `exitLevel`): the level, and the extreme that reached it (the low for a stop-loss or
 * trailing stop, the high for a take-profit). Only point replay over OHLCV rows reads it.
 */
export interface BarExit {
  readonly level: string;
  readonly by: 'low' | 'high';
}

/** What a market source emits. `at` is the observation time on the engine's clock (epoch ms). */
export type MarketEvent =
  | {
      readonly kind: 'ticker';
      readonly market: MarketSymbol;
      readonly at: number;
      readonly serverAt?: number;
      readonly bid?: PriceLevel;
      readonly ask?: PriceLevel;
      readonly last?: PriceLevel;
      readonly dayHigh?: number;
      readonly dayLow?: number;
      readonly dayOpen?: number;
      readonly dayVolume?: number;
    }
  | {
      readonly kind: 'book';
      readonly market: MarketSymbol;
      readonly at: number;
      readonly serverAt?: number;
      readonly bids: readonly PriceLevel[];
      readonly asks: readonly PriceLevel[];
    }
  | {
      readonly kind: 'price';
      readonly market: MarketSymbol;
      readonly at: number;
      readonly serverAt?: number;
      readonly price: number;
      /**
       * The bar this price closes, in a backtest over OHLCV rows (each row a bar, its close the price):
       * where the price went since the row before. Absent live and on any other data.
       */
      readonly range?: PriceRange;
    }
  | {
      readonly kind: 'quote';
      readonly market: MarketSymbol;
      readonly at: number;
      readonly quoteId: string;
      readonly side: Side;
      readonly price: string;
      readonly expiresAt: number;
    }
  | { readonly kind: 'timer'; readonly market: MarketSymbol; readonly at: number };

/**
 * What an order asks for, the same at every layer: an intent, a request to a venue, a command to point
 * replay. Amounts and prices are wire decimal strings; `expiresAt` is epoch ms (GTT).
 */
export interface OrderTerms {
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly type: OrderType;
  readonly baseAmount?: string;
  readonly quoteAmount?: string;
  readonly price?: string;
  readonly stopPrice?: string;
  readonly timeInForce?: TimeInForce;
  readonly expiresAt?: number;
}

interface IntentBase {
  /** Unique id; becomes the wire `ref_id` and is never regenerated. */
  readonly intentId: string;
  /** Name of the strategy instance that made it. */
  readonly strategy: string;
}

/**
 * Why a sell closes (part of) a position: a rule of the position helper (`stop-loss`, `take-profit`,
 * `trailing-stop`), the strategy's own signal, an operator's forced exit, or the kill switch. Journaled
 * with the intent and shown with the round trip it closes.
 */
export type ExitReasonKind = 'stop-loss' | 'take-profit' | 'trailing-stop' | 'signal' | 'operator' | 'kill-switch';

export type Intent =
  | (IntentBase &
      OrderTerms & {
        readonly kind: 'place-order';
        readonly exitReason?: ExitReasonKind;
        /**
         * The level a position helper's stop-loss, trailing stop or take-profit reached inside the bar
         * its MARKET sell was decided on (a decimal string; see PriceRange). Point replay over OHLCV
         * rows fills the sell inside that bar, at the level (or at the bar's open when it opened
         * beyond it); every other venue takes the sell as the MARKET order it is.
         */
        readonly exitLevel?: string;
      })
  | (IntentBase & { readonly kind: 'cancel-order'; readonly orderRefId: string })
  | (IntentBase & {
      readonly kind: 'execute-quote';
      readonly market: MarketSymbol;
      readonly side: Side;
      readonly baseAmount?: string;
      readonly quoteAmount?: string;
      /** Worst acceptable price: highest for a buy, lowest for a sell. */
      readonly limitPrice?: string;
      readonly exitReason?: ExitReasonKind;
    })
  | (IntentBase & {
      readonly kind: 'transfer';
      readonly asset: string;
      readonly amount: string;
      readonly fromProfileId: string;
      readonly toProfileId: string;
    });

/** Stable codes of risk denials; the numbers behind each denial travel in `details`. */
export type DenialCode =
  | 'INSUFFICIENT_BALANCE'
  | 'TRANSFER_LIMIT'
  | 'QUOTE_EXPIRED'
  | 'PRECISION'
  | 'MINIMUM'
  | 'MARKET_NOT_ALLOWED'
  | 'MAX_NOTIONAL'
  | 'MAX_POSITION'
  /** A sell of more than the selling strategy's own position, where strategies of a market each own theirs. */
  | 'OWN_POSITION'
  /** A buy beyond the strategy's `allocation` of the quote asset. */
  | 'ALLOCATION'
  | 'MAX_OPEN_ORDERS'
  | 'RATE'
  | 'PRICE_BAND'
  | 'STALE_DATA'
  | 'HALTED'
  /** The intent's strategy is paused by an operator (see StrategyPauses). */
  | 'PAUSED'
  | 'INVALID_INTENT';

export interface DenialReason {
  readonly code: DenialCode;
  readonly message: string;
  readonly details: Readonly<Record<string, string | number | boolean>>;
}

export type Decision =
  | { readonly kind: 'approve'; readonly intent: Intent; readonly at: number }
  | { readonly kind: 'deny'; readonly intent: Intent; readonly at: number; readonly reason: DenialReason };

/** What venues and executors report back. `refId` is the intent's id. */
export type ExecReport =
  | { readonly kind: 'accepted'; readonly refId: string; readonly orderId: string; readonly at: number }
  | {
      readonly kind: 'filled';
      readonly refId: string;
      readonly orderId: string;
      readonly fillId: string;
      readonly market: MarketSymbol;
      readonly side: Side;
      readonly amount: string;
      readonly price: string;
      readonly commission: string;
      readonly commissionAsset: string;
      readonly at: number;
      /**
       * True when no more fills of this order follow: the venue had closed the order when this fill
       * was recorded, and the fills recorded for it add up to the amount the venue says it filled (a
       * MARKET order taken at once, or its last fill). False while more may come. A fill recorded
       * before the venue's status read said the order closed carries false, and the close itself
       * sends no further report: a strategy waiting for it watches `ctx.account.openOrders()`, which
       * drops the order then (the position helpers do). Absent where the producer cannot tell (a
       * test kit's scripted report).
       */
      readonly orderDone?: boolean;
    }
  | { readonly kind: 'cancelled'; readonly refId: string; readonly orderId: string; readonly at: number }
  /** The venue (or an executor before the venue) refused the intent; `code` is the venue's or executor's. */
  | { readonly kind: 'rejected'; readonly refId: string; readonly code: string; readonly message: string; readonly at: number }
  /**
   * The risk gate denied the intent: it never reached the journal's "sent" state nor the venue. Apart
   * from `rejected` so a strategy can tell its own limits (retry later, resize) from a venue refusal.
   */
  | { readonly kind: 'denied'; readonly refId: string; readonly reason: DenialReason; readonly at: number }
  | {
      readonly kind: 'quote-executed';
      readonly refId: string;
      readonly executionId: string;
      readonly market: MarketSymbol;
      readonly side: Side;
      readonly baseAmount: string;
      readonly quoteAmount: string;
      readonly price: string;
      readonly settled: boolean;
      readonly at: number;
    }
  /** An internal transfer the venue made (answered, or found by ref_id after an unknown outcome). */
  | { readonly kind: 'transferred'; readonly refId: string; readonly transferId: string; readonly status: string; readonly at: number }
  | { readonly kind: 'unresolved'; readonly refId: string; readonly message: string; readonly at: number }
  | { readonly kind: 'failed'; readonly refId: string; readonly code: string; readonly message: string; readonly at: number };

/** Compile-time exhaustiveness check for switches over `kind`. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
