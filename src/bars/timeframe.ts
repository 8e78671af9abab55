import { InputError } from '../core/index.js';

/** The timeframes a strategy can declare, shortest first, with their length in ms. */
export const TIMEFRAMES = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 } as const;

export type TimeframeName = keyof typeof TIMEFRAMES;

/** A parsed timeframe: its name and length. Bars of it start at UTC epoch multiples of `ms`. */
export interface Timeframe {
  readonly name: TimeframeName;
  readonly ms: number;
}

/** Parses `1m 5m 15m 1h 4h 1d`; anything else is refused naming `field` and the timeframes there are. */
export function parseTimeframe(text: unknown, field = 'timeframe'): Timeframe {
  if (typeof text === 'string' && Object.hasOwn(TIMEFRAMES, text))
    return { name: text as TimeframeName, ms: TIMEFRAMES[text as TimeframeName] };
  throw new InputError(field, `${JSON.stringify(text)} is not a timeframe: use one of ${Object.keys(TIMEFRAMES).join(', ')}`);
}

/** The name of a timeframe of `ms`, or a plain "N ms" for a spacing that is none of them. */
export function timeframeLabel(ms: number): string {
  const named = Object.entries(TIMEFRAMES).find(([, v]) => v === ms);
  return named ? named[0] : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms} ms`;
}

/** Start of the bar of length `ms` that holds `at` (UTC epoch multiples). */
export function barStart(at: number, ms: number): number {
  return Math.floor(at / ms) * ms;
}
