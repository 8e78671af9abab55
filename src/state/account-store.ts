import type { Observable } from 'rxjs';
// rxjs's own modules of these classes, not its index: the index loads every operator (some 220 files),
// which a backtest, which uses none, would load at start (the same modules the index re-exports)
import { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
import type { Clock } from '../clock/index.js';
import { D, ZERO, type Dec, type MarketSymbol, type OrderType, type Side } from '../core/index.js';
import type { Observed } from './observed.js';

export interface BalanceView {
  readonly asset: string;
  /** Usable for new debits. */
  readonly available: Dec;
  /** Committed to open orders. */
  readonly trading: Dec;
}

export interface OpenOrderView {
  readonly orderId: string;
  readonly refId: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly type: OrderType | (string & {});
  readonly price?: Dec;
  readonly baseAmount?: Dec;
  readonly quoteAmount?: Dec;
  readonly amountFilled: Dec;
  readonly status: string;
}

export interface PendingQuoteExecutionView {
  readonly executionId: string;
  readonly refId?: string;
  readonly market: MarketSymbol;
  readonly side: Side;
  readonly baseAmount: Dec;
  readonly quoteAmount: Dec;
}

/** What the account streams and executors report about the bot's profile. */
export type AccountEvent =
  | { readonly kind: 'balances'; readonly at: number; readonly items: readonly BalanceView[] }
  | { readonly kind: 'open-orders'; readonly at: number; readonly orders: readonly OpenOrderView[] }
  | { readonly kind: 'quote-executions'; readonly at: number; readonly pending: readonly PendingQuoteExecutionView[] };

export interface AccountSnapshot {
  readonly balances?: Observed<ReadonlyMap<string, BalanceView>>;
  readonly openOrders?: Observed<readonly OpenOrderView[]>;
  readonly pendingQuoteExecutions?: Observed<readonly PendingQuoteExecutionView[]>;
}

/**
 * Account state of the bot's profile: balances (available, trading), open orders and pending
 * quote executions, each with its observation time. Immutable snapshots, replaced on change.
 */
export class AccountStore {
  private readonly subject = new BehaviorSubject<AccountSnapshot>({});
  /** Totals of the current balances, made once per asset and balance update (strategies often ask every point). */
  private totals = new Map<string, Dec>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  get snapshot(): AccountSnapshot {
    return this.subject.value;
  }

  get changes$(): Observable<AccountSnapshot> {
    return this.subject.asObservable();
  }

  apply(event: AccountEvent): void {
    const at = Math.min(event.at, this.clock.now());
    const s = this.subject.value;
    switch (event.kind) {
      case 'balances':
        this.totals = new Map();
        this.subject.next({ ...s, balances: { value: new Map(event.items.map((b) => [b.asset, b])), at } });
        return;
      case 'open-orders':
        this.subject.next({ ...s, openOrders: { value: event.orders, at } });
        return;
      case 'quote-executions':
        this.subject.next({ ...s, pendingQuoteExecutions: { value: event.pending, at } });
        return;
    }
  }

  /** Available balance of `asset` (zero when unknown). */
  available(asset: string): Dec {
    return this.subject.value.balances?.value.get(asset)?.available ?? ZERO;
  }

  /** Total (available + trading) of `asset`. */
  total(asset: string): Dec {
    let t = this.totals.get(asset);
    if (t === undefined) {
      const b = this.subject.value.balances?.value.get(asset);
      t = b ? b.available.plus(b.trading) : ZERO;
      this.totals.set(asset, t);
    }
    return t;
  }
}

/** Builds a BalanceView from wire strings. */
export function balanceFromWire(asset: string, available: string, trading: string): BalanceView {
  return { asset, available: new D(available === '' ? '0' : available), trading: new D(trading === '' ? '0' : trading) };
}
