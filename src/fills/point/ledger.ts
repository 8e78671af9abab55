/**
 * Point replay's ledger: the sim's ledger interface (`../../sim/exchange/ledger.ts`) kept in exact integer
 * units (see `core/units.ts`) instead of decimal.js values. Every intent of a backtest reserves funds
 * and then fills, and each of those moved two or three Decimal balances; here they are bigint sums and
 * comparisons, and a balance becomes a Decimal only when a reader asks for it (the account poll a
 * backtest emits hands the balances out; most of them are replaced before anyone reads them).
 *
 * Each asset has one scale for its balances in every profile: the finest of the amounts it has been
 * given. A finer amount widens the asset's balances first (a multiplication, exact), so no amount is
 * ever rounded; in a backtest the scales settle at the assets' decimals with the first order.
 */
import { type Dec, ZERO } from '../../core/decimal.js';
import { invariant } from '../../core/errors.js';
import { decimalsOf, pow10, unitsOf, unitsToDecimal, unitsToNumber, unitsToString } from '../../core/units.js';
import { SimError } from '../../sim/errors.js';
import type { Balance, BalanceChange, Balances } from '../../sim/exchange/ledger.js';

/** One asset's balance in one profile as read at one moment; its Decimals are made when first read. */
export class PointBalance implements Balance {
  // #private: the units stay out of spreads and JSON (a bigint would break JSON.stringify)
  readonly #available: bigint;
  readonly #trading: bigint;
  readonly #scale: number;
  #availableDec: Dec | undefined;
  #tradingDec: Dec | undefined;

  constructor(
    readonly asset: string,
    available: bigint,
    trading: bigint,
    scale: number,
  ) {
    this.#available = available;
    this.#trading = trading;
    this.#scale = scale;
  }

