import { MalformedResponseError } from '../api/index.js';
import { readDecimal, type Dec, type Side } from '../core/index.js';
import type { VenueBalance, VenueFill, VenueOrder, VenueQuote, VenueQuoteExecution, VenueTransfer } from './venue.js';

/** Order types whose record must carry a limit price (a market order's price is "0" or ""). */
const PRICED_TYPES: ReadonlySet<string> = new Set(['LIMIT', 'POST_ONLY_LIMIT', 'STOP_LIMIT']);

/**
 * Reads the fields of one wire record, refusing rather than guessing. The platform marks no field
 * of an order or execution as required and sends `""` for "not set", so a lenient reader would turn
 * a missing amount into 0, a missing side into BUY or a missing status into OPEN, and the journal,
 * the account store and the risk gate would act on money and state the venue never reported. Every
 * refusal is a MalformedResponseError naming the operation, the record and the field.
 */
class RecordReader {
  private readonly raw: Readonly<Record<string, unknown>>;
  private readonly label: string;

  constructor(
    raw: unknown,
    private readonly operation: string,
    kind: string,
    idField: string,
  ) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new MalformedResponseError(`${operation} response: a ${kind} record is ${JSON.stringify(raw)}, not an object`, { operation });
    this.raw = raw as Record<string, unknown>;
    const id = this.raw[idField];
    this.label = typeof id === 'string' && id !== '' ? `${kind} ${id}` : `a ${kind} record`;
  }

  /** A refusal naming the record and what is wrong with it. */
  malformed(problem: string): MalformedResponseError {
    return new MalformedResponseError(`${this.operation} response: ${this.label} ${problem}; refused rather than guessed`, {
      operation: this.operation,
    });
  }

  /** A non-empty string. */
  text(field: string): string {
    const v = this.raw[field];
    if (typeof v !== 'string' || v === '') throw this.malformed(`has no ${field}${shown(v)}`);
    return v;
  }

  optionalText(field: string): string | undefined {
    const v = this.raw[field];
    return typeof v === 'string' && v !== '' ? v : undefined;
  }

  side(field: string): Side {
    const v = this.text(field);
    if (v !== 'BUY' && v !== 'SELL') throw this.malformed(`has ${field} ${JSON.stringify(v)}, not BUY or SELL`);
    return v;
  }

  /** A decimal the venue must state ("" means "not set" on this wire, so it is missing too). */
  decimal(field: string, rule: 'any' | 'positive' | 'non-negative' = 'any'): Dec {
    const v = this.raw[field];
    if (v === undefined || v === null || v === '') throw this.malformed(`has no ${field}`);
    const d = readDecimal(v);
    if (d === undefined) throw this.malformed(`has ${field} ${JSON.stringify(v)}, not a decimal`);
    if ((rule === 'positive' && !d.gt(0)) || (rule === 'non-negative' && d.isNegative()))
      throw this.malformed(`has ${field} ${String(v)}, not ${rule === 'positive' ? 'above' : 'at or above'} zero`);
    return d;
  }

  /** A decimal that may be unset ("", "0" or absent): undefined then; an unreadable value is refused. */
  optionalDecimal(field: string): Dec | undefined {
    const v = this.raw[field];
    const d = readDecimal(v);
    if (d === undefined) throw this.malformed(`has ${field} ${JSON.stringify(v)}, not a decimal`);
    return d.isZero() ? undefined : d;
  }

  time(field: string): number {
    const t = this.optionalTime(field);
    if (t === undefined) throw this.malformed(`has no readable ${field}${shown(this.raw[field])}`);
    return t;
  }

  optionalTime(field: string): number | undefined {
    const v = this.raw[field];
    const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
    return Number.isFinite(t) ? t : undefined;
  }
}

function shown(v: unknown): string {
  return v === undefined ? '' : ` (got ${JSON.stringify(v)})`;
}

/**
 * An Order record (CreateOrder, GetOrder, ListProfileOrders) as the venue port's order. Refused
 * without id, market, side, type, status or amount_filled, without any size (base_amount or
 * quote_amount), or without a price when its type is a limit type.
 */
