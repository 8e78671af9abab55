import { hashLabel, rngFor } from './hash.js';

/**
 * Deterministic identifiers for the sim's records: the n-th id of a stream is a pure function of
 * (instance, seed, stream, n), so a snapshot only needs the counters to keep issuing fresh,
 * never-repeated ids after a restart (a generator's hidden state could not be saved). The instance
 * id (made once per sandbox world, kept in its state) separates two worlds with the same seed: their
 * markets are the same, their order, execution and transfer ids are not. Without one, ids depend
 * on the seed alone (backtests and tests that compare two runs).
 */
export class IdSource {
  private readonly counters = new Map<string, number>();

  constructor(
    readonly seed: number,
    readonly instanceId?: string,
  ) {}

  /** The next UUID of `stream` (e.g. "orders", "transfers"). */
  next(stream: string): string {
    const n = (this.counters.get(stream) ?? 0) + 1;
    this.counters.set(stream, n);
    const label = this.instanceId === undefined ? `${this.seed}:${stream}` : `${this.instanceId}:${this.seed}:${stream}`;
    return rngFor(hashLabel(label), n).uuid();
  }

  /**
   * The base of this world's execution ids (digit strings, uint64 on the wire): 0 without an
   * instance id, else a multiple of 10^9 from 10^9 to about 4.3 × 10^18 fixed by the instance, so
   * two worlds number their executions in disjoint ranges and ids stay ordered within one.
   */
  executionBase(): bigint {
    if (this.instanceId === undefined) return 0n;
    return (BigInt(hashLabel(`${this.instanceId}:executions`)) + 1n) * 1_000_000_000n;
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
