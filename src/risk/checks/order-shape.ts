import type { DenialCode, DenialReason } from '../../core/index.js';
import { checkOrder, isViolation, type OrderField, type OrderViolation } from '../../platform/order-rules.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';

/** The intent's name of each wire field the order rules speak of. */
const INTENT_FIELD: Readonly<Record<OrderField, string>> = {
  side: 'side',
  type: 'type',
  time_in_force: 'timeInForce',
  base_amount: 'baseAmount',
  quote_amount: 'quoteAmount',
  price: 'price',
  stop_price: 'stopPrice',
  expiration_date: 'expiresAt',
};

/**
 * The platform's order rules (`src/platform/order-rules.ts`, the ones the sandbox and point replay apply)
 * against the market's instrument: type and time in force, fields per type and side, tick and amount
 * decimals, size limits, and the notional cap (USD markets; the venue decides the others). A
 * violation is denied as INVALID_INTENT, PRECISION, MINIMUM or MAX_NOTIONAL, naming the intent's field.
 */
export function checkOrderShape(f: TradeFacts): DenialReason | undefined {
  const i = f.intent;
  if (i.kind !== 'place-order') return undefined;
  // without a rate to USD (quotePerUsd) only a USD market's cap is checked: the venue decides the others
  const o = checkOrder(i, f.instrument, f.mid !== undefined ? { reference: f.mid } : {});
  return isViolation(o) ? denial(o) : undefined;
}

/** The denial of a violation: its code by kind, the message and details in the intent's field names. */
export function denial(v: OrderViolation): DenialReason {
  const field = INTENT_FIELD[v.field];
  return deny(codeOf(v), `${field}: ${v.reason}`, { field, ...v.details });
}

function codeOf(v: OrderViolation): DenialCode {
  switch (v.kind) {
    case 'invalid':
      return 'INVALID_INTENT';
    case 'precision':
      return 'PRECISION';
    case 'size':
      return v.details.min !== undefined ? 'MINIMUM' : 'MAX_NOTIONAL';
    case 'cap':
      return 'MAX_NOTIONAL';
  }
}
