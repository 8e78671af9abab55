/**
 * Order and execution records of point replay (`market.ts`), and the checks an order (or the
 * market's options) must pass before it is accepted. Kept apart so the market file holds only the
 * replay rules.
 */
import { D, WIRE_DECIMAL, decimalPlaces, type Dec } from '../../core/decimal.js';
import { InputError, invariant } from '../../core/errors.js';
import { assetDecimals, isTradingMarket, splitMarket } from '../../core/markets.js';
import type { Instrument } from '../../core/instrument.js';
import type { BarExit, OrderTerms, OrderType, Side, TimeInForce } from '../../core/messages.js';
import { FX_PER_USD } from '../../sim/market/catalog.js';
import { platformInstrument } from '../../platform/instruments.js';
import { SimError } from '../../sim/errors.js';
import { checkOrder, isViolation, type OrderAmounts, type RuledOrder, type Valuation } from '../../platform/order-rules.js';
import { throwViolation } from '../../sim/exchange/order-rules.js';
import { exactOfDecimal, toDecimal, type Exact } from '../../core/exact.js';
import { rescale, unitsToNumber } from '../../core/units.js';
import type { AssetPrecision } from './fills.js';

export type PointOrderStatus = 'OPEN' | 'FILLED' | 'CANCELLED' | 'REJECTED';

/** An order as point replay keeps it. Mutable inside the market; callers get copies. */
export interface PointOrder {
  readonly id: string;
  readonly refId: string;
  readonly market: string;
  readonly base: string;
  readonly quote: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /**
   * Its amounts and prices as the order rules read them: exact, with Decimals made when first read
   * (base_amount, quote_amount, price and stop_price as placed).
   */
  readonly terms: RuledOrder;
  /** Sized by its quote amount (a MARKET buy), else by its base amount. */
  readonly byQuote: boolean;
  /** The limit price as a number, for the per-point comparison (NaN for MARKET orders). */
  readonly limit: number;
  readonly expiresAt?: number;
  readonly createdAt: number;
  status: PointOrderStatus;
  /** Its fill once filled: a point fill fills an order in full, so its amount is the amount filled and its price the average. */
  fill: PointExecution | undefined;
  /** Not yet seen a point after the one it was placed at (its first chance to fill is the next point). */
  fresh: boolean;
  /** Decimals of its market's assets. */
  readonly precision: AssetPrecision;
  /** Its size in exact units: the base amount at the base's decimals, or the quote amount at the quote's. */
  readonly size: bigint;
  /** `price` exactly (limit orders). */
  readonly limitPrice: Exact | undefined;
  /** What placement moved from available to trading (released on fill or cancel): units of 10^-scale. */
  readonly reserved: { readonly asset: string; readonly units: bigint; readonly scale: number };
  /** Why the order closed without filling, when it did. */
  reason?: string;
}

/** One fill of an order (or a settled quote execution), as the venue reports it. */
export interface PointExecution {
  readonly executionId: string;
  readonly orderId: string;
  readonly refId: string;
  readonly market: string;
  readonly side: Side;
  /** Base amount traded. */
  readonly amount: Dec;
  readonly price: Dec;
  /** Fee, in the quote currency. */
  readonly commission: Dec;
  readonly commissionAsset: string;
  /** Quote spent (buy, fee included) or received (sell, after the fee). */
  readonly quoteAmount: Dec;
  readonly at: number;
  readonly kind: 'order' | 'quote';
  /** The price as the nearest number (a chart's marker). */
  readonly priceNumber: number;
  /** The four amounts above in exact units, for readers that add fills up without decimal.js (the round trips). */
  readonly exactAmount: Exact;
  readonly exactPrice: Exact;
  readonly exactCommission: Exact;
  readonly exactQuoteAmount: Exact;
}

/** What a PointFill is made of: the fill's names and its money in exact units. */
export interface PointFillTerms {
  readonly executionId: string;
  readonly orderId: string;
  readonly refId: string;
  readonly market: string;
  readonly side: Side;
  readonly commissionAsset: string;
  readonly at: number;
  readonly kind: 'order' | 'quote';
  readonly exactAmount: Exact;
  readonly exactPrice: Exact;
  readonly exactCommission: Exact;
  readonly exactQuoteAmount: Exact;
}

/**
 * A fill of point replay. Its money is exact units; each Decimal of the Venue port is made from them
 * when first read, so what no reader asks for (in a backtest, the quote amount: the round trips read
 * its units) costs nothing.
 */
export class PointFill implements PointExecution {
  readonly executionId: string;
  readonly orderId: string;
  readonly refId: string;
  readonly market: string;
  readonly side: Side;
  readonly commissionAsset: string;
  readonly at: number;
  readonly kind: 'order' | 'quote';
  readonly exactAmount: Exact;
  readonly exactPrice: Exact;
  readonly exactCommission: Exact;
  readonly exactQuoteAmount: Exact;
  #amount: Dec | undefined;
  #price: Dec | undefined;
  #commission: Dec | undefined;
  #quoteAmount: Dec | undefined;
  readonly #order: RuledOrder | undefined;
  readonly #pointPrice: number | undefined;

