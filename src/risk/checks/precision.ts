import { decimalPlaces, type DenialReason } from '../../core/index.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';

/**
 * Precision of a held-rate quote execution: base amounts within the instrument's base decimals (8),
 * quote amounts within its quote decimals (2), trailing zeros aside, as the platform counts them.
 * Orders get the same check, and the tick, from the order rules in `checkOrderShape`.
 */
export function checkPrecision(f: TradeFacts): DenialReason | undefined {
  const i = f.intent;
  if (i.kind !== 'execute-quote') return undefined;
  const { baseDecimals, quoteDecimals } = f.instrument;
  if (i.baseAmount !== undefined && places(i.baseAmount) > baseDecimals) {
    return deny('PRECISION', `baseAmount ${i.baseAmount} has more than ${baseDecimals} decimals: round it down with roundBase`, {
      field: 'baseAmount',
      value: i.baseAmount,
      max_decimals: baseDecimals,
    });
  }
  if (i.quoteAmount !== undefined && places(i.quoteAmount) > quoteDecimals) {
    return deny('PRECISION', `quoteAmount ${i.quoteAmount} has more than ${quoteDecimals} decimals: round it down with roundQuote`, {
      field: 'quoteAmount',
      value: i.quoteAmount,
      max_decimals: quoteDecimals,
    });
  }
  return undefined;
}

function places(value: string): number {
  return value.includes('.') ? decimalPlaces(value.replace(/0+$/, '')) : 0;
}
