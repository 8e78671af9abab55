import { InputError } from '../core/index.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses durations such as "240s", "10m", "1h30m", "500ms" into milliseconds. */
export function parseDuration(text: string, field = '--duration'): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.trim().matchAll(re)) {
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== text.trim().length || total <= 0) {
    throw new InputError(field, `${JSON.stringify(text)} is not a duration: use a number with a unit, e.g. 240s, 10m, 1h30m`);
  }
  return Math.round(total);
}
