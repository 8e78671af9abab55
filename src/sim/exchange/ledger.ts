import { D, type Dec, ZERO } from '../../core/decimal.js';
import { invariant } from '../../core/errors.js';
import { SimError } from '../errors.js';

/** One asset's balance in one profile: `available` for new debits, `trading` locked by open orders. */
export interface Balance {
  readonly available: Dec;
  readonly trading: Dec;
}

/** A signed change to one balance; a fill or reservation is a list of these applied together. */
export interface BalanceChange {
  readonly profileId: string;
  readonly asset: string;
  readonly available?: Dec;
  readonly trading?: Dec;
}

/**
 * What a simulated venue's accounts ask of a ledger. The sandbox keeps the Ledger below; point replay
 * keeps its own in exact integer units (`../../fills/point/ledger.ts`), whose balances are the same.
 * Why two implementations: docs/backtest.md, "Two ledgers, on purpose".
 */
export interface Balances {
  get(profileId: string, asset: string): Balance;
  list(profileId: string): Array<readonly [string, Balance]>;
  apply(changes: readonly BalanceChange[]): void;
  require(profileId: string, asset: string, needed: Dec): void;
  reserve(profileId: string, asset: string, amount: Dec): void;
  release(profileId: string, asset: string, amount: Dec): void;
  credit(profileId: string, asset: string, amount: Dec): void;
}

/**
 * Balances per profile and asset. Every movement goes through `apply`, which checks that no
 * balance would go negative before touching any of them, so a fill moves all its legs or none.
 */
export class Ledger implements Balances {
  private readonly books = new Map<string, Map<string, { available: Dec; trading: Dec }>>();

  get(profileId: string, asset: string): Balance {
    const b = this.books.get(profileId)?.get(asset);
    return b === undefined ? { available: ZERO, trading: ZERO } : { available: b.available, trading: b.trading };
  }

  /** Assets the profile has ever held, with their balances. */
  list(profileId: string): Array<readonly [string, Balance]> {
    return [...(this.books.get(profileId)?.entries() ?? [])].map(([asset, b]) => [asset, { ...b }] as const);
  }

  /** True when every balance of the profile is zero. */
  isEmpty(profileId: string): boolean {
    return this.list(profileId).every(([, b]) => b.available.isZero() && b.trading.isZero());
  }

  /** Every balance as [profile, asset, available, trading] rows (snapshots). */
  saved(): Array<[string, string, string, string]> {
    const rows: Array<[string, string, string, string]> = [];
    for (const [profileId, assets] of this.books)
      for (const [asset, b] of assets) rows.push([profileId, asset, b.available.toFixed(), b.trading.toFixed()]);
    return rows;
  }

  /** Replaces every balance with a snapshot's rows. */
  restore(rows: ReadonlyArray<readonly [string, string, string, string]>): void {
    this.books.clear();
    for (const [profileId, asset, available, trading] of rows) {
      let assets = this.books.get(profileId);
      if (assets === undefined) this.books.set(profileId, (assets = new Map()));
      assets.set(asset, { available: new D(available), trading: new D(trading) });
    }
  }

  /** Applies all changes atomically; a negative result is a broken invariant (callers check funds first). */
  apply(changes: readonly BalanceChange[]): void {
    // the new balance of each (profile, asset) touched, in order of first touch: a fill touches two
    // or three, so a list search beats a map keyed by strings, and an absent side adds nothing
    const touched: Array<{ readonly profileId: string; readonly asset: string; available: Dec; trading: Dec }> = [];
    for (const c of changes) {
      let t = touched.find((x) => x.profileId === c.profileId && x.asset === c.asset);
      if (t === undefined) {
        const b = this.books.get(c.profileId)?.get(c.asset);
        t = { profileId: c.profileId, asset: c.asset, available: b?.available ?? ZERO, trading: b?.trading ?? ZERO };
        touched.push(t);
      }
      if (c.available !== undefined) t.available = t.available.plus(c.available);
      if (c.trading !== undefined) t.trading = t.trading.plus(c.trading);
    }
    for (const n of touched) {
      invariant(!n.available.isNegative() && !n.trading.isNegative(), `balance of ${n.asset} in ${n.profileId} would go negative`);
    }
    for (const n of touched) {
      let assets = this.books.get(n.profileId);
      if (assets === undefined) this.books.set(n.profileId, (assets = new Map()));
      const b = assets.get(n.asset);
      // balances are handed out as copies (get, list), so the book's own record is updated in place
      if (b === undefined) assets.set(n.asset, { available: n.available, trading: n.trading });
      else {
        b.available = n.available;
        b.trading = n.trading;
      }
    }
  }

  /** Throws the platform's insufficient-funds refusal unless `needed` is available. */
  require(profileId: string, asset: string, needed: Dec): void {
    const { available } = this.get(profileId, asset);
    if (available.lt(needed)) {
      throw new SimError(
        'insufficient-funds',
        `insufficient ${asset} funds in profile ${profileId}: ${needed.toFixed()} needed, ${available.toFixed()} available`,
        {
          profile_id: profileId,
          asset,
          available: available.toFixed(),
          needed: needed.toFixed(),
        },
      );
    }
  }

  /** Moves `amount` from available to trading (an order's reservation). */
  reserve(profileId: string, asset: string, amount: Dec): void {
    this.require(profileId, asset, amount);
    this.apply([{ profileId, asset, available: amount.neg(), trading: amount }]);
  }

  /** Moves `amount` back from trading to available. */
  release(profileId: string, asset: string, amount: Dec): void {
    if (amount.isZero()) return;
    this.apply([{ profileId, asset, available: amount, trading: amount.neg() }]);
  }

  /** Credits `amount` to available (deposits). */
  credit(profileId: string, asset: string, amount: Dec): void {
    this.apply([{ profileId, asset, available: new D(amount) }]);
  }
}