export function orderFromWire(raw: unknown, operation: string): VenueOrder {
  const r = new RecordReader(raw, operation, 'order', 'id');
  const type = r.text('type');
  const baseAmount = r.optionalDecimal('base_amount');
  const quoteAmount = r.optionalDecimal('quote_amount');
  if (!baseAmount && !quoteAmount) throw r.malformed('has neither base_amount nor quote_amount');
  const price = r.optionalDecimal('price');
  if (!price && PRICED_TYPES.has(type)) throw r.malformed(`has no price, which a ${type} order carries`);
  const amountFilled = r.decimal('amount_filled', 'non-negative');
  const averagePrice = amountFilled.gt(0) ? r.optionalDecimal('volume_weighted_average_price') : undefined;
  const createdAt = r.optionalTime('created_at');
  return {
    orderId: r.text('id'),
    refId: r.optionalText('ref_id') ?? '',
    market: r.text('market'),
    side: r.side('side'),
    type,
    status: r.text('status'),
    ...(baseAmount && { baseAmount }),
    ...(quoteAmount && { quoteAmount }),
    ...(price && { price }),
    amountFilled,
    ...(averagePrice && { averagePrice }),
    ...(createdAt !== undefined && { createdAt }),
  };
}

/**
 * An Execution record (a fill) as the venue port's fill. Every field is needed to book it: ids,
 * time, market, side, amount and price above zero, the commission (0 is a stated value, absence is
 * not) and, when there is a commission, its asset.
 */
export function fillFromWire(raw: unknown, operation: string): VenueFill {
  const r = new RecordReader(raw, operation, 'execution', 'execution_id');
  const commission = r.decimal('commission');
  const commissionAsset = commission.isZero() ? (r.optionalText('commission_asset') ?? '') : r.text('commission_asset');
  return {
    fillId: r.text('execution_id'),
    orderId: r.text('order_id'),
    market: r.text('market'),
    side: r.side('side'),
    amount: r.decimal('amount', 'positive'),
    price: r.decimal('price', 'positive'),
    commission,
    commissionAsset,
    at: r.time('executed_at'),
  };
}

/** A Quote record: id, market, side, a price above zero and its expiry are all needed to act on it. */
export function quoteFromWire(raw: unknown, operation: string): VenueQuote {
  const r = new RecordReader(raw, operation, 'quote', 'id');
  return {
    quoteId: r.text('id'),
    market: r.text('market'),
    side: r.side('side'),
    price: r.decimal('price', 'positive'),
    expiresAt: r.time('expires_at'),
  };
}

/** A QuoteExecution record: refused without its ids, market, side, status, price or either amount. */
export function quoteExecutionFromWire(raw: unknown, operation: string): VenueQuoteExecution {
  const r = new RecordReader(raw, operation, 'quote execution', 'id');
  const refId = r.optionalText('ref_id');
  return {
    executionId: r.text('id'),
    ...(refId !== undefined && { refId }),
    quoteId: r.text('quote_id'),
    market: r.text('market'),
    side: r.side('side'),
    price: r.decimal('price', 'positive'),
    baseAmount: r.decimal('base_amount', 'non-negative'),
    quoteAmount: r.decimal('quote_amount', 'non-negative'),
    status: r.text('status'),
  };
}

/** A ProfileBalance record: an asset with both amounts stated (a balance is never assumed 0). */
export function balanceFromWireRecord(raw: unknown, operation: string): VenueBalance {
  const r = new RecordReader(raw, operation, 'balance', 'asset');
  return { asset: r.text('asset'), available: r.decimal('available'), trading: r.decimal('trading') };
}

/** A Transfer record as the venue port's transfer: id and status are needed; ref_id falls back to ours. */
export function transferFromWire(raw: unknown, operation: string, ourRefId: string): VenueTransfer {
  const r = new RecordReader(raw, operation, 'transfer', 'id');
  return { transferId: r.text('id'), refId: r.optionalText('ref_id') ?? ourRefId, status: r.text('status') };
}
