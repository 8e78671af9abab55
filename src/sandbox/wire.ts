import { type Dec } from '../core/decimal.js';
import type {
  SimBalance,
  WindowStats,
  PriceView,
  TickerView,
  OrderRecord,
  SimExecution,
  Profile,
  SimQuoteExecution,
  SimQuote,
  TransferLimitView,
  SimTransfer,
} from '../sim/index.js';
import { isoTime } from '../sim/time.js';

/**
 * Where the spec's schemas and its examples disagree on a response shape (SPEC_VS_REFERENCE.md
 * 69–71), the sandbox answers one or the other: the schema's by default (`shapes: 'schema'`), the
 * examples' (which the platform spec copies) with `shapes: 'examples'`. Ticker stats carry both
 * forms' fields in either mode (item 68).
 */
export interface WireShapes {
  /** ListTickers: `{ tickers: [...] }` (schema) or a bare array (examples). */
  readonly tickers: 'array' | 'object';
  /** ListPrices and ListHistoricalPrices: items under `items` (schema) or `prices` (examples). */
  readonly listKey: 'prices' | 'items';
  /**
   * What stands for the details a list withholds (ListFiatAccounts' owner and owner address):
   * empty objects, valid against the schema (schema), or `null` as the examples show (examples).
   */
  readonly withheld: 'empty' | 'null';
}

/** The two named sets of shapes: `tradeloop sandbox --shapes`, config `local.shapes`. */
export type ShapeMode = 'schema' | 'examples';
export const SHAPE_MODES: readonly ShapeMode[] = ['schema', 'examples'];

export const SCHEMA_SHAPES: WireShapes = { tickers: 'object', listKey: 'items', withheld: 'empty' };
export const EXAMPLE_SHAPES: WireShapes = { tickers: 'array', listKey: 'prices', withheld: 'null' };

/** The shapes of a mode name. */
export function shapesOf(mode: ShapeMode): WireShapes {
  return mode === 'schema' ? SCHEMA_SHAPES : EXAMPLE_SHAPES;
}

/** The default: the schema's shapes, which clients generated from the OpenAPI file decode (README: why). */
export const DEFAULT_SHAPES: WireShapes = SCHEMA_SHAPES;

type Json = Record<string, unknown>;

function dec(value: Dec | undefined): string {
  return value === undefined ? '0' : value.toFixed();
}

/** The wire Order. Unused amounts are "0"; optional ids are omitted when unset. */
export function wireOrder(o: OrderRecord): Json {
  const vwap = o.amountFilled.isZero() ? '0' : o.notionalFilled.div(o.amountFilled).toDecimalPlaces(8).toFixed();
  return {
    id: o.id,
    profile_id: o.profileId,
    ...(o.refId !== undefined ? { ref_id: o.refId } : {}),
    status: o.status,
    side: o.side,
    market: o.market,
    type: o.type,
    base_amount: dec(o.baseAmount),
    price: dec(o.price),
    quote_amount: dec(o.quoteAmount),
    metadata: { ...o.metadata },
    created_at: isoTime(o.createdAt),
    modified_at: isoTime(o.modifiedAt),
    amount_filled: o.amountFilled.toFixed(),
    volume_weighted_average_price: vwap,
    time_in_force: o.timeInForce,
    ...(o.expiresAt !== undefined ? { expiration_date: isoTime(o.expiresAt) } : {}),
    ...(o.identityId !== undefined ? { identity_id: o.identityId, identity_account_id: o.identityAccountId } : {}),
    ...(o.stopPrice !== undefined ? { stop_price: o.stopPrice.toFixed() } : {}),
    ...(o.recipientProfileId !== undefined ? { recipient_profile_id: o.recipientProfileId } : {}),
    is_triggered: o.isTriggered,
  };
}

export function wireExecution(e: SimExecution): Json {
  return {
    execution_id: e.executionId,
    order_id: e.orderId,
    executed_at: isoTime(e.executedAt),
    market: e.market,
    side: e.side,
    amount: e.amount.toFixed(),
    price: e.price.toFixed(),
    commission: e.commission.toFixed(),
    commission_asset: e.commissionAsset,
    rebate: e.rebate.toFixed(),
    rebate_asset: e.commissionAsset,
    gross_trade_amount: e.gross.toFixed(),
  };
}

export function wireProfile(p: Profile): Json {
  return {
    id: p.id,
    nickname: p.nickname,
    type: p.type,
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.accountId !== undefined ? { account_id: p.accountId } : {}),
  };
}

