import { assetDecimals, decimalPlaces, type DenialReason } from '../../core/index.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';
import type { RiskView } from '../view.js';

/**
 * Precision of amounts and prices: base amounts at most 8 decimals, quote amounts at most 2 (fiat),
 * and limit prices on the market's tick when it is known.
 */
export function checkPrecision(f: TradeFacts, view: RiskView): DenialReason | undefined {
  const i = f.intent;
  const baseDp = assetDecimals(f.base);
  const quoteDp = assetDecimals(f.quote);
  if (i.baseAmount !== undefined && decimalPlaces(i.baseAmount) > baseDp) {
    return deny('PRECISION', `baseAmount ${i.baseAmount} has more than ${baseDp} decimals`, { field: 'baseAmount', value: i.baseAmount, max_decimals: baseDp });
  }
  if (i.quoteAmount !== undefined && decimalPlaces(i.quoteAmount) > quoteDp) {
    return deny('PRECISION', `quoteAmount ${i.quoteAmount} has more than ${quoteDp} decimals`, { field: 'quoteAmount', value: i.quoteAmount, max_decimals: quoteDp });
  }
  const tick = view.tick(f.market);
  if (i.kind === 'place-order' && f.price !== undefined && tick !== undefined && tick.gt(0) && !f.price.mod(tick).isZero()) {
    return deny('PRECISION', `price ${f.price.toFixed()} is not a multiple of the tick ${tick.toFixed()}`, { field: 'price', value: f.price.toFixed(), tick: tick.toFixed() });
  }
  return undefined;
}
