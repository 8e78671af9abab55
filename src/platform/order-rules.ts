/**
 * The platform's order rules (TRADING.md §2.1) as one set of pure functions over an instrument: what
 * the sandbox's exchange, every fill model and the risk gate refuse, in the same words. How a refusal
 * is answered (an HTTP problem, a denial) is the caller's.
 */
import { D, type Dec, WIRE_DECIMAL } from '../core/decimal.js';
import {
  compare,
  dividedBy,
  exactOf,
  exactOfDecimal,
  exactOfNumber,
  isMultipleOf,
  times,
  toDecimal,
  toText,
  type Exact,
} from '../core/exact.js';
import { pow10 } from '../core/units.js';
import type { Instrument, NotionalCaps } from '../core/instrument.js';
import { type OrderType, type Side, type TimeInForce } from '../core/messages.js';
import { isStopType } from './order-life.js';

const TIF_BY_TYPE: Readonly<Record<OrderType, readonly TimeInForce[]>> = {
  MARKET: ['IOC'],
  LIMIT: ['GTC', 'IOC', 'GTT', 'FOK'],
  POST_ONLY_LIMIT: ['GTC', 'IOC', 'GTT', 'FOK'],
  STOP_MARKET: ['GTC', 'GTT'],
  STOP_LIMIT: ['GTC', 'GTT'],
};
/** The platform's order types, each with the times in force it takes (the first is the default). */
export const ORDER_TYPES = Object.keys(TIF_BY_TYPE) as OrderType[];

/**
 * An order as any caller states it, wire values in camelCase: the sandbox passes raw JSON (hence
 * `unknown`), point replay and the risk gate pass an intent's strings. `expiresAt` is epoch ms, as a
 * number or a digit string.
 */
export interface OrderRequest {
  readonly side: unknown;
  readonly type: unknown;
  readonly baseAmount?: unknown;
  readonly quoteAmount?: unknown;
  readonly price?: unknown;
  readonly stopPrice?: unknown;
  readonly timeInForce?: unknown;
  readonly expiresAt?: unknown;
}

/** The wire name of the field a violation is about. */
export type OrderField = 'side' | 'type' | 'time_in_force' | 'base_amount' | 'quote_amount' | 'price' | 'stop_price' | 'expiration_date';

/** invalid: malformed or not allowed for the type; precision: decimals or tick; size: the instrument's min/max; cap: the platform's notional cap. */
export type ViolationKind = 'invalid' | 'precision' | 'size' | 'cap';

/** Why the platform would refuse an order: the one field to change, and how. */
export interface OrderViolation {
  readonly field: OrderField;
  readonly kind: ViolationKind;
  /** What is wrong and the fix, without the field's name (callers name it in their own words). */
  readonly reason: string;
  /** `${field}: ${reason}`. */
  readonly message: string;
  /** The numbers behind it (value, max_decimals, tick, notional and cap). */
  readonly details: Readonly<Record<string, string | number>>;
}

/** An order that passed the rules: amounts parsed, time in force defaulted. */
export interface RuledOrder {
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly baseAmount: Dec | undefined;
  readonly quoteAmount: Dec | undefined;
  readonly price: Dec | undefined;
  readonly stopPrice: Dec | undefined;
  readonly expiresAt: number | undefined;
  /** The same amounts exactly (`ruleOrder` sets them; an order built elsewhere, such as the sandbox's, may not). */
  readonly exact?: OrderAmounts;
}

/** An order's amounts as exact units (core/exact.ts). */
export interface OrderAmounts {
  readonly baseAmount: Exact | undefined;
  readonly quoteAmount: Exact | undefined;
  readonly price: Exact | undefined;
  readonly stopPrice: Exact | undefined;
}

/** What the cap check needs besides the order: a price for unpriced orders, the quote's rate to USD, caps other than the instrument's. */
export interface Valuation {
  /** Mid or last price of the market, in the quote currency (values a MARKET sell): as market data has it, or a Decimal. */
  readonly reference?: Dec | number;
  /** Units of the quote currency per USD (1 for USD markets); without it a non-USD order's cap is not checked. */
  readonly quotePerUsd?: Dec;
  readonly caps?: NotionalCaps;
}

