/**
 * The simulated platform's side of the order rules (src/platform/order-rules.ts): a violation raised
 * as the sandbox answers it, an order command parsed into the exchange's order spec, and the amount
 * check every area of the simulator uses.
 */
import { type Dec } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { isTradingMarket } from '../../core/markets.js';
import { isViolation, ruleAmount, ruleOrder, type OrderViolation } from '../../platform/order-rules.js';
import { platformInstrument } from '../../platform/instruments.js';
import { SimError } from '../errors.js';
import { type OrderSpec, type PlaceOrderCommand } from './order-types.js';
import { metadata, optionalString } from '../wire-fields.js';

export { metadata, optionalString };

/**
 * Raises a violation as the simulated platform answers it: precision → SimError exceed-precision,
 * cap → SimError notional-value-too-large, invalid and size → InputError (400 naming the field).
 */
export function throwViolation(v: OrderViolation): never {
  if (v.kind === 'precision') throw new SimError('exceed-precision', v.message, { field: v.field, ...v.details });
  if (v.kind === 'cap') throw new SimError('notional-value-too-large', v.reason, v.details);
  throw new InputError(v.field, v.reason);
}

/**
 * Validates an order request as the sandbox's exchange receives it: the market, then the order rules
 * above against the catalog's instrument (a violation raised by `throwViolation`), then the fields
 * that are not order rules (ref_id, metadata, identity, recipient). Market-dependent rejections (price
 * band, post-only, GTT too soon) and the notional cap are decided later, on entry.
 */
export function parseOrder(cmd: PlaceOrderCommand): OrderSpec {
  const market = tradingMarket(cmd.market);
  if (typeof cmd.expirationDate === 'number')
    throw new InputError('expiration_date', 'expected epoch milliseconds as a digit string, e.g. "1767225600000"');
  const o = ruleOrder({ ...cmd, expiresAt: cmd.expirationDate }, platformInstrument(market));
  if (isViolation(o)) throwViolation(o);
  return {
    side: o.side,
    market,
    type: o.type,
    timeInForce: o.timeInForce,
    refId: optionalString(cmd.refId, 'ref_id', 100),
    baseAmount: o.baseAmount,
    quoteAmount: o.quoteAmount,
    price: o.price,
    stopPrice: o.stopPrice,
    expiresAt: o.expiresAt,
    metadata: metadata(cmd.metadata),
    ...identity(cmd),
    recipientProfileId: optionalString(cmd.recipientProfileId, 'recipient_profile_id', 100),
  };
}

function tradingMarket(value: unknown): string {
  if (typeof value === 'string' && isTradingMarket(value)) return value;
  throw new InputError(
    'market',
    `${value === undefined ? 'required' : JSON.stringify(value) + ' is not a trading market'}: use a market such as BTCUSD or ETHEUR (see ListMarkets)`,
  );
}

/** A positive wire decimal with at most `dp` places, or undefined: the order rules' check, for any amount field of the sim. */
export function amount(value: unknown, field: string, dp: number): Dec | undefined {
  const r = ruleAmount(value, field, dp);
  if (isViolation(r)) throwViolation(r);
  return r.amount;
}

function identity(cmd: PlaceOrderCommand): { identityId: string | undefined; identityAccountId: string | undefined } {
  const identityId = optionalString(cmd.identityId, 'identity_id', 100);
  const identityAccountId = optionalString(cmd.identityAccountId, 'identity_account_id', 100);
  if ((identityId === undefined) !== (identityAccountId === undefined)) {
    throw new InputError(
      identityId === undefined ? 'identity_id' : 'identity_account_id',
      'identity_id and identity_account_id must be sent together (or neither)',
    );
  }
  optionalString(cmd.selfMatchPreventionId, 'self_match_prevention_id', 36);
  return { identityId, identityAccountId };
}
