import type { BarIndicator, Indicator } from '../indicators/types.js';
import type { Bar } from './bar.js';

/**
 * Feeds one closed bar to an indicator: a range indicator (ATR: `update(high, low, close)`) takes the
 * bar's high, low and close; a price indicator (SMA, RSI, ...) takes its close. The same indicators
 * keep working on points (`update(price)`). The two are told apart by `update`'s parameters: three
 * (high, low, close) for a range indicator of your own too.
 */
export function updateWithBar(indicator: Indicator | BarIndicator, bar: Bar): number | undefined {
  return indicator.update.length >= 3
    ? (indicator as BarIndicator).update(bar.high, bar.low, bar.close)
    : (indicator as Indicator).update(bar.close);
}
