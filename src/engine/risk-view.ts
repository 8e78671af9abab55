import { D, ZERO, splitMarket, type Dec, type Instrument, type Intent, type MarketSymbol } from '../core/index.js';
import type { RiskView } from '../risk/index.js';
import { decimalOf, decimalOfNumber } from '../risk/decimals.js';
import { midOf, type AccountStore, type MarketStore } from '../state/index.js';
import { catalogInstrument } from '../sim/market/catalog.js';
import type { OpenOrderBook } from './open-order-book.js';
import { TransferLimitBook } from './transfer-limits.js';

interface Reservation {
  readonly asset: string;
  readonly amount: Dec;
  /** Set once the venue holds the funds itself: released when balances newer than this arrive. */
  releasedAfter?: number;
}

/**
 * The engine's RiskView: market data from the store, balances from the account store minus what
 * approved-but-unconfirmed intents will take, so two quick intents cannot spend the same money.
 */
export class EngineRiskView implements RiskView {
  private readonly reservations = new Map<string, Reservation>();
  /** The sum of the reservations per asset, kept as they come and go (a balance check reads it, not every reservation). */
  private readonly reservedBy = new Map<string, Dec>();
  /** Reservations released by the venue and waiting for balances newer than their release. */
  private readonly released = new Set<string>();
  private readonly instruments = new Map<MarketSymbol, Instrument>();
  /** Transfer limits as last read from the venue (List Transfer Limits), less transfers since. */
  readonly transferLimits = new TransferLimitBook();
  private foreignOpenOrders = 0;
  /** What a buy reserves per unit of its value: 1 + the fee (the same float-made Decimal as always, made once). */
  private readonly feeFactor: Dec;

  constructor(
    private readonly clock: { now(): number },
    private readonly market_: MarketStore,
    private readonly account: AccountStore,
    private readonly feeBps: number,
    private readonly openOrders: Pick<OpenOrderBook, 'count'>,
  ) {
    this.feeFactor = new D(1 + feeBps / 10_000);
  }

  now(): number {
    return this.clock.now();
  }

  market(symbol: MarketSymbol) {
    return this.market_.snapshot(symbol);
  }

  available(asset: string): Dec {
    const balancesAt = this.account.snapshot.balances?.at ?? Number.NEGATIVE_INFINITY;
    for (const ref of this.released) {
      if (balancesAt > this.reservations.get(ref)!.releasedAfter!) this.drop(ref);
    }
    const reserved = this.reservedBy.get(asset) ?? ZERO;
    const free = this.account.available(asset).minus(reserved);
    return free.isNegative() ? ZERO : free;
  }

  total(asset: string): Dec {
    return this.account.total(asset);
  }

  /** Ours from approval until closed (the open-order book), plus others' the venue last listed open. */
  openOrderCount(): number {
    return this.openOrders.count() + this.foreignOpenOrders;
  }

  /** In `asset`, converted from the limits' asset (USD) at the market's mid; see TransferLimitBook. */
  transferRemaining(asset: string): Dec | undefined {
    return this.transferLimits.remaining(asset, (a, limitAsset) => {
      const mid = midOf(this.market_.snapshot(`${a}${limitAsset}`));
      return mid === undefined ? undefined : new D(mid);
    });
  }

  /**
   * The market's instrument as the venue listed it (see Kernel.startMetadata); before a listing has
   * been read (or for a market it left out), the platform catalog's, so ticks are checked in every mode.
   */
  instrument(symbol: MarketSymbol): Instrument | undefined {
    const listed = this.instruments.get(symbol);
    if (listed !== undefined) return listed;
    try {
      const known = catalogInstrument(symbol);
      this.instruments.set(symbol, known);
      return known;
    } catch {
      return undefined;
    }
  }

  setInstrument(i: Instrument): void {
    this.instruments.set(i.market, i);
  }

  /** Open orders at the venue that are not ours (another client on the profile), as last polled. */
  setForeignOpenOrders(n: number): void {
    this.foreignOpenOrders = n;
  }

  /** Reserves what an approved intent will spend until the venue confirms it. */
  reserve(intent: Intent): void {
    if (intent.kind === 'transfer') this.transferLimits.spend(intent.intentId, intent.asset, new D(intent.amount));
    const r = this.reservationOf(intent);
    if (!r) return;
    if (this.reservations.has(intent.intentId)) this.drop(intent.intentId);
    this.reservations.set(intent.intentId, r);
    this.reservedBy.set(r.asset, (this.reservedBy.get(r.asset) ?? ZERO).plus(r.amount));
  }

  /** Forgets a reservation and takes it out of its asset's sum. */
  private drop(refId: string): void {
    const r = this.reservations.get(refId);
    if (!r) return;
    this.reservations.delete(refId);
    this.released.delete(refId);
    const left = this.reservedBy.get(r.asset)!.minus(r.amount);
    if (left.isZero()) this.reservedBy.delete(r.asset);
    else this.reservedBy.set(r.asset, left);
  }

  /**
   * The venue now holds (or spent, or refused) the funds: drop the reservation once balances catch up.
   * A transfer's spend of the limits is settled too: refused (`immediately`) it moved nothing. The
   * first report counts (the venue has held the funds since): a later fill must not push the release
   * past balances already read, or a backtest, whose balances arrive only when they change, keeps the
   * amount reserved for good.
   */
  release(refId: string, at: number, immediately = false): void {
    this.transferLimits.settled(refId, immediately);
    const r = this.reservations.get(refId);
    if (!r) return;
    if (immediately) this.drop(refId);
    else {
      r.releasedAfter ??= at;
      this.released.add(refId);
    }
  }

  /** What an approved intent will spend (a buy at its price, or at mid, with the fee); amounts were checked by the gate. */
  private reservationOf(intent: Intent): Reservation | undefined {
    if (intent.kind === 'transfer') return { asset: intent.asset, amount: new D(intent.amount) };
    if (intent.kind !== 'place-order' && intent.kind !== 'execute-quote') return undefined;
    const { base, quote } = splitMarket(intent.market);
    if (intent.side === 'SELL') return intent.baseAmount ? { asset: base, amount: decimalOf(intent.baseAmount) } : undefined;
    if (intent.quoteAmount) return { asset: quote, amount: decimalOf(intent.quoteAmount) };
    if (!intent.baseAmount) return undefined;
    // mid only when the intent names no price (read from the store: the gate read the same snapshot)
    const mid = intent.kind === 'place-order' && intent.price ? undefined : midOf(this.market_.snapshot(intent.market));
    const price = intent.kind === 'place-order' && intent.price ? decimalOf(intent.price) : mid !== undefined ? decimalOfNumber(mid) : undefined;
    if (!price) return undefined;
    return { asset: quote, amount: price.times(decimalOf(intent.baseAmount)).times(this.feeFactor) };
  }
}
