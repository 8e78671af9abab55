import { D, ZERO, splitMarket, type Dec, type Instrument, type Intent, type MarketSymbol } from '../core/index.js';
import {
  EXACT_ZERO,
  compare,
  exactOf,
  exactOfDecimal,
  exactOfNumber,
  isNegative,
  minus,
  plus,
  times,
  toDecimal,
  type Exact,
} from '../core/exact.js';
import type { RiskView } from '../risk/index.js';
import { midOf, type AccountStore, type MarketStore } from '../state/index.js';
import { platformInstrument } from '../platform/instruments.js';
import type { OpenOrderBook } from './open-order-book.js';
import { TransferLimitBook } from './transfer-limits.js';

interface Reservation {
  readonly refId: string;
  readonly asset: string;
  readonly amount: Exact;
  /** Set once the venue holds the funds itself: released when balances newer than this arrive. */
  releasedAfter: number | undefined;
  /** The balances read when it was released (a replay's balances of the same time that came after include it). */
  releasedWith: unknown;
  /** Taken out of the sums (a released one may still sit in `released`, skipped there). */
  dropped: boolean;
}

/**
 * The engine's RiskView: market data from the store, balances from the account store minus what
 * approved-but-unconfirmed intents will take, so two quick intents cannot spend the same money.
 */
export class EngineRiskView implements RiskView {
  private readonly reservations = new Map<string, Reservation>();
  /**
   * The sum of the reservations per asset, kept as they come and go (a balance check reads it, not
   * every reservation), in exact units with decimal.js's results (core/exact.ts).
   */
  private readonly reservedBy = new Map<string, Exact>();
  /**
   * Reservations released by the venue and waiting for balances newer than their release, in the
   * order released (a plain list: one or two at a time is the rule, and it is read on every balance check).
   */
  private readonly released: Reservation[] = [];
  private readonly instruments = new Map<MarketSymbol, Instrument>();
  /** Transfer limits as last read from the venue (List Transfer Limits), less transfers since. */
  readonly transferLimits = new TransferLimitBook();
  private foreignOpenOrders = 0;
  /** What a buy reserves per unit of its value: 1 + the fee (the value of the float-made Decimal it always was). */
  private readonly feeFactor: Exact;

  constructor(
    private readonly clock: { now(): number },
    private readonly market_: MarketStore,
    private readonly account: AccountStore,
    private readonly feeBps: number,
    private readonly openOrders: Pick<OpenOrderBook, 'count'>,
    /**
     * Balances come synchronously after the reports of their time (a backtest's replay source): balances
     * of the very time of a release that arrive after it include it. Live, a response of the same
     * millisecond may have been read before the venue moved the funds, so only later ones count. In a
     * portfolio, a quote execution at one market's point is followed by the next market's balances of
     * the same time: with the live rule its reservation stayed for good (until the account changed again).
     */
    private readonly replay = false,
  ) {
    this.feeFactor = exactOfNumber(1 + feeBps / 10_000)!;
  }

  now(): number {
    return this.clock.now();
  }

  market(symbol: MarketSymbol) {
    return this.market_.snapshot(symbol);
  }

  available(asset: string): Dec {
    if (this.released.length > 0) this.dropReleased(this.account.snapshot.balances?.at ?? Number.NEGATIVE_INFINITY);
    const balance = this.account.available(asset);
    const held = exactOfDecimal(balance);
    // a balance that is not finite (no venue reports one) is what taking anything off it leaves
    if (held === undefined) return balance.isNegative() ? ZERO : balance;
    const free = minus(held, this.reservedBy.get(asset) ?? EXACT_ZERO);
    if (isNegative(free)) return ZERO;
    // nothing taken off (as a backtest's one order at a time mostly finds): the balance itself, no new Decimal
    return compare(free, held) === 0 && !balance.isNegative() ? balance : toDecimal(free);
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
   * been read (or for a market it left out), the platform's instrument table's (src/platform/instruments.ts), so ticks are checked in every mode.
   */
  instrument(symbol: MarketSymbol): Instrument | undefined {
    const listed = this.instruments.get(symbol);
    if (listed !== undefined) return listed;
    try {
      const known = platformInstrument(symbol);
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
    const spend = this.reservationOf(intent);
    if (!spend) return;
    const existing = this.reservations.get(intent.intentId);
    if (existing !== undefined) this.drop(existing);
    const r: Reservation = {
      refId: intent.intentId,
      asset: spend.asset,
      amount: spend.amount,
      releasedAfter: undefined,
      releasedWith: undefined,
      dropped: false,
    };
    this.reservations.set(r.refId, r);
    this.reservedBy.set(r.asset, plus(this.reservedBy.get(r.asset) ?? EXACT_ZERO, r.amount));
  }

  /** Forgets a reservation and takes it out of its asset's sum. */
  private drop(r: Reservation): void {
    this.reservations.delete(r.refId);
    r.dropped = true;
    // a sum back at zero stays (as zero): the asset is reserved again soon, and a map entry deleted and
    // added back for every order costs more than the arithmetic
    this.reservedBy.set(r.asset, minus(this.reservedBy.get(r.asset)!, r.amount));
  }

  /** Drops the released reservations that balances read at `balancesAt` include; keeps the others waiting. */
  private dropReleased(balancesAt: number): void {
    let waiting = 0;
    const current = this.account.snapshot.balances;
    for (const r of this.released) {
      if (r.dropped) continue;
      if (balancesAt > r.releasedAfter! || (this.replay && balancesAt === r.releasedAfter && current !== r.releasedWith)) this.drop(r);
      else this.released[waiting++] = r;
    }
    this.released.length = waiting;
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
    if (immediately) this.drop(r);
    else if (r.releasedAfter === undefined) {
      r.releasedAfter = at;
      r.releasedWith = this.account.snapshot.balances;
      this.released.push(r);
    }
  }

  /** What an approved intent will spend (a buy at its price, or at mid, with the fee); amounts were checked by the gate. */
  private reservationOf(intent: Intent): { readonly asset: string; readonly amount: Exact } | undefined {
    if (intent.kind === 'transfer') return { asset: intent.asset, amount: checked(intent.amount) };
    if (intent.kind !== 'place-order' && intent.kind !== 'execute-quote') return undefined;
    const { base, quote } = splitMarket(intent.market);
    if (intent.side === 'SELL') return intent.baseAmount ? { asset: base, amount: checked(intent.baseAmount) } : undefined;
    if (intent.quoteAmount) return { asset: quote, amount: checked(intent.quoteAmount) };
    if (!intent.baseAmount) return undefined;
    // mid only when the intent names no price (read from the store: the gate read the same snapshot)
    const mid = intent.kind === 'place-order' && intent.price ? undefined : midOf(this.market_.snapshot(intent.market));
    const price =
      intent.kind === 'place-order' && intent.price ? checked(intent.price) : mid !== undefined ? exactOfNumber(mid) : undefined;
    if (!price) return undefined;
    return { asset: quote, amount: times(times(price, checked(intent.baseAmount)), this.feeFactor) };
  }
}

/** An amount of an approved intent: the gate let decimal strings only through. */
function checked(amount: string): Exact {
  return exactOf(amount)!;
}
