import { D, ZERO, type Dec, type DenialReason } from '../../core/index.js';
import { decimalOfNumber } from '../decimals.js';
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
  if (f.notional === undefined) return deny('STALE_DATA', `cannot value the intent: no price for ${f.market}`, { market: f.market });
  const { max, min } = notionalBounds(limits);
  if (f.notional.gt(max) && !onlyReduces(f.intent)) {
    return deny('MAX_NOTIONAL', `notional ${f.notional.toFixed(2)} ${f.quote} exceeds the limit ${max.toFixed()}`, { notional: f.notional.toFixed(2), max_notional: max.toFixed(), asset: f.quote });
  }
  if (f.notional.lt(min)) {
    return deny('MINIMUM', `notional ${f.notional.toFixed(2)} ${f.quote} is below the minimum ${min.toFixed()}`, { notional: f.notional.toFixed(2), min_notional: min.toFixed(), asset: f.quote });
  }
  return undefined;
}

/** The notional bounds of a limits object, parsed once (the gate checks them on every trading intent). */
interface Bounds {
  readonly rawMax: RiskLimits['max_order_notional'];
  readonly rawMin: RiskLimits['min_order_notional'];
  readonly max: Dec;
  readonly min: Dec;
}
const BOUNDS = new WeakMap<RiskLimits, Bounds>();
function notionalBounds(limits: RiskLimits): Bounds {
  let b = BOUNDS.get(limits);
  // parsed again if the object's values were replaced since
  if (b === undefined || b.rawMax !== limits.max_order_notional || b.rawMin !== limits.min_order_notional) {
    b = { rawMax: limits.max_order_notional, rawMin: limits.min_order_notional, max: new D(limits.max_order_notional), min: new D(limits.min_order_notional) };
    BOUNDS.set(limits, b);
  }
  return b;
}

export function checkOpenOrders(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  if (f.intent.kind !== 'place-order' || f.intent.type === 'MARKET') return undefined;
  const open = view.openOrderCount();
  if (open >= limits.max_open_orders) return deny('MAX_OPEN_ORDERS', `${open} orders are open (limit ${limits.max_open_orders})`, { open, max_open_orders: limits.max_open_orders });
  return undefined;
}

const ONE_BP = new D('0.0001');

/** A buy needs the quote currency (with the fee), a sell needs the base asset. */
export function checkBalance(f: TradeFacts, view: RiskView, limits: RiskLimits): DenialReason | undefined {
  if (f.side === 'BUY') {
    if (f.notional === undefined) return undefined;
    // × 0.0001 rather than ÷ 10,000: the same exact value, rounded the same way, without a long division
    const fee = f.quoteAmount !== undefined ? ZERO : f.notional.times(decimalOfNumber(limits.fee_bps)).times(ONE_BP);
    const required = f.notional.plus(fee);
    const available = view.available(f.quote);
    if (required.gt(available)) return insufficient(f.quote, required.toFixed(2), available.toFixed());
    return undefined;
  }
  const required = f.baseAmount ?? (f.quoteAmount && f.reference ? f.quoteAmount.div(f.reference) : undefined);
  if (required === undefined) return undefined;
  const available = view.available(f.base);
  if (required.gt(available)) return insufficient(f.base, required.toFixed(), available.toFixed());
  return undefined;
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
  const add = f.baseAmount ?? (f.quoteAmount && f.reference ? f.quoteAmount.div(f.reference) : undefined);
  if (add === undefined) return undefined;
  const after = view.total(f.base).plus(add);
  if (after.gt(cap)) {
    return deny('MAX_POSITION', `holding of ${f.base} would be ${after.toFixed(8)} (limit ${cap})`, { asset: f.base, position_after: after.toFixed(8), max_position: cap });
  }
  return undefined;
}
