import { D, ZERO, assetDecimals, type Dec } from '../core/index.js';

/** One limit as List Transfer Limits reports it: what is left of it, in its limit asset. */
export interface TransferLimitReading {
  readonly limitAsset: string;
  readonly remaining: Dec;
  /** A cap on each transfer (`period_seconds` "0"), which transfers do not use up. */
  readonly perTransaction: boolean;
  /** The limit itself, when the venue says it. */
  readonly limit?: Dec;
  /** Its period in seconds (0 per transaction), when the venue says it. */
  readonly periodSeconds?: number;
}

/** Tightest remaining of one limit asset: of the per-transaction caps, and of the periodic limits. */
interface Tightest {
  perTransaction?: Dec;
  periodic?: Dec;
}

interface Spend {
  readonly asset: string;
  readonly amount: Dec;
  /** Sequence number of the venue's answer to the transfer; unset while it is in flight. */
  doneSeq?: number;
}

/**
 * What internal transfers may still move: the tightest `remaining` of the venue's transfer limits per
 * limit asset (the sandbox and the platform count in USD): of the per-transaction caps as read, and of
 * the periodic limits less the transfers approved since that reading was taken. A transfer that finished before a reading was requested is in that reading, so it
 * stops being subtracted once the reading arrives; one still in flight (or finished while the reading
 * was in flight) keeps being subtracted until the next reading. Never read: `undefined` (no check).
 */
export class TransferLimitBook {
  private tightest = new Map<string, Tightest>();
  private lastReadings: readonly TransferLimitReading[] = [];
  private readonly spends = new Map<string, Spend>();
  private seq = 0;
  private readAt: number | undefined;

  /** True once one reading has arrived. */
  get known(): boolean {
    return this.readAt !== undefined;
  }

  /** When the last reading arrived (clock ms), if any. */
  get lastReadAt(): number | undefined {
    return this.readAt;
  }

  /** Call just before requesting a reading; pass the token to `apply` with its result. */
  beginRead(): number {
    return ++this.seq;
  }

  /** Replaces the limits with a reading requested at `token` (see `beginRead`). */
  apply(limits: readonly TransferLimitReading[], token: number, at: number): void {
    const next = new Map<string, Tightest>();
    for (const l of limits) {
      const t = next.get(l.limitAsset) ?? {};
      const key = l.perTransaction ? 'perTransaction' : 'periodic';
      const seen = t[key];
      if (seen === undefined || l.remaining.lt(seen)) t[key] = l.remaining;
      next.set(l.limitAsset, t);
    }
    this.tightest = next;
    this.lastReadings = limits;
    this.readAt = at;
    for (const [ref, s] of this.spends) if (s.doneSeq !== undefined && s.doneSeq < token) this.spends.delete(ref);
  }

  /** The limits as last read (each with its limit, period and what was left of it then), for people to see. */
  readings(): readonly TransferLimitReading[] {
    return this.lastReadings;
  }

  /** An approved transfer counts against the limits at once, before the venue has seen it. */
  spend(refId: string, asset: string, amount: Dec): void {
    this.spends.set(refId, { asset, amount });
  }

  /** The venue answered the transfer: a refusal moved nothing; otherwise the next reading includes it. */
  settled(refId: string, refused: boolean): void {
    if (refused) this.spends.delete(refId);
    else {
      const s = this.spends.get(refId);
      if (s && s.doneSeq === undefined) s.doneSeq = ++this.seq;
    }
  }

  /**
   * What may still be transferred in `asset`: for each limit asset the least of its per-transaction
   * caps and its periodic limits less the unread spends, converted with `price(asset, limitAsset)` (units of limit asset per unit of asset)
   * and rounded down to the asset's decimals. Undefined when nothing was read, or when the price of
   * `asset` in a limit asset is unknown (the venue's own limit then decides). A spend whose price is
   * unknown is not subtracted.
   */
  remaining(asset: string, price: (asset: string, limitAsset: string) => Dec | undefined): Dec | undefined {
    if (!this.known) return undefined;
    const valueIn = (a: string, amount: Dec, limitAsset: string): Dec | undefined => {
      if (a === limitAsset) return amount;
      const p = price(a, limitAsset);
      return p !== undefined && p.gt(0) ? amount.times(p) : undefined;
    };
    let least: Dec | undefined;
    for (const [limitAsset, read] of this.tightest) {
      let left = read.periodic;
      if (left !== undefined) {
        for (const s of this.spends.values()) left = left.minus(valueIn(s.asset, s.amount, limitAsset) ?? 0);
        if (left.isNegative()) left = ZERO;
      }
      if (read.perTransaction !== undefined && (left === undefined || read.perTransaction.lt(left))) left = read.perTransaction;
      if (left === undefined) continue;
      const unit = valueIn(asset, new D(1), limitAsset);
      if (unit === undefined) return undefined;
      const inAsset = asset === limitAsset ? left : left.div(unit).toDecimalPlaces(assetDecimals(asset), D.ROUND_DOWN);
      if (least === undefined || inAsset.lt(least)) least = inAsset;
    }
    return least;
  }
}