class Refusal {
  constructor(readonly v: OrderViolation) {}
}

function violation(field: OrderField, kind: ViolationKind, reason: string, details: Record<string, string | number> = {}): OrderViolation {
  return Object.freeze({ field, kind, reason, message: `${field}: ${reason}`, details: Object.freeze(details) });
}

function refuse(field: OrderField, kind: ViolationKind, reason: string, details: Record<string, string | number> = {}): never {
  throw new Refusal(violation(field, kind, reason, details));
}

/** How far from mid a taker limit price may be before the platform rejects the order (15 %). */
export const PLATFORM_PRICE_BAND = new D('0.15');

/**
 * The platform's taker price band: the reason a marketable LIMIT order at `price` is rejected when
 * `mid` (the reference at entry: the book's mid, or a backtest point's price) is more than `band`
 * away, or undefined when it is within. Shared by the exchange's matching and point replay.
 */
export function takerBandRefusal(price: Dec, mid: Dec, band: Dec = PLATFORM_PRICE_BAND): string | undefined {
  return price.minus(mid).abs().div(mid).gt(band) ? `taker limit price more than ${band.times(100).toFixed()} % from mid` : undefined;
}

/** True for a violation (as opposed to a ruled order). */
export function isViolation<T extends object>(x: T | OrderViolation): x is OrderViolation {
  return 'kind' in x && 'reason' in x;
}

/**
 * The platform's order rules (TRADING.md §2.1) in one place, for the sandbox's exchange, point replay
 * and the risk gate: type and time-in-force matrix, required and forbidden fields per type and side
 * (stops sell-only), positive decimals, the instrument's tick and amount decimals, its size limits.
 * Returns the order parsed, or the first violation. Caps need a price: see `capViolation`.
 */
export function ruleOrder(req: OrderRequest, i: Instrument): RuledOrder | OrderViolation {
  const last = lastRuled;
  if (last !== undefined && last.instrument === i && sameTerms(last.req, req)) return last.result;
  const result = ruleOrderOnce(req, i);
  lastRuled = primitiveTerms(req) ? { req: termsOf(req), instrument: i, result } : undefined;
  return result;
}

/**
 * The last order ruled, with its verdict. An order is ruled by the risk gate and then again by the
 * venue it is placed on (point replay, the recorded-book venue): the same terms against the same
 * instrument get the same verdict, so the second reading is this one. Every rule still applies to
 * every order at both places; only the parsing is shared. The verdict is immutable (Decimals, a
 * frozen violation) and the terms are copied, so nothing a caller does later can change it.
 */
let lastRuled: { readonly req: OrderRequest; readonly instrument: Instrument; readonly result: RuledOrder | OrderViolation } | undefined;

function termsOf(req: OrderRequest): OrderRequest {
  return {
    side: req.side,
    type: req.type,
    baseAmount: req.baseAmount,
    quoteAmount: req.quoteAmount,
    price: req.price,
    stopPrice: req.stopPrice,
    timeInForce: req.timeInForce,
    expiresAt: req.expiresAt,
  };
}

/** Values compared by `===` alone (an object's content could change under the same reference). */
function isPrimitive(v: unknown): boolean {
  return v === null || (typeof v !== 'object' && typeof v !== 'function');
}

function primitiveTerms(r: OrderRequest): boolean {
  return (
    isPrimitive(r.side) &&
    isPrimitive(r.type) &&
    isPrimitive(r.baseAmount) &&
    isPrimitive(r.quoteAmount) &&
    isPrimitive(r.price) &&
    isPrimitive(r.stopPrice) &&
    isPrimitive(r.timeInForce) &&
    isPrimitive(r.expiresAt)
  );
}

function sameTerms(a: OrderRequest, b: OrderRequest): boolean {
  return (
    a.side === b.side &&
    a.type === b.type &&
    a.baseAmount === b.baseAmount &&
    a.quoteAmount === b.quoteAmount &&
    a.price === b.price &&
    a.stopPrice === b.stopPrice &&
    a.timeInForce === b.timeInForce &&
    a.expiresAt === b.expiresAt
  );
}

