/**
 * A seeded random walk of prices for tests: `n` points, each the last moved by exp(vol × (u − 0.5))
 * with u from the project's Rng, rounded to cents.
 */
import { Rng } from '../../src/core/index.js';

export interface WalkOptions {
  /** First price before the first move (default 100). */
  readonly start?: number;
  /** Scale of each step's log move (default 0.02). */
  readonly vol?: number;
  /** Time of the first point, epoch ms (default 2024-01-01). */
  readonly from?: number;
  /** Spacing of the points, ms (default one hour). */
  readonly stepMs?: number;
  /** The series' source name (default "walk"). */
  readonly source?: string;
}

export function randomWalk(
  n: number,
  seed: number,
  o: WalkOptions = {},
): { source: string; length: number; times: Float64Array; prices: Float64Array } {
  const rng = new Rng(seed);
  const times = new Float64Array(n);
  const prices = new Float64Array(n);
  const [vol, from, step] = [o.vol ?? 0.02, o.from ?? Date.UTC(2024, 0, 1), o.stepMs ?? 3_600_000];
  let p = o.start ?? 100;
  for (let i = 0; i < n; i++) {
    p *= Math.exp(vol * (rng.next() - 0.5));
    times[i] = from + i * step;
    prices[i] = Math.round(p * 100) / 100;
  }
  return { source: o.source ?? 'walk', length: n, times, prices };
}
