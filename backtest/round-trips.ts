/**
 * Turns a backtest's fills into completed round trips (for metrics and trades.csv) and fee totals.
 * A round trip opens with the first buy from a flat position and closes when the position is flat
 * again; partial buys and sells in between belong to it. Its P&L is cash out minus cash in: quote
 * received from the sells (after their fees) minus quote spent on the buys (fees included), so the
 * fees are inside the P&L and also listed apart. Money stays decimal, in exact units: the fills'
 * `exactAmount` and the like are added up with core/exact.ts, whose sums are decimal.js's to the digit.
 */
import { toWire } from '../src/core/index.js';
import { compare, EXACT_ZERO, minus, plus, times, toDecimal, toText, type Exact } from '../src/core/exact.js';
import { rescale, unitsToString } from '../src/core/units.js';
import type { PointExecution } from '../src/fills/point/orders.js';
import type { RoundTrip } from './metrics.js';
import type { FillMarker } from './money-units.js';

/**
 * One side of a round trip (its buys, or its sells): the amount and the volume-weighted price. The
 * usual side is a single fill, whose average price is its price as it is (amount × price / amount);
 * notionals are summed, and divided at the close, only from a second fill on.
 */
class TradeSide {
  amount: Exact = EXACT_ZERO;
  private fills = 0;
  private price: Exact = EXACT_ZERO;
  private notional: Exact = EXACT_ZERO;

  reset(): void {
    this.fills = 0;
    this.amount = this.price = this.notional = EXACT_ZERO;
  }

  add(amount: Exact, price: Exact): void {
    if (this.fills === 0) {
      this.amount = amount;
      this.price = price;
    } else {
      if (this.fills === 1) this.notional = times(this.amount, this.price);
      this.notional = plus(this.notional, times(amount, price));
      this.amount = plus(this.amount, amount);
    }
    this.fills++;
  }

  /** The volume-weighted price, rounded down to `dp` decimals, as wire text. */
  average(dp: number): string {
    if (this.fills > 1) return toWire(toDecimal(this.notional).div(toDecimal(this.amount)), dp);
    const p = this.price;
    return p.scale <= dp ? toText(p) : unitsToString(rescale(p.units, p.scale, dp, 'down'), dp);
  }
}

/** `total` plus `x` (decimal.js's sum); a sum still zero, as most are at a trip's first fill, is `x` itself. */
function sum(total: Exact, x: Exact): Exact {
  return total.units === 0n ? x : plus(total, x);
}

export class RoundTripTracker {
  readonly trades: RoundTrip[] = [];
  readonly fills: FillMarker[] = [];
  /** Why each round trip's closing sell was made (`exitReasonOf` of its intent), '' where it did not say: one per trade. */
  readonly exitReasons: string[] = [];
  private exitReason = '';
  private feesPaid: Exact = EXACT_ZERO;
  private position: Exact = EXACT_ZERO;
  private entryAt = 0;
  private spent: Exact = EXACT_ZERO;
  private received: Exact = EXACT_ZERO;
  private fees: Exact = EXACT_ZERO;
  private readonly buys = new TradeSide();
  private readonly sells = new TradeSide();

  /** `markers` false: no fill markers are kept (`fills` stays empty), for runs that only want figures. */
  constructor(
    private readonly markers = true,
    /** The exit reason of a sell intent by its ref_id (see ExitReasonKind), when known. */
    private readonly exitReasonOf?: (refId: string) => string | undefined,
  ) {}

  /** Records one fill; closes the round trip when the position is flat again. */
  add(x: PointExecution): void {
    const price = x.exactPrice;
    if (this.markers) this.fills.push({ at: x.at, side: x.side === 'BUY' ? 'buy' : 'sell', price: x.priceNumber });
    this.feesPaid = sum(this.feesPaid, x.exactCommission);
    if (x.side === 'BUY') {
      if (this.position.units === 0n) this.open(x.at);
      this.position = sum(this.position, x.exactAmount);
      this.spent = sum(this.spent, x.exactQuoteAmount);
      this.buys.add(x.exactAmount, price);
      this.fees = sum(this.fees, x.exactCommission);
      return;
    }
    // A sale with no position open (selling an initial holding) is no round trip of the strategy's.
    if (this.position.units === 0n) return;
    // a sale beyond the position closes the position only
    const amount = compare(x.exactAmount, this.position) > 0 ? this.position : x.exactAmount;
    this.position = minus(this.position, amount);
    this.received = sum(this.received, x.exactQuoteAmount);
    this.sells.add(amount, price);
    this.fees = sum(this.fees, x.exactCommission);
    if (this.exitReasonOf) this.exitReason = this.exitReasonOf(x.refId) ?? '';
    if (this.position.units === 0n) this.close(x);
  }

  /** Every fee paid, open position included. */
  get totalFees(): string {
    return toText(this.feesPaid);
  }

  /** Entry time of a position still open (counts toward exposure), if any. */
  get openSince(): number | undefined {
    return this.position.units > 0n ? this.entryAt : undefined;
  }

  private open(at: number): void {
    this.entryAt = at;
    this.spent = this.received = this.fees = EXACT_ZERO;
    this.buys.reset();
    this.sells.reset();
  }

  private close(x: PointExecution): void {
    if (this.exitReasonOf) this.exitReasons.push(this.exitReason);
    this.trades.push({
      market: x.market,
      side: 'long',
      entryAt: this.entryAt,
      exitAt: x.at,
      quantity: toText(this.buys.amount),
      entryPrice: this.buys.average(8),
      exitPrice: this.sells.average(8),
      pnl: toText(minus(this.received, this.spent)),
      fees: toText(this.fees),
    });
  }
}