function ruleOrderOnce(req: OrderRequest, i: Instrument): RuledOrder | OrderViolation {
  try {
    const side = pick(req.side, 'side', ['BUY', 'SELL'] as const);
    const type = pick(req.type, 'type', ORDER_TYPES);
    const allowed = TIF_BY_TYPE[type];
    const timeInForce = absent(req.timeInForce) ? allowed[0]! : pick(req.timeInForce, 'time_in_force', allowed, ` for ${type} orders`);
    checkFields(type, side, req);
    const terms = instrumentTerms(i);
    const exact: OrderAmounts = {
      baseAmount: exactAmount(req.baseAmount, 'base_amount', i.baseDecimals),
      quoteAmount: exactAmount(req.quoteAmount, 'quote_amount', i.quoteDecimals),
      price: exactAmount(req.price, 'price', i.priceDecimals, terms.tick),
      stopPrice: exactAmount(req.stopPrice, 'stop_price', i.priceDecimals, terms.tick),
    };
    const expiresAt = expiry(req.expiresAt, timeInForce);
    checkSize(exact.baseAmount, i, terms);
    return new Ruled(side, type, timeInForce, expiresAt, exact);
  } catch (e) {
    if (e instanceof Refusal) return e.v;
    throw e;
  }
}

/**
 * An order ruled by `ruleOrder`: its amounts are kept exact, and each is made a Decimal only when a
 * caller reads it (the risk gate and point replay check and fill in exact units; the Decimal is for
 * those that keep Decimals). Immutable: the Decimals are built once, privately.
 */
class Ruled implements RuledOrder {
  #baseAmount: Dec | undefined;
  #quoteAmount: Dec | undefined;
  #price: Dec | undefined;
  #stopPrice: Dec | undefined;

  constructor(
    readonly side: Side,
    readonly type: OrderType,
    readonly timeInForce: TimeInForce,
    readonly expiresAt: number | undefined,
    readonly exact: OrderAmounts,
  ) {
    Object.freeze(this);
  }

