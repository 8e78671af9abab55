import type { Dec, DenialReason } from '../../core/index.js';
import {
  compare,
  EXACT_ZERO,
  exactOf,
  exactOfDecimal,
  exactOfNumber,
  plus,
  times,
  toDecimal,
  toText,
  type Exact,
} from '../../core/exact.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';
import { onlyReduces } from '../reducing.js';
import type { RiskLimits } from '../limits.js';
import type { RiskView } from '../view.js';

/**
 * Notional must be known (market data present) and within [min, max]. The max caps exposure, so an
 * order that only reduces a position (a sell on spot) is not held to it: a position bought in parts
 * or grown in value can always be closed in one order. The platform's own cap still applies to it
 * (`checkOrderShape`).
 */
export function checkNotional(f: TradeFacts, _view: RiskView, limits: RiskLimits): DenialReason | undefined {
  const notional = f.notional;
  if (notional === undefined) return deny('STALE_DATA', `cannot value the intent: no price for ${f.market}`, { market: f.market });
  const { max, min } = boundsOf(limits);
  if (compare(notional, max) > 0 && !onlyReduces(f.intent)) {
    const value = toDecimal(notional).toFixed(2);
    return deny('MAX_NOTIONAL', `notional ${value} ${f.quote} exceeds the limit ${toText(max)}`, {
      notional: value,
      max_notional: toText(max),
      asset: f.quote,
    });
  }
  if (compare(notional, min) < 0) {
    const value = toDecimal(notional).toFixed(2);
    return deny('MINIMUM', `notional ${value} ${f.quote} is below the minimum ${toText(min)}`, {
      notional: value,
      min_notional: toText(min),
      asset: f.quote,
    });
  }
  return undefined;
}

/** The notional bounds and the fee of a limits object, read once (the gate checks them on every trading intent). */
interface Bounds {
  readonly rawMax: RiskLimits['max_order_notional'];
  readonly rawMin: RiskLimits['min_order_notional'];
  readonly rawFee: RiskLimits['fee_bps'];
  readonly max: Exact;
  readonly min: Exact;
  readonly feeBps: Exact;
}
const BOUNDS = new WeakMap<RiskLimits, Bounds>();
function boundsOf(limits: RiskLimits): Bounds {
  let b = BOUNDS.get(limits);
  // read again if the object's values were replaced since
  if (b === undefined || b.rawMax !== limits.max_order_notional || b.rawMin !== limits.min_order_notional || b.rawFee !== limits.fee_bps) {
    b = {
      rawMax: limits.max_order_notional,
      rawMin: limits.min_order_notional,
      rawFee: limits.fee_bps,
      // the schema admits decimal strings and finite numbers only
      max: exactOf(limits.max_order_notional)!,
      min: exactOf(limits.min_order_notional)!,
      feeBps: exactOfNumber(limits.fee_bps)!,
    };
    BOUNDS.set(limits, b);
  }
  return b;
}

export function checkOpenOrders(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  if (f.intent.kind !== 'place-order' || f.intent.type === 'MARKET') return undefined;
  const open = view.openOrderCount();
  if (open >= limits.max_open_orders)
    return deny('MAX_OPEN_ORDERS', `${open} orders are open (limit ${limits.max_open_orders})`, {
      open,
      max_open_orders: limits.max_open_orders,
    });
  return undefined;
}

const ONE_BP: Exact = { units: 1n, scale: 4 };

/** A buy needs the quote currency (with the fee), a sell needs the base asset. */
export function checkBalance(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  if (f.side === 'BUY') {
    const notional = f.notional;
    if (notional === undefined) return undefined;
    // × 0.0001 rather than ÷ 10,000: the same exact value, rounded the same way, without a long division
    const fee = f.quoteAmount !== undefined ? EXACT_ZERO : times(times(notional, boundsOf(limits).feeBps), ONE_BP);
    const required = plus(notional, fee);
    const available = view.available(f.quote);
    if (exceeds(required, available)) return insufficient(f.quote, toDecimal(required).toFixed(2), available.toFixed());
    return undefined;
  }
  const required = f.baseEquivalent;
  if (required === undefined) return undefined;
  const available = view.available(f.base);
  if (exceeds(required, available)) return insufficient(f.base, toText(required), available.toFixed());
  return undefined;
}

/** `amount.gt(balance)` (a balance that is not finite, which no venue reports, is compared by decimal.js). */
function exceeds(amount: Exact, balance: Dec): boolean {
  const b = exactOfDecimal(balance);
  return b === undefined ? toDecimal(amount).gt(balance) : compare(amount, b) > 0;
}

function insufficient(asset: string, required: string, available: string): DenialReason {
  return deny('INSUFFICIENT_BALANCE', `needs ${required} ${asset}, ${available} available`, { asset, required, available });
}

/**
 * A buy must not take the holding of the base asset above the user's cap. An order that only reduces
 * the holding passes, even when the holding is above the cap already (the cap was lowered).
 */
export function checkPosition(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  const cap = limits.max_position[f.base];
  if (cap === undefined || onlyReduces(f.intent)) return undefined;
  const add = f.baseEquivalent;
  if (add === undefined) return undefined;
  const holding = view.total(f.base);
  const total = exactOfDecimal(holding);
  // a holding that is not finite (no venue reports one) stays what it is, as decimal.js adds to it
  const after = total === undefined ? undefined : plus(total, add);
  // the schema admits decimal strings only
  if (after === undefined ? holding.gt(cap) : compare(after, exactOf(cap)!) > 0) {
    const value = (after === undefined ? holding : toDecimal(after)).toFixed(8);
    return deny('MAX_POSITION', `holding of ${f.base} would be ${value} (limit ${cap})`, {
      asset: f.base,
      position_after: value,
      max_position: cap,
    });
  }
  return undefined;
}
