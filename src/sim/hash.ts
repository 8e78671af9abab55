import { Rng } from '../core/rng.js';

/**
 * Stateless hashing for the synthetic market. The simulated world (prices, books, background
 * trades) is a pure function of (seed, market, time slot), so any instant — including history from
 * before the server started — can be generated on demand, in any order, with no stored state.
 */

/** Mixes a 32-bit integer (murmur3 finaliser). */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hashes a string label to 32 bits (FNV-1a then mixed). */
export function hashLabel(label: string): number {
  let h = 2166136261;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return mix32(h);
}

/** Combines a key with an integer that may exceed 32 bits (time slots since 1970). */
export function hashSlot(key: number, slot: number): number {
  const lo = slot >>> 0;
  const hi = Math.floor(slot / 4294967296) >>> 0;
  return mix32(mix32(key ^ lo) ^ Math.imul(hi + 0x9e3779b9, 0x27d4eb2d));
}

/** A uniform value in [-1, 1) from a hash. */
export function signedUnit(h: number): number {
  return (h / 4294967296) * 2 - 1;
}

/** A seeded generator for one (key, slot): the same arguments always give the same stream. */
export function rngFor(key: number, slot: number): Rng {
  return new Rng(hashSlot(key, slot));
}

/** Draws a Poisson-distributed count (Knuth; fine for the small means used here). */
export function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = rng.next();
  while (p > limit && k < 1000) {
    k++;
    p *= rng.next();
  }
  return k;
}