  /**
   * `order`: the rules' reading of the order it fills in full, whose base or quote amount (whichever
   * the order set) is the fill's own, Decimal and all; `pointPrice`: the point's price when the fill
   * is at it, a number that makes its Decimal without text.
   */
  constructor(t: PointFillTerms, order?: RuledOrder, pointPrice?: number) {
    this.executionId = t.executionId;
    this.orderId = t.orderId;
    this.refId = t.refId;
    this.market = t.market;
    this.side = t.side;
    this.commissionAsset = t.commissionAsset;
    this.at = t.at;
    this.kind = t.kind;
    this.exactAmount = t.exactAmount;
    this.exactPrice = t.exactPrice;
    this.exactCommission = t.exactCommission;
    this.exactQuoteAmount = t.exactQuoteAmount;
    this.#order = order;
    this.#pointPrice = pointPrice;
  }

  get amount(): Dec {
    return (this.#amount ??= this.#order?.baseAmount ?? toDecimal(this.exactAmount));
  }

  get price(): Dec {
    return (this.#price ??= this.#pointPrice === undefined ? toDecimal(this.exactPrice) : new D(this.#pointPrice));
  }

  get priceNumber(): number {
    return this.#pointPrice ?? unitsToNumber(this.exactPrice.units, this.exactPrice.scale);
  }

  get commission(): Dec {
    return (this.#commission ??= toDecimal(this.exactCommission));
  }

  get quoteAmount(): Dec {
    return (this.#quoteAmount ??= this.#order?.quoteAmount ?? toDecimal(this.exactQuoteAmount));
  }

  /** The fill as the port's fields (the units are bigints, which JSON cannot write). */
  toJSON(): Record<string, unknown> {
    const { executionId, orderId, refId, market, side, amount, price, commission, commissionAsset, quoteAmount, at, kind } = this;
    return { executionId, orderId, refId, market, side, amount, price, commission, commissionAsset, quoteAmount, at, kind };
  }
}

/** A fill whose money is Decimals (a recorded-book venue's, a test's) as a PointExecution. */
export function executionOfDecimals(
  x: Omit<PointFillTerms, 'exactAmount' | 'exactPrice' | 'exactCommission' | 'exactQuoteAmount'> & {
    readonly amount: Dec;
    readonly price: Dec;
    readonly commission: Dec;
    readonly quoteAmount: Dec;
  },
): PointExecution {
  const { amount, price, commission, quoteAmount, ...names } = x;
  return {
    ...names,
    amount,
    price,
    commission,
    quoteAmount,
    priceNumber: price.toNumber(),
    exactAmount: exactField(amount, 'amount'),
    exactPrice: exactField(price, 'price'),
    exactCommission: exactField(commission, 'commission'),
    exactQuoteAmount: exactField(quoteAmount, 'quote amount'),
  };
}

function exactField(value: Dec, field: string): Exact {
  const x = exactOfDecimal(value);
  if (x === undefined) throw new InputError(field, `a fill's ${field} must be a finite decimal, got ${value.toString()}`);
  return x;
}

/** A held-rate quote offered at one point. */
export interface PointQuote {
  readonly quoteId: string;
  readonly market: string;
  readonly side: Side;
  readonly price: Dec;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface PointQuoteExecution {
  readonly executionId: string;
  readonly refId: string;
  readonly quoteId: string;
  readonly market: string;
  readonly side: Side;
  readonly price: Dec;
  readonly baseAmount: Dec;
  readonly quoteAmount: Dec;
  readonly status: 'SETTLED';
  readonly at: number;
}

/** The executions at or after `sinceMs` of a list in time order (the list itself when unbounded, else a copy). */
export function executionsSince(fills: readonly PointExecution[], sinceMs: number): readonly PointExecution[] {
  if (sinceMs === Number.NEGATIVE_INFINITY) return fills;
  let lo = 0;
  let hi = fills.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((fills[mid] as PointExecution).at < sinceMs) lo = mid + 1;
    else hi = mid;
  }
  return fills.slice(lo);
}

/** What a caller asks point replay to place. Amounts and prices are wire decimal strings. */
export interface PointOrderCommand extends OrderTerms {
  readonly refId: string;
  /** A position helper's exit decided on the current bar: filled inside it (see `exitFillPrice`). */
  readonly barExit?: BarExit;
}

/** A checked command: amounts parsed, shape valid for point replay. */
export interface CheckedCommand {
  readonly market: string;
  readonly base: string;
  readonly quote: string;
  readonly precision: AssetPrecision;
  readonly baseAmount?: Dec;
  readonly quoteAmount?: Dec;
  readonly price?: Dec;
  readonly stopPrice?: Dec;
  /** As asked, or the type's default (IOC for MARKET, else GTC). */
  readonly timeInForce?: TimeInForce;
}

/** A checked order command: its terms as the order rules read them, and its size in units. */
export interface CheckedOrder {
  readonly market: string;
  readonly base: string;
  readonly quote: string;
  readonly precision: AssetPrecision;
  readonly terms: RuledOrder;
  /** The exact amounts and prices of `terms`. */
  readonly exact: OrderAmounts;
  /** Sized by its quote amount (a MARKET buy), else by its base amount. */
  readonly byQuote: boolean;
  /** The amount set (base or quote) in units of its asset's decimals. */
  readonly size: bigint;
}

function amount(value: string | undefined, field: string, dp: number): Dec | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !WIRE_DECIMAL.test(value))
    throw new InputError(field, `expected an unsigned decimal string such as "0.5", got ${JSON.stringify(value)}`);
  if (decimalPlaces(value) > dp)
    throw new SimError('exceed-precision', `${field} ${value} has more than ${dp} decimal places`, { field, max_decimals: dp });
  const d = new D(value);
  if (d.lte(0)) throw new InputError(field, `must be greater than zero, got ${value}`);
  return d;
}

/**
 * Validates an order command for point replay by the platform's order rules (`order-rules.ts`) against
 * the catalog's instrument, so point replay refuses exactly what the sandbox refuses, with the same
 * errors: InputError for invalid input, SimError exceed-precision off the tick or decimals, and
 * notional-value-too-large over the platform's cap (a MARKET sell valued at `reference`, the point's
 * price). Every order type passes when well formed; stop orders are sell-only.
 */
export function checkCommand(cmd: PointOrderCommand, reference?: number): CheckedOrder {
  if (typeof cmd.refId !== 'string' || cmd.refId === '') throw new InputError('ref_id', 'required: the intent id of the order');
  const m = marketTermsOf(cmd.market);
  const { instrument, precision } = m;
  const unpriced = cmd.type === 'MARKET' && cmd.side === 'SELL' && reference !== undefined;
  const o = checkOrder(cmd, instrument, unpriced ? { ...m.valuation, reference } : m.valuation);
  if (isViolation(o)) throwViolation(o);
  // the rules read the amounts exactly, and held each to its asset's decimals
  const x = o.exact;
  invariant(x !== undefined, 'the order rules give the amounts they read exactly');
  const byQuote = x.quoteAmount !== undefined;
  const size = (byQuote ? x.quoteAmount : x.baseAmount) as Exact;
  const dp = byQuote ? precision.quoteDp : precision.baseDp;
  // at the asset's decimals: an amount written with more ("10.5000") has only zeros past them, which the
  // rules checked, so nothing is rounded away
  return {
    market: instrument.market,
    base: instrument.base,
    quote: instrument.quote,
    precision,
    terms: o,
    exact: x,
    byQuote,
    size: rescale(size.units, size.scale, dp, 'down'),
  };
}

/** What a trading market's catalog instrument implies for its orders, made once per market (every order of a backtest asks). */
interface MarketTerms {
  readonly instrument: Instrument;
  readonly precision: AssetPrecision;
  /** How its orders are valued for the notional caps (quote per USD off USD markets). */
  readonly valuation: Valuation;
}

const MARKET_TERMS = new Map<string, MarketTerms>();

/** The terms of a trading market (the catalog builds its instruments once, so they are kept); refuses any other market. */
function marketTermsOf(market: string): MarketTerms {
  let m = MARKET_TERMS.get(market);
  if (m === undefined) {
    if (!isTradingMarket(market)) throw new InputError('market', `${JSON.stringify(market)} is not a trading market of the platform`);
    const instrument = platformInstrument(market);
    const fx = instrument.quote === 'USD' ? undefined : FX_PER_USD[instrument.quote];
    m = {
      instrument,
      precision: { baseDp: instrument.baseDecimals, quoteDp: instrument.quoteDecimals },
      valuation: fx === undefined ? {} : { quotePerUsd: new D(fx) },
    };
    MARKET_TERMS.set(market, m);
  }
  return m;
}

/** Checks the market and that exactly one of the two amounts is set, each within its asset's precision. */
export function checkSize(market: string, baseText: string | undefined, quoteText: string | undefined): CheckedCommand {
  if (!isTradingMarket(market)) throw new InputError('market', `${JSON.stringify(market)} is not a trading market of the platform`);
  const { base, quote } = splitMarket(market);
  const precision = { baseDp: assetDecimals(base), quoteDp: assetDecimals(quote) };
  const baseAmount = amount(baseText, 'base_amount', precision.baseDp);
  const quoteAmount = amount(quoteText, 'quote_amount', precision.quoteDp);
  if ((baseAmount === undefined) === (quoteAmount === undefined))
    throw new InputError('base_amount', 'exactly one of base_amount and quote_amount must be set');
  return { market, base, quote, precision, baseAmount, quoteAmount };
}

/** Checks a PointMarket option that must be a finite number ≥ 0 (fees, slippage, quote spread and TTL). */
export function nonNegative(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0) throw new InputError(field, `expected a number ≥ 0, got ${value}`);
  return value;
}
