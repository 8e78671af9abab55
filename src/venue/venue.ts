import type { BarExit, Dec, Instrument, MarketSymbol, OrderTerms, Side } from '../core/index.js';
import { TradeloopError } from '../core/index.js';

/**
 * The Venue port: everything the executors need from a trading venue. RestVenue speaks HTTP to the
 * local or real sandbox; SimVenue calls the simulated platform directly (paper mode); PointVenue runs
 * backtests on point replay. All three pass the same contract test suite. Every write carries the
 * intent id as `refId`.
 */
export interface Venue {
  readonly name: string;
  placeOrder(req: PlaceOrderRequest): Promise<VenueOrder>;
  /** Acknowledges a cancel request; the order reaches CANCELLED (or FILLED) asynchronously. */
  cancelOrder(orderId: string): Promise<void>;
  getOrder(orderId: string): Promise<VenueOrder>;
  /** The order created with `refId`, if any: how an unknown outcome is resolved. */
  findOrderByRef(refId: string): Promise<VenueOrder | undefined>;
  listOpenOrders(): Promise<readonly VenueOrder[]>;
  /** Fills of the profile's orders since `sinceMs` (inclusive), oldest first. */
  listFills(sinceMs: number): Promise<readonly VenueFill[]>;
  /**
   * Every order of the profile created since `sinceMs` (inclusive), of any status, each once in the
   * venue's own order, page by page: at start, how the journal finds the records of its own it lacks
   * over its whole history. A venue that keeps no history (a backtest's) leaves it out; the start
   * then looks at open orders and the last day's fills only.
   */
  ordersSince?(sinceMs: number): AsyncIterable<VenueOrder>;
  /** Every quote execution of the profile created since `sinceMs` (inclusive), page by page (see `ordersSince`). */
  quoteExecutionsSince?(sinceMs: number): AsyncIterable<VenueQuoteExecution>;
  listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]>;
  /** Idempotent by `refId`: a repeat returns the existing execution. */
  executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution>;
  getQuoteExecution(executionId: string): Promise<VenueQuoteExecution>;
  /** The quote execution created with `refId`, if any (resolves an unknown outcome). */
  findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined>;
  balances(): Promise<readonly VenueBalance[]>;
  /** Idempotent by `refId`. */
  transfer(req: TransferRequest): Promise<VenueTransfer>;
  findTransferByRef(refId: string): Promise<VenueTransfer | undefined>;
  /**
   * The limits covering transfer intents (TRANSFER_INTENT_TYPE) with what remains of each, as the
   * platform's ListTransferLimits answers: the risk gate checks transfers against them in every mode.
   */
  transferLimits(): Promise<readonly TransferLimitRow[]>;
  /**
   * The tradable markets with their tick, amount decimals and caps (ListMarkets), so the risk gate and
   * strategies round and check orders against what this venue enforces, in every mode.
   */
  instruments(): Promise<readonly Instrument[]>;
}

/** The transfer type of a transfer intent (an internal transfer, seen from the paying profile). */
export const TRANSFER_INTENT_TYPE = 'INTERNAL_TRANSFER_DEBIT';

/** One transfer limit as ListTransferLimits lists it (wire strings; a field the venue left out is absent). */
export interface TransferLimitRow {
  readonly limitAsset?: string;
  /** The limit itself, in `limitAsset`. */
  readonly limit?: string;
  readonly remaining?: string;
  /** "0" for a per-transaction limit. */
  readonly periodSeconds?: string;
}

export type VenueOrderStatus = 'PENDING_SUBMISSION' | 'SUBMITTED' | 'OPEN' | 'FILLED' | 'CANCELLED' | 'REJECTED' | (string & {});

export const TERMINAL_ORDER_STATUSES: ReadonlySet<string> = new Set(['FILLED', 'CANCELLED', 'REJECTED']);

/** An order for the venue: its terms and the intent id as `refId`. */
export interface PlaceOrderRequest extends OrderTerms {
  readonly refId: string;
  /** A position helper's exit decided on a bar (point replay over OHLCV rows fills it in that bar; other venues ignore it). */
  readonly barExit?: BarExit;
}

