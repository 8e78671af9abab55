import { type Dec } from '../../core/decimal.js';
import { type OrderType, type Side, type TimeInForce } from '../../core/messages.js';

export type OrderStatus = 'PENDING_SUBMISSION' | 'SUBMITTED' | 'OPEN' | 'FILLED' | 'CANCELLED' | 'REJECTED';

/**
 * An order request as it arrives (wire values, camelCase). Fields are `unknown` because the sim
 * validates them itself, so the HTTP sandbox and the backtester's venue share one set of rules;
 * errors name the wire field (`base_amount`, `time_in_force`, …).
 */
export interface PlaceOrderCommand {
  readonly profileId: string;
  readonly side: unknown;
  readonly market: unknown;
  readonly type: unknown;
  readonly refId?: unknown;
  readonly baseAmount?: unknown;
  readonly quoteAmount?: unknown;
  readonly price?: unknown;
  readonly stopPrice?: unknown;
  readonly timeInForce?: unknown;
  /** GTT expiry, epoch milliseconds as a digit string. */
  readonly expirationDate?: unknown;
  readonly metadata?: unknown;
  readonly identityId?: unknown;
  readonly identityAccountId?: unknown;
  readonly recipientProfileId?: unknown;
  readonly selfMatchPreventionId?: unknown;
}

/** A validated order request. */
export interface OrderSpec {
  readonly side: Side;
  readonly market: string;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly refId: string | undefined;
  readonly baseAmount: Dec | undefined;
  readonly quoteAmount: Dec | undefined;
  readonly price: Dec | undefined;
  readonly stopPrice: Dec | undefined;
  readonly expiresAt: number | undefined;
  readonly metadata: Readonly<Record<string, string>>;
  readonly identityId: string | undefined;
  readonly identityAccountId: string | undefined;
  readonly recipientProfileId: string | undefined;
}

/** The sim's order record. Mutable inside `src/sim` only; everyone else gets it read-only. */
export interface SimOrder extends OrderSpec {
  readonly id: string;
  readonly profileId: string;
  readonly createdAt: number;
  readonly seq: number;
  status: OrderStatus;
  modifiedAt: number;
  /** Filled base quantity. */
  amountFilled: Dec;
  /** Σ fill quantity × price, for the volume-weighted average price. */
  notionalFilled: Dec;
  /** Funds still locked in `trading` for this order (quote asset for buys, base for sells). */
  reserved: Dec;
  isTriggered: boolean;
  closedAt: number | undefined;
  /** When a requested cancel takes effect (the API acknowledges first, cancels after). */
  cancelDueAt: number | undefined;
  /** Why the sim closed it, when not by filling (for tests and logs; not on the wire). */
  reason: string | undefined;
}

export type OrderRecord = Readonly<SimOrder>;

export type Liquidity = 'MAKER' | 'TAKER';

/** One fill of a bot order. `executionId` is a digit string (uint64 on the wire). */
export interface SimExecution {
  readonly executionId: string;
  readonly seq: number;
  readonly orderId: string;
  readonly profileId: string;
  readonly refId: string | undefined;
  readonly market: string;
  readonly side: Side;
  readonly amount: Dec;
  readonly price: Dec;
  readonly gross: Dec;
  readonly commission: Dec;
  readonly commissionAsset: string;
  readonly rebate: Dec;
  readonly liquidity: Liquidity;
  readonly executedAt: number;
  readonly matchNumber: string;
}

export function isClosed(status: OrderStatus): boolean {
  return status === 'FILLED' || status === 'CANCELLED' || status === 'REJECTED';
}
