import { Rng } from '../../src/core/index.js';

/**
 * Seeded input series shared by the indicator tests, the heap probe and the benchmark, so every
 * comparison runs on data that repeats exactly.
 */

/** A geometric random walk from `start` with per-step volatility `vol` (always positive). */
export function randomWalk(seed: number, length: number, start = 100, vol = 0.01): Float64Array {
  const rng = new Rng(seed);
  const out = new Float64Array(length);
  let p = start;
  for (let i = 0; i < length; i++) {
    p *= Math.exp(vol * rng.normal());
    out[i] = p;
  }
  return out;
}

/** OHLC-style bars around a random walk: high ≥ max(open, close), low ≤ min(open, close). */
export interface Bars {
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
}

export function randomBars(seed: number, length: number, start = 100): Bars {
  const rng = new Rng(seed);
  const close = randomWalk(seed + 1, length, start);
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  let open = start;
  for (let i = 0; i < length; i++) {
    const c = close[i] as number;
    high[i] = Math.max(open, c) * (1 + 0.004 * rng.next());
    low[i] = Math.min(open, c) * (1 - 0.004 * rng.next());
    open = c;
  }
  return { high, low, close };
}

/** `length` copies of `value`. */
export function constant(value: number, length: number): Float64Array {
  return new Float64Array(length).fill(value);
}
