/**
 * Turns a backtest's fills into completed round trips (for metrics and trades.csv) and fee totals.
 * A round trip opens with the first buy from a flat position and closes when the position is flat
 * again; partial buys and sells in between belong to it. Its P&L is cash out minus cash in: quote
 * received from the sells (after their fees) minus quote spent on the buys (fees included), so the
 * fees are inside the P&L and also listed apart. Money stays decimal; only fills cost decimal work.
 */
import { D, type Dec, ZERO, toWire } from '../src/core/index.js';
import type { PointExecution } from '../src/sim/replay/point-orders.js';
import type { RoundTrip } from './metrics.js';
import type { FillMarker } from './report.js';

export class RoundTripTracker {
  readonly trades: RoundTrip[] = [];
  readonly fills: FillMarker[] = [];
  private feesPaid: Dec = ZERO;
  private position: Dec = ZERO;
  private entryAt = 0;
  private spent: Dec = ZERO;
  private received: Dec = ZERO;
  private fees: Dec = ZERO;
  private bought: Dec = ZERO;
  private sold: Dec = ZERO;
  private buyNotional: Dec = ZERO;
  private sellNotional: Dec = ZERO;

  /** Records one fill; closes the round trip when the position is flat again. */
  add(x: PointExecution): void {
    this.fills.push({ at: x.at, side: x.side === 'BUY' ? 'buy' : 'sell', price: x.price.toNumber() });
    this.feesPaid = this.feesPaid.plus(x.commission);
    if (x.side === 'BUY') {
      if (this.position.isZero()) this.open(x.at);
      this.position = this.position.plus(x.amount);
      this.spent = this.spent.plus(x.quoteAmount);
      this.bought = this.bought.plus(x.amount);
      this.buyNotional = this.buyNotional.plus(x.amount.times(x.price));
      this.fees = this.fees.plus(x.commission);
      return;
    }
    // A sale with no position open (selling an initial holding) is no round trip of the strategy's.
    if (this.position.isZero()) return;
    const amount = D.min(x.amount, this.position);
    this.position = this.position.minus(amount);
    this.received = this.received.plus(x.quoteAmount);
    this.sold = this.sold.plus(amount);
    this.sellNotional = this.sellNotional.plus(amount.times(x.price));
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
    this.spent = this.received = this.fees = this.bought = this.sold = this.buyNotional = this.sellNotional = ZERO;
  }

  private close(x: PointExecution): void {
    this.trades.push({
      market: x.market,
      side: 'long',
      entryAt: this.entryAt,
      exitAt: x.at,
      quantity: toWire(this.bought),
      entryPrice: toWire(this.buyNotional.div(this.bought), 8),
      exitPrice: toWire(this.sellNotional.div(this.sold), 8),
      pnl: toWire(this.received.minus(this.spent)),
      fees: toWire(this.fees),
    });
  }
}