export interface VenueOrder {
  readonly orderId: string;
  readonly refId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly type: string;
  readonly status: VenueOrderStatus;
  readonly baseAmount?: Dec;
  readonly quoteAmount?: Dec;
  readonly price?: Dec;
  readonly amountFilled: Dec;
  readonly averagePrice?: Dec;
  /** Absent when the venue's record omits it (the platform's own examples sometimes do). */
  readonly createdAt?: number;
  /** `amountFilled` and `averagePrice` as text, from a venue that keeps them exactly without Decimals (see {@link VenueText}). */
  readonly text?: { readonly amountFilled: string; readonly averagePrice: string | undefined };
}

/**
 * The text of an order's or a fill's money, as `Decimal#toFixed()` writes it, from a venue that keeps
 * its money exactly in another form (point replay's bigint units): the executors journal and report
 * text, and read it here instead of having a Decimal made only to be written out again. A venue whose
 * money is Decimals anyway leaves it out; readers then write the Decimals. Both give the same text.
 */
export interface VenueText {
  readonly amount: string;
  readonly price: string;
  readonly commission: string;
}

export interface VenueFill {
  readonly fillId: string;
  readonly orderId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly amount: Dec;
  readonly price: Dec;
  readonly commission: Dec;
  readonly commissionAsset: string;
  readonly at: number;
  /** `amount`, `price` and `commission` as text, from a venue that keeps them exactly without Decimals. */
  readonly text?: VenueText;
}

export interface VenueQuote {
  readonly quoteId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly price: Dec;
  readonly expiresAt: number;
}

export interface ExecuteQuoteRequest {
  readonly refId: string;
  readonly quoteId: string;
  readonly baseAmount?: string;
  readonly quoteAmount?: string;
}

export interface VenueQuoteExecution {
  readonly executionId: string;
  readonly refId?: string;
  readonly quoteId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly price: Dec;
  readonly baseAmount: Dec;
  readonly quoteAmount: Dec;
  readonly status: 'CREATED' | 'SETTLED' | (string & {});
}

export interface VenueBalance {
  readonly asset: string;
  readonly available: Dec;
  readonly trading: Dec;
}

export interface TransferRequest {
  readonly refId: string;
  readonly asset: string;
  readonly amount: string;
  readonly fromProfileId: string;
  readonly toProfileId: string;
}

export interface VenueTransfer {
  readonly transferId: string;
  readonly refId: string;
  readonly status: string;
}

/**
 * Code of the refusal raised when our ref_id already names a record whose fields differ from the
 * request: the record is not ours, and the runner halts trading on it.
 */
export const REF_ID_REUSED = 'REF_ID_REUSED';

/**
 * Code of the refusal of a request the client never sent because the venue's circuit breaker is
 * open (the venue is unreachable): a write with this code certainly did not run.
 */
export const VENUE_UNREACHABLE = 'VENUE_UNREACHABLE';

/** The venue refused the request for good (funds, rules, validation): do not retry. */
export class VenueRejectedError extends TradeloopError {
  constructor(
    code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(code, message);
  }
}

/** The request may or may not have taken effect (timeout, reset, 5xx): resolve it by ref_id. */
export class VenueUnknownOutcomeError extends TradeloopError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('OUTCOME_UNKNOWN', message, options);
  }
}

/**
 * Code of a read (GET) the venue did not answer usably within the client's retries (`api.max_retries`):
 * a 5xx, a timeout, a dropped connection or a malformed body. A read changes nothing at the venue,
 * so its outcome is never unknown: the answer is simply missing.
 */
export const VENUE_READ_FAILED = 'VENUE_READ_FAILED';

/** A read that failed after the client's retries (see VENUE_READ_FAILED); `cause` is the client's last error. */
export class VenueReadError extends TradeloopError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(VENUE_READ_FAILED, message, options);
  }
}

/** The record does not exist at the venue. */
export class VenueNotFoundError extends TradeloopError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}
