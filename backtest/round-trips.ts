/**
 * Turns a backtest's fills into completed round trips (for metrics and trades.csv) and fee totals.
 * A round trip opens with the first buy from a flat position and closes when the position is flat
 * again; partial buys and sells in between belong to it. Its P&L is cash out minus cash in: quote
 * received from the sells (after their fees) minus quote spent on the buys (fees included), so the
 * fees are inside the P&L and also listed apart. Money stays decimal; only fills cost decimal work.
 */
import { type Dec, ZERO, toWire } from '../src/core/index.js';
import type { PointExecution } from '../src/sim/replay/point-orders.js';
import type { RoundTrip } from './metrics.js';
import type { FillMarker } from './report.js';

/**
 * One side of a round trip (its buys, or its sells): the amount and the volume-weighted price. The
 * usual side is a single fill, whose average price is its price as it is (amount × price / amount);
 * notionals are summed, and divided at the close, only from a second fill on. Exact either way.
 */
class TradeSide {
  amount: Dec = ZERO;
  private fills = 0;
  private price: Dec = ZERO;
  private notional: Dec = ZERO;

  reset(): void {
    this.fills = 0;
    this.amount = this.price = this.notional = ZERO;
  }

  add(amount: Dec, price: Dec): void {
    if (this.fills === 0) {
      this.amount = amount;
      this.price = price;
    } else {
      if (this.fills === 1) this.notional = this.amount.times(this.price);
      this.notional = this.notional.plus(amount.times(price));
      this.amount = this.amount.plus(amount);
    }
    this.fills++;
  }

  /** The volume-weighted price, rounded down to `dp` decimals, as wire text. */
  average(dp: number): string {
    return toWire(this.fills === 1 ? this.price : this.notional.div(this.amount), dp);
  }
}

export class RoundTripTracker {
  readonly trades: RoundTrip[] = [];
  readonly fills: FillMarker[] = [];
  private feesPaid: Dec = ZERO;
  private position: Dec = ZERO;
  private entryAt = 0;
  private spent: Dec = ZERO;
  private received: Dec = ZERO;
  private fees: Dec = ZERO;
  private readonly buys = new TradeSide();
  private readonly sells = new TradeSide();

  /** Records one fill; closes the round trip when the position is flat again. */
  add(x: PointExecution): void {
    this.fills.push({ at: x.at, side: x.side === 'BUY' ? 'buy' : 'sell', price: x.price.toNumber() });
    this.feesPaid = this.feesPaid.plus(x.commission);
    if (x.side === 'BUY') {
      if (this.position.isZero()) this.open(x.at);
      this.position = this.position.plus(x.amount);
      this.spent = this.spent.plus(x.quoteAmount);
      this.buys.add(x.amount, x.price);
      this.fees = this.fees.plus(x.commission);
      return;
    }
    // A sale with no position open (selling an initial holding) is no round trip of the strategy's.
    if (this.position.isZero()) return;
    // the smaller of the two as it is (D.min would copy it)
    const amount = x.amount.gt(this.position) ? this.position : x.amount;
    this.position = this.position.minus(amount);
    this.received = this.received.plus(x.quoteAmount);
    this.sells.add(amount, x.price);
    this.fees = this.fees.plus(x.commission);
    if (this.position.isZero()) this.close(x);
  }

  /** Every fee paid, open position included. */
  get totalFees(): string {
    return toWire(this.feesPaid);
  }

  /** Entry time of a position still open (counts toward exposure), if any. */
  get openSince(): number | undefined {
    return this.position.gt(0) ? this.entryAt : undefined;
  }

  private open(at: number): void {
    this.entryAt = at;
    this.spent = this.received = this.fees = ZERO;
    this.buys.reset();
    this.sells.reset();
  }

  private close(x: PointExecution): void {
    this.trades.push({
      market: x.market,
      side: 'long',
      entryAt: this.entryAt,
      exitAt: x.at,
      quantity: toWire(this.buys.amount),
      entryPrice: this.buys.average(8),
      exitPrice: this.sells.average(8),
      pnl: toWire(this.received.minus(this.spent)),
      fees: toWire(this.fees),
    });
  }
}