  get available(): Dec {
    return (this.#availableDec ??= decimalOf(this.#available, this.#scale));
  }

  get trading(): Dec {
    return (this.#tradingDec ??= decimalOf(this.#trading, this.#scale));
  }

  toJSON(): { asset: string; available: Dec; trading: Dec } {
    return { asset: this.asset, available: this.available, trading: this.trading };
  }
}

function decimalOf(units: bigint, scale: number): Dec {
  return units === 0n ? ZERO : unitsToDecimal(units, scale);
}

/** An asset's scale and its balances in every profile (widened together). */
interface AssetBook {
  scale: number;
  readonly slots: Slot[];
}

/** One balance: units at its asset's scale, and the reading handed out since its last change. */
interface Slot {
  readonly profileId: string;
  readonly asset: string;
  readonly book: AssetBook;
  available: bigint;
  trading: bigint;
  read: PointBalance | undefined;
}

export class PointLedger implements Balances {
  private readonly profiles = new Map<string, Map<string, Slot>>();
  private readonly assets = new Map<string, AssetBook>();

  get(profileId: string, asset: string): PointBalance {
    const s = this.profiles.get(profileId)?.get(asset);
    return s === undefined ? new PointBalance(asset, 0n, 0n, 0) : readingOf(s);
  }

  /** Assets the profile has ever held, with their balances, in the order first held. */
  list(profileId: string): Array<readonly [string, Balance]> {
    return this.balances(profileId).map((b) => [b.asset, b] as const);
  }

  /** The balances of every asset the profile has ever held, in the order first held. */
  balances(profileId: string): PointBalance[] {
    const slots = this.profiles.get(profileId);
    const out: PointBalance[] = [];
    if (slots !== undefined) for (const s of slots.values()) out.push(readingOf(s));
    return out;
  }

  /** Available plus trading of `asset` as a number (equity marks). */
  totalNumber(profileId: string, asset: string): number {
    const s = this.profiles.get(profileId)?.get(asset);
    if (s === undefined) return 0;
    const total = s.available + s.trading;
    return total === 0n ? 0 : unitsToNumber(total, s.book.scale);
  }

  /** Applies all changes atomically; a negative result is a broken invariant (callers check funds first). */
  apply(changes: readonly BalanceChange[]): void {
    // widen first, so every leg below is read at its asset's final scale
    for (const c of changes) {
      if (c.available !== undefined) this.fit(c.asset, c.available);
      if (c.trading !== undefined) this.fit(c.asset, c.trading);
    }
    // the new balance of each (profile, asset) touched; a balance first held here is made only once all legs pass
    const touched: Array<{ readonly profileId: string; readonly asset: string; available: bigint; trading: bigint }> = [];
    for (const c of changes) {
      let t = touched.find((x) => x.profileId === c.profileId && x.asset === c.asset);
      if (t === undefined) {
        const s = this.profiles.get(c.profileId)?.get(c.asset);
        touched.push((t = { profileId: c.profileId, asset: c.asset, available: s?.available ?? 0n, trading: s?.trading ?? 0n }));
      }
      const book = this.assets.get(c.asset) as AssetBook;
      if (c.available !== undefined) t.available += this.unitsIn(book, c.available);
      if (c.trading !== undefined) t.trading += this.unitsIn(book, c.trading);
    }
    for (const t of touched) invariant(t.available >= 0n && t.trading >= 0n, `balance of ${t.asset} in ${t.profileId} would go negative`);
    for (const t of touched) set(this.slot(t.profileId, t.asset), t.available, t.trading);
  }

  /** Throws the platform's insufficient-funds refusal unless `needed` is available. */
  require(profileId: string, asset: string, needed: Dec): void {
    const book = this.fit(asset, needed);
    this.requireUnits(profileId, asset, this.unitsIn(book, needed), book.scale);
  }

  /** Moves `amount` from available to trading (an order's reservation). */
  reserve(profileId: string, asset: string, amount: Dec): void {
    const book = this.fit(asset, amount);
    this.reserveUnits(profileId, asset, this.unitsIn(book, amount), book.scale);
  }

  /** Moves `amount` back from trading to available. */
  release(profileId: string, asset: string, amount: Dec): void {
    const book = this.fit(asset, amount);
    this.releaseUnits(profileId, asset, this.unitsIn(book, amount), book.scale);
  }

  /** Credits `amount` to available (deposits). */
  credit(profileId: string, asset: string, amount: Dec): void {
    this.apply([{ profileId, asset, available: amount }]);
  }

  /** `require` for `units` of 10^-`scale`. */
  requireUnits(profileId: string, asset: string, units: bigint, scale: number): void {
    const slot = this.slot(profileId, asset);
    const needed = this.align(slot.book, units, scale);
    if (slot.available >= needed) return;
    const neededText = unitsToString(needed, slot.book.scale);
    const availableText = unitsToString(slot.available, slot.book.scale);
    throw new SimError(
      'insufficient-funds',
      `insufficient ${asset} funds in profile ${profileId}: ${neededText} needed, ${availableText} available`,
      {
        profile_id: profileId,
        asset,
        available: availableText,
        needed: neededText,
      },
    );
  }

  /** `reserve` for `units` of 10^-`scale`. */
  reserveUnits(profileId: string, asset: string, units: bigint, scale: number): void {
    this.requireUnits(profileId, asset, units, scale);
    const slot = this.slot(profileId, asset);
    const amount = this.align(slot.book, units, scale);
    set(slot, slot.available - amount, slot.trading + amount);
  }

  /** `release` for `units` of 10^-`scale`. */
  releaseUnits(profileId: string, asset: string, units: bigint, scale: number): void {
    if (units === 0n) return;
    const slot = this.slot(profileId, asset);
    const amount = this.align(slot.book, units, scale);
    invariant(slot.trading >= amount, `balance of ${asset} in ${profileId} would go negative`);
    set(slot, slot.available + amount, slot.trading - amount);
  }

  /**
   * A fill's moves, all or none: the order's reservation (`reserved` of `paid`) leaves trading, what
   * the fill did not spend of it (`reserved` − `spent`) returns to available, and `got` of `gotAsset`
   * arrives. Amounts are units of 10^-scale at the scales given.
   */
  settleUnits(
    profileId: string,
    paid: string,
    reserved: bigint,
    spent: bigint,
    paidScale: number,
    gotAsset: string,
    got: bigint,
    gotScale: number,
  ): void {
    const from = this.slot(profileId, paid);
    const held = this.align(from.book, reserved, paidScale);
    const used = this.align(from.book, spent, paidScale);
    const available = from.available + held - used;
    const trading = from.trading - held;
    invariant(available >= 0n && trading >= 0n, `balance of ${paid} in ${profileId} would go negative`);
    set(from, available, trading);
    const to = this.slot(profileId, gotAsset);
    const credit = this.align(to.book, got, gotScale); // may widen `to` first: read its balance after
    set(to, to.available + credit, to.trading);
  }

  private slot(profileId: string, asset: string): Slot {
    let slots = this.profiles.get(profileId);
    if (slots === undefined) this.profiles.set(profileId, (slots = new Map()));
    let s = slots.get(asset);
    if (s === undefined) {
      let book = this.assets.get(asset);
      if (book === undefined) this.assets.set(asset, (book = { scale: 0, slots: [] }));
      s = { profileId, asset, book, available: 0n, trading: 0n, read: undefined };
      book.slots.push(s);
      slots.set(asset, s);
    }
    return s;
  }

  /** `units` at `scale` as units of the asset's scale, widening the asset first when they are finer. */
  private align(book: AssetBook, units: bigint, scale: number): bigint {
    if (scale === book.scale) return units;
    if (scale > book.scale) widen(book, scale);
    return units * pow10(book.scale - scale);
  }

  /** The asset's book, widened to hold `value` exactly. */
  private fit(asset: string, value: Dec): AssetBook {
    let book = this.assets.get(asset);
    if (book === undefined) this.assets.set(asset, (book = { scale: 0, slots: [] }));
    const scale = decimalsOf(value.toFixed()) ?? 0;
    if (scale > book.scale) widen(book, scale);
    return book;
  }

  /** `value` in units of the book's scale (it fits: see `fit`). */
  private unitsIn(book: AssetBook, value: Dec): bigint {
    const units = unitsOf(value.toFixed(), book.scale);
    invariant(units !== undefined, `${value.toFixed()} does not fit the ledger's scale ${book.scale}`);
    return units;
  }
}

function readingOf(s: Slot): PointBalance {
  return (s.read ??= new PointBalance(s.asset, s.available, s.trading, s.book.scale));
}

function set(s: Slot, available: bigint, trading: bigint): void {
  s.available = available;
  s.trading = trading;
  s.read = undefined;
}

/** Every balance of the asset at the finer `scale` (the same values). */
function widen(book: AssetBook, scale: number): void {
  const k = pow10(scale - book.scale);
  for (const s of book.slots) set(s, s.available * k, s.trading * k);
  book.scale = scale;
}