export function wireBalance(b: SimBalance): Json {
  return { asset: b.asset, available: b.available.toFixed(), trading: b.trading.toFixed() };
}

function wireStats(s: WindowStats): Json {
  const begin = isoTime(s.fromMs);
  const end = isoTime(s.toMs);
  return {
    high: s.high,
    low: s.low,
    open: s.open,
    volume: s.volume,
    start_time: begin,
    end_time: end,
    volume_weighted_average_price: s.vwap,
    range: { begin, end },
  };
}

export function wireTicker(t: TickerView): Json {
  return {
    market: t.market,
    ...(t.bestBid ? { best_bid: t.bestBid } : {}),
    ...(t.bestAsk ? { best_ask: t.bestAsk } : {}),
    ...(t.lastExecution ? { last_execution: t.lastExecution } : {}),
    last_day: wireStats(t.lastDay),
    today: wireStats(t.today),
    snapshot_at: isoTime(t.snapshotAt),
  };
}

export function wirePrice(p: PriceView): Json {
  return { market: p.market, current_price: p.currentPrice, yesterday_price: p.yesterdayPrice, snapshot_at: isoTime(p.snapshotAt) };
}

export function wireQuote(q: SimQuote): Json {
  return {
    id: q.id,
    market: q.market,
    side: q.side,
    price: q.price.toFixed(),
    base_asset: q.baseAsset,
    quote_asset: q.quoteAsset,
    created_at: isoTime(q.createdAt),
    expires_at: isoTime(q.expiresAt),
  };
}

/** The wire QuoteExecution: both amounts always set (the one not sent is computed from the price). */
export function wireQuoteExecution(x: SimQuoteExecution): Json {
  return {
    id: x.id,
    profile_id: x.profileId,
    quote_id: x.quoteId,
    ...(x.refId !== undefined ? { ref_id: x.refId } : {}),
    status: x.status,
    market: x.market,
    side: x.side,
    price: x.price.toFixed(),
    base_amount: x.baseAmount.toFixed(),
    base_asset: x.baseAsset,
    quote_amount: x.quoteAmount.toFixed(2),
    quote_asset: x.quoteAsset,
    created_at: isoTime(x.createdAt),
    ...(x.settledAt !== undefined ? { settled_at: isoTime(x.settledAt) } : {}),
    metadata: { ...x.metadata },
    ...(x.identityId !== undefined ? { identity_id: x.identityId } : {}),
    ...(x.accountId !== undefined ? { account_id: x.accountId } : {}),
    ...(x.recipientProfileId !== undefined ? { recipient_profile_id: x.recipientProfileId } : {}),
  };
}

export function wireTransfer(t: SimTransfer): Json {
  return {
    id: t.id,
    customer_id: t.customerId,
    profile_id: t.profileId,
    ...(t.refId !== undefined ? { ref_id: t.refId } : {}),
    amount: t.amount.toFixed(),
    total: t.total.toFixed(),
    fee: t.fee.toFixed(),
    asset: t.asset,
    balance_asset: t.balanceAsset,
    direction: t.direction,
    type: t.type,
    status: t.status,
    created_at: isoTime(t.createdAt),
    updated_at: isoTime(t.updatedAt),
    ...(t.groupId !== undefined ? { group_id: t.groupId } : {}),
    ...(t.identityId !== undefined ? { identity_id: t.identityId } : {}),
    ...(t.accountId !== undefined ? { account_id: t.accountId } : {}),
    ...(t.cryptoNetwork !== undefined ? { crypto_network: t.cryptoNetwork } : {}),
    ...(t.destinationAddress !== undefined ? { destination_address: t.destinationAddress } : {}),
    ...(t.cryptoTxHash !== undefined ? { crypto_tx_hash: t.cryptoTxHash } : {}),
    ...(t.secondaryStatus !== undefined ? { secondary_status: { name: t.secondaryStatus } } : {}),
    ...(t.fiatAccountId !== undefined ? { fiat_account_id: t.fiatAccountId } : {}),
    ...(t.memo !== undefined ? { memo: t.memo } : {}),
    auto_conversion: {},
    metadata: { ...t.metadata },
  };
}

export function wireTransferLimit(l: TransferLimitView): Json {
  return {
    ...(l.id !== undefined ? { id: l.id } : {}),
    rule_id: l.ruleId,
    transfer_types: [...l.transferTypes],
    period_seconds: String(l.periodSeconds),
    limit: l.limit.toFixed(),
    remaining: l.remaining.toFixed(),
    limit_asset: l.limitAsset,
  };
}