  get baseAmount(): Dec | undefined {
    return this.exact.baseAmount && (this.#baseAmount ??= toDecimal(this.exact.baseAmount));
  }

  get quoteAmount(): Dec | undefined {
    return this.exact.quoteAmount && (this.#quoteAmount ??= toDecimal(this.exact.quoteAmount));
  }

  get price(): Dec | undefined {
    return this.exact.price && (this.#price ??= toDecimal(this.exact.price));
  }

  get stopPrice(): Dec | undefined {
    return this.exact.stopPrice && (this.#stopPrice ??= toDecimal(this.exact.stopPrice));
  }
}

/** The amounts of an order not ruled here (the sandbox's order spec), read exactly. */
function amountsOf(o: RuledOrder): OrderAmounts {
  const read = (d: Dec | undefined): Exact | undefined => (d === undefined ? undefined : exactOfDecimal(d));
  return { baseAmount: read(o.baseAmount), quoteAmount: read(o.quoteAmount), price: read(o.price), stopPrice: read(o.stopPrice) };
}

/**
 * The platform's notional cap (403 notional-value-too-large): MARKET and STOP_MARKET orders against
 * the market cap, the others against the limit cap, valued at the order's price (or stop price, or
 * `reference` for a MARKET sell) and converted to USD. Undecidable without a price or rate (or at a
 * rate of zero): undefined.
 */
export function capViolation(o: RuledOrder, i: Instrument, v: Valuation): OrderViolation | undefined {
  const x = o.exact ?? amountsOf(o);
  const notional =
    x.quoteAmount ?? (x.baseAmount === undefined ? undefined : valued(x.baseAmount, x.price ?? x.stopPrice ?? referenceOf(v)));
  const usd =
    notional === undefined
      ? undefined
      : i.quote === 'USD'
        ? notional
        : v.quotePerUsd && dividedBy(notional, exactOfDecimal(v.quotePerUsd)!);
  if (usd === undefined) return undefined;
  const caps = v.caps ?? i.maxNotionalUsd;
  const max = o.type === 'MARKET' || o.type === 'STOP_MARKET' ? caps.market : caps.limit;
  if (compare(usd, capOf(max)) <= 0) return undefined;
  const field = x.quoteAmount !== undefined ? 'quote_amount' : 'base_amount';
  const value = toDecimal(usd).toFixed(2);
  const details = { market: i.market, order_type: o.type, order_notional_value: value, max_notional_value: max.toFixed() };
  return violation(
    field,
    'cap',
    `order notional ${value} USD exceeds the maximum ${max.toFixed()} USD for ${o.type} orders on ${i.market}: make the order smaller or split it`,
    details,
  );
}

function valued(base: Exact, price: Exact | undefined): Exact | undefined {
  return price === undefined ? undefined : times(base, price);
}

function referenceOf(v: Valuation): Exact | undefined {
  const r = v.reference;
  return r === undefined ? undefined : typeof r === 'number' ? exactOfNumber(r) : exactOfDecimal(r);
}

/** Caps are a few fixed Decimals (the instrument's, the sandbox's rules), each read once. */
const CAPS = new WeakMap<Dec, Exact>();
function capOf(max: Dec): Exact {
  let x = CAPS.get(max);
  if (x === undefined) {
    x = exactOfDecimal(max)!;
    CAPS.set(max, x);
  }
  return x;
}

/**
 * Every rule, the notional cap included: the order ruled, or the first violation. The one check of an
 * order's bounds that the sandbox, the fill models and the risk gate share.
 */
export function checkOrder(req: OrderRequest, i: Instrument, v: Valuation = {}): RuledOrder | OrderViolation {
  const o = ruleOrder(req, i);
  return isViolation(o) ? o : (capViolation(o, i, v) ?? o);
}

/** Every rule, caps included: the first violation, or undefined when the platform would take the order. */
export function orderViolation(req: OrderRequest, i: Instrument, v: Valuation = {}): OrderViolation | undefined {
  const o = checkOrder(req, i, v);
  return isViolation(o) ? o : undefined;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function need(value: unknown, field: OrderField, why: () => string): void {
  if (absent(value)) refuse(field, 'invalid', `required ${why()}`);
}

function forbid(value: unknown, field: OrderField, why: () => string): void {
  if (!absent(value)) refuse(field, 'invalid', `not allowed ${why()}: remove it`);
}

function checkFields(type: OrderType, side: Side, req: OrderRequest): void {
  const stop = isStopType(type);
  if (stop && side !== 'SELL') refuse('side', 'invalid', `${type} orders are sell-only (stop loss): use SELL`);
  if (type === 'MARKET' && side === 'BUY') {
    need(req.quoteAmount, 'quote_amount', () => 'for MARKET BUY orders (the quote currency to spend)');
    forbid(req.baseAmount, 'base_amount', () => 'on MARKET BUY orders (size them by quote_amount)');
  } else {
    need(req.baseAmount, 'base_amount', () => `for ${side === 'SELL' ? type + ' SELL' : type} orders`);
    forbid(req.quoteAmount, 'quote_amount', () => `on ${type} ${side} orders (only MARKET BUY uses it)`);
  }
  if (type === 'MARKET' || type === 'STOP_MARKET') forbid(req.price, 'price', () => `on ${type} orders`);
  else need(req.price, 'price', () => `for ${type} orders (the limit price)`);
  if (stop) need(req.stopPrice, 'stop_price', () => `for ${type} orders (the trigger price)`);
  else forbid(req.stopPrice, 'stop_price', () => `on ${type} orders (only stop orders have one)`);
}

function pick<T extends string>(value: unknown, field: OrderField, allowed: readonly T[], context = ''): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const what = absent(value) ? 'required' : `${JSON.stringify(value)} is not valid`;
  return refuse(field, 'invalid', `${what}${context}: use one of ${allowed.join(', ')}`);
}

/** An instrument's tick and size limits, read exactly once per instrument (every order is checked against them). */
interface InstrumentTerms {
  readonly tick: Tick;
  readonly minBaseAmount: Exact | undefined;
  readonly maxBaseAmount: Exact | undefined;
}

interface Tick {
  readonly exact: Exact;
  readonly text: string;
  /** A tick of 1, 0.1, 0.01 …: a price within its decimals is on it, no division needed. */
  readonly decimalUnit: boolean;
}

const TERMS = new WeakMap<Instrument, InstrumentTerms>();

function instrumentTerms(i: Instrument): InstrumentTerms {
  let t = TERMS.get(i);
  if (t === undefined) {
    const text = i.tick.toFixed();
    t = {
      tick: { exact: exactOfDecimal(i.tick)!, text, decimalUnit: i.tick.sd() === 1 && text.endsWith('1') },
      minBaseAmount: i.minBaseAmount && exactOfDecimal(i.minBaseAmount),
      maxBaseAmount: i.maxBaseAmount && exactOfDecimal(i.maxBaseAmount),
    };
    TERMS.set(i, t);
  }
  return t;
}

/** A positive wire decimal with at most `dp` places (trailing zeros aside) and on `tick` when given, exactly. */
function exactAmount(value: unknown, field: OrderField, dp: number, tick?: Tick): Exact | undefined {
  if (absent(value)) return undefined;
  if (typeof value !== 'string' || !WIRE_DECIMAL.test(value)) {
    refuse(field, 'invalid', `expected an unsigned decimal string such as "1.25", got ${JSON.stringify(value)}`);
  }
  const x = exactOf(value)!; // the pattern admits plain decimals only
  if (x.units === 0n) refuse(field, 'invalid', 'must be greater than zero');
  // places beyond `dp` are allowed as long as they are zeros ("1.500" has 1 decimal that counts)
  const withinDecimals = x.scale <= dp || x.units % pow10(x.scale - dp) === 0n;
  if (!withinDecimals || (tick !== undefined && !tick.decimalUnit && !isMultipleOf(x, tick.exact))) {
    const onTick = tick === undefined ? '' : ` (a multiple of ${tick.text})`;
    refuse(field, 'precision', `${value} has more precision than allowed: use at most ${dp} decimal places${onTick}`, {
      value,
      max_decimals: dp,
      ...(tick && { tick: tick.text }),
    });
  }
  return x;
}

function expiry(value: unknown, tif: TimeInForce): number | undefined {
  if (tif !== 'GTT') {
    if (!absent(value)) refuse('expiration_date', 'invalid', 'only for time_in_force GTT: remove it or use GTT');
    return undefined;
  }
  const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0)
    refuse('expiration_date', 'invalid', 'required for GTT: epoch milliseconds as a digit string, e.g. "1767225600000"');
  return ms;
}

function checkSize(base: Exact | undefined, i: Instrument, t: InstrumentTerms): void {
  if (base === undefined) return;
  if (i.minBaseAmount !== undefined && compare(base, t.minBaseAmount!) < 0) {
    refuse(
      'base_amount',
      'size',
      `${toText(base)} is below the minimum ${i.minBaseAmount.toFixed()} ${i.base} of ${i.market}: order at least that much`,
      { value: toText(base), min: i.minBaseAmount.toFixed() },
    );
  }
  if (i.maxBaseAmount !== undefined && compare(base, t.maxBaseAmount!) > 0) {
    refuse(
      'base_amount',
      'size',
      `${toText(base)} is above the maximum ${i.maxBaseAmount.toFixed()} ${i.base} of ${i.market}: split the order`,
      { value: toText(base), max: i.maxBaseAmount.toFixed() },
    );
  }
}

/** A positive wire decimal with at most `dp` places (undefined when absent), or the violation that refuses it. */
export function ruleAmount(value: unknown, field: string, dp: number): { readonly amount: Dec | undefined } | OrderViolation {
  try {
    return { amount: exactAmount(value, field as OrderField, dp) && new D(value as string) };
  } catch (e) {
    if (e instanceof Refusal) return e.v;
    throw e;
  }
}
