import { hashLabel, rngFor } from './hash.js';

/**
 * Deterministic identifiers for the sim's records: the n-th id of a stream is a pure function of
 * (seed, stream, n), so a snapshot only needs the counters to keep issuing fresh, never-repeated
 * ids after a restart (a generator's hidden state could not be saved).
 */
export class IdSource {
  private readonly counters = new Map<string, number>();

  constructor(readonly seed: number) {}

  /** The next UUID of `stream` (e.g. "orders", "transfers"). */
  next(stream: string): string {
    const n = (this.counters.get(stream) ?? 0) + 1;
    this.counters.set(stream, n);
    return this.derived(stream, n);
  }

  /** A UUID fixed by (seed, stream, key), independent of the counters (static records). */
  derived(stream: string, key: number): string {
    return rngFor(hashLabel(`${this.seed}:${stream}`), key).uuid();
  }

  /** The next `bytes` random bytes of `stream` as lower-case hex (addresses, transaction hashes). */
  hex(stream: string, bytes: number): string {
    let out = '';
    while (out.length < bytes * 2) out += this.next(stream).replace(/-/g, '');
    return out.slice(0, bytes * 2);
  }

  /** The counters, for a snapshot. */
  save(): Record<string, number> {
    return Object.fromEntries(this.counters);
  }

  restore(counters: Readonly<Record<string, number>>): void {
    this.counters.clear();
    for (const [k, v] of Object.entries(counters)) this.counters.set(k, v);
  }
}
