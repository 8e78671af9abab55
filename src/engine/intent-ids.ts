import { lastSequence } from '../exec/journal-venue.js';

/**
 * Intent ids, which become wire ref_ids: `<prefix>-<seq>`. The prefix is fixed per journal (so two
 * bots never collide) and the sequence continues from the highest one journaled, so an id is never
 * reused after a restart.
 */
export class IntentIds {
  private seq: number;

  constructor(
    readonly prefix: string,
    lastSeq = 0,
  ) {
    if (!/^[A-Za-z0-9_.:-]{1,40}$/.test(prefix))
      throw new RangeError(`intent id prefix ${JSON.stringify(prefix)}: 1–40 letters, digits or _.:-`);
    this.seq = lastSeq;
  }

  next(): string {
    this.seq += 1;
    return `${this.prefix}-${this.seq}`;
  }

  /** Goes on past `seq` (ids found in use at the venue after start), never back. */
  skipPast(seq: number): void {
    if (seq > this.seq) this.seq = seq;
  }

  get last(): number {
    return this.seq;
  }

  /** Highest sequence number among ids with this prefix (to continue after a restart). */
  static lastOf(prefix: string, ids: Iterable<string>): number {
    return lastSequence(prefix, ids);
  }
}
