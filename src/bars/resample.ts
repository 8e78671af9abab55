import type { Bar } from './bar.js';
import { BarBuilder } from './bar-builder.js';
import { InputError } from '../core/index.js';
import type { Timeframe } from './timeframe.js';

/**
 * Resamples finer bars (oldest first) to a coarser timeframe: each coarse bar takes the first open,
 * the highest high, the lowest low, the last close and the summed volume of the finer bars that start
 * in it. Gaps stay gaps; a coarse bar only partly covered is made of what there is. Every bar is
 * returned closed (the last one included: the input ended).
 */
export function resample(bars: readonly Bar[], to: Timeframe): Bar[] {
  const first = bars[0];
  if (first === undefined) return [];
  const finer = first.closeTime - first.time;
  if (to.ms < finer || to.ms % finer !== 0)
    throw new InputError(
      'timeframe',
      `${to.name} bars cannot be made of bars ${finer / 60_000} min long: choose a multiple of the finer bars`,
    );
  const builder = new BarBuilder(first.market, to);
  const out: Bar[] = [];
  for (const b of bars) {
    const closed = builder.addBar(b.time, b);
    if (closed) out.push(closed);
  }
  const last = builder.closeDue(Infinity);
  if (last) out.push(last);
  return out;
}
