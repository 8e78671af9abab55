import { D, type Dec, WIRE_DECIMAL, decimalPlaces } from '../core/decimal.js';
import { InputError } from '../core/errors.js';
import { assetDecimals, isTradingMarket, splitMarket } from '../core/markets.js';
import { type OrderType, type Side, type TimeInForce } from '../core/messages.js';
import { marketSpec } from './catalog.js';
import { SimError } from './errors.js';
import { type OrderSpec, type PlaceOrderCommand } from './order-types.js';

const TIF_BY_TYPE: Readonly<Record<OrderType, readonly TimeInForce[]>> = {
  MARKET: ['IOC'],
  LIMIT: ['GTC', 'IOC', 'GTT', 'FOK'],
  POST_ONLY_LIMIT: ['GTC', 'IOC', 'GTT', 'FOK'],
  STOP_MARKET: ['GTC', 'GTT'],
  STOP_LIMIT: ['GTC', 'GTT'],
};
const ORDER_TYPES = Object.keys(TIF_BY_TYPE) as OrderType[];
const MAX_METADATA_PAIRS = 6;
const MAX_METADATA_TEXT = 100;

/**
 * Validates an order request against the platform's type/TIF matrix and field rules (TRADING.md
 * §2.1). Malformed input is an InputError naming the wire field and the fix; market-dependent
 * rejections (price band, post-only, GTT too soon) are decided later by the matching engine.
 */
export function parseOrder(cmd: PlaceOrderCommand): OrderSpec {
  const side = oneOf(cmd.side, 'side', ['BUY', 'SELL'] as const);
  const market = tradingMarket(cmd.market);
  const type = oneOf(cmd.type, 'type', ORDER_TYPES);
  const allowed = TIF_BY_TYPE[type];
  const timeInForce = cmd.timeInForce === undefined ? allowed[0]! : oneOf(cmd.timeInForce, 'time_in_force', allowed, `for ${type} orders`);
  checkShape(type, side, cmd);
  const spec = marketSpec(market);
  const { quote } = splitMarket(market);
  return {
    side,
    market,
    type,
    timeInForce,
    refId: optionalString(cmd.refId, 'ref_id', 100),
    baseAmount: amount(cmd.baseAmount, 'base_amount', 8),
    quoteAmount: amount(cmd.quoteAmount, 'quote_amount', assetDecimals(quote)),
    price: amount(cmd.price, 'price', spec.priceDecimals, spec.tickRate),
    stopPrice: amount(cmd.stopPrice, 'stop_price', spec.priceDecimals, spec.tickRate),
    expiresAt: expiration(cmd.expirationDate, timeInForce),
    metadata: metadata(cmd.metadata),
    ...identity(cmd),
    recipientProfileId: optionalString(cmd.recipientProfileId, 'recipient_profile_id', 100),
  };
}

function checkShape(type: OrderType, side: Side, cmd: PlaceOrderCommand): void {
  const need = (value: unknown, field: string, why: string): void => {
    if (value === undefined || value === '') throw new InputError(field, `required ${why}`);
  };
  const forbid = (value: unknown, field: string, why: string): void => {
    if (value !== undefined && value !== '') throw new InputError(field, `not allowed ${why}: remove it`);
  };
  const stop = type === 'STOP_MARKET' || type === 'STOP_LIMIT';
  if (stop && side !== 'SELL') throw new InputError('side', `${type} orders are sell-only (stop loss): use SELL`);
  if (type === 'MARKET' && side === 'BUY') {
    need(cmd.quoteAmount, 'quote_amount', 'for MARKET BUY orders (the quote currency to spend)');
    forbid(cmd.baseAmount, 'base_amount', 'on MARKET BUY orders (size them by quote_amount)');
  } else {
    need(cmd.baseAmount, 'base_amount', `for ${side === 'SELL' ? type + ' SELL' : type} orders`);
    forbid(cmd.quoteAmount, 'quote_amount', `on ${type} ${side} orders (only MARKET BUY uses it)`);
  }
  if (type === 'MARKET' || type === 'STOP_MARKET') forbid(cmd.price, 'price', `on ${type} orders`);
  else need(cmd.price, 'price', `for ${type} orders (the limit price)`);
  if (stop) need(cmd.stopPrice, 'stop_price', `for ${type} orders (the trigger price)`);
  else forbid(cmd.stopPrice, 'stop_price', `on ${type} orders (only stop orders have one)`);
}

function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], context = ''): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const what = value === undefined ? 'required' : `${JSON.stringify(value)} is not valid`;
  throw new InputError(field, `${what}${context ? ' ' + context : ''}: use one of ${allowed.join(', ')}`);
}

function tradingMarket(value: unknown): string {
  if (typeof value === 'string' && isTradingMarket(value)) return value;
  throw new InputError('market', `${value === undefined ? 'required' : JSON.stringify(value) + ' is not a trading market'}: use a market such as BTCUSD or ETHEUR (see ListMarkets)`);
}

/** A positive wire decimal with at most `dp` places (and on `tick` when given), or undefined. */
export function amount(value: unknown, field: string, dp: number, tick?: string): Dec | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !WIRE_DECIMAL.test(value)) {
    throw new InputError(field, `expected an unsigned decimal string such as "1.25", got ${JSON.stringify(value)}`);
  }
  const d = new D(value);
  if (!d.gt(0)) throw new InputError(field, 'must be greater than zero');
  if (decimalPlaces(value.replace(/0+$/, '')) > dp || (tick !== undefined && !d.mod(tick).isZero())) {
    throw new SimError('exceed-precision', `${field}: ${value} has more precision than allowed: use at most ${dp} decimal places${tick ? ` (a multiple of ${tick})` : ''}`, { field });
  }
  return d;
}

function expiration(value: unknown, tif: TimeInForce): number | undefined {
  if (tif !== 'GTT') {
    if (value !== undefined && value !== '') throw new InputError('expiration_date', `only for time_in_force GTT: remove it or use GTT`);
    return undefined;
  }
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) {
    throw new InputError('expiration_date', 'required for GTT: epoch milliseconds as a digit string, e.g. "1767225600000"');
  }
  return Number(value);
}

/** Validates a metadata map (≤ 6 pairs, ≤ 100 characters each), naming the offending key. */
export function metadata(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new InputError('metadata', 'expected an object of string keys and string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_METADATA_PAIRS) throw new InputError('metadata', `at most ${MAX_METADATA_PAIRS} pairs, got ${entries.length}`);
  for (const [k, v] of entries) {
    if (typeof v !== 'string') throw new InputError(`metadata.${k}`, 'values must be strings');
    if (k.length > MAX_METADATA_TEXT || v.length > MAX_METADATA_TEXT) throw new InputError(`metadata.${k}`, `keys and values are at most ${MAX_METADATA_TEXT} characters`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function identity(cmd: PlaceOrderCommand): { identityId: string | undefined; identityAccountId: string | undefined } {
  const identityId = optionalString(cmd.identityId, 'identity_id', 100);
  const identityAccountId = optionalString(cmd.identityAccountId, 'identity_account_id', 100);
  if ((identityId === undefined) !== (identityAccountId === undefined)) {
    throw new InputError(identityId === undefined ? 'identity_id' : 'identity_account_id', 'identity_id and identity_account_id must be sent together (or neither)');
  }
  optionalString(cmd.selfMatchPreventionId, 'self_match_prevention_id', 36);
  return { identityId, identityAccountId };
}

/** An optional string field of at most `max` characters (empty counts as absent). */
export function optionalString(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new InputError(field, 'expected a string');
  if (value.length > max) throw new InputError(field, `at most ${max} characters`);
  return value;
}
