/**
 * The money of the recorded-book venue (venue.ts): the replay's ledger, the funds an
 * order holds while it is open, and its fills: each at a price on a level, as much as the order
 * still wants and the level holds, paying the fee in the quote asset.
 */
import { D, type Dec, splitMarket } from '../../core/index.js';
import { Ledger } from '../../sim/exchange/ledger.js';
import { platformInstrument } from '../../platform/instruments.js';
import type { BookOrder } from './order.js';
import type { Level } from './levels.js';
import { VenueRejectedError, type VenueBalance, type VenueFill } from '../../venue/venue.js';

/** The replay's own profile in its ledger (transfers name it `default`). */
export const OWN = 'recorded-book';

export class RecordedBookFunds {
  readonly ledger = new Ledger();
  /** Every fill so far, oldest first. */
  readonly fills: VenueFill[] = [];
  private readonly feeRate: Dec;

  constructor(funding: Readonly<Record<string, string>>, feeBps: number) {
    this.feeRate = new D(feeBps).div(10_000);
    for (const [asset, amount] of Object.entries(funding)) this.ledger.credit(OWN, asset, new D(amount));
  }

  /** Sets the order's funds aside, or refuses it for insufficient funds. */
  hold(order: BookOrder, reference: Dec | undefined): void {
    const { base, quote } = splitMarket(order.market);
    const asset = order.side === 'BUY' ? quote : base;
    let need: Dec;
    if (order.side === 'SELL') need = order.baseAmount!;
    else if (order.quoteAmount !== undefined) need = order.quoteAmount;
    else need = order.baseAmount!.times(order.price ?? reference ?? 0).times(this.feeRate.plus(1));
    const have = this.ledger.get(OWN, asset).available;
    if (need.gt(have))
      throw new VenueRejectedError(
        'INSUFFICIENT_FUNDS',
        `${order.side} ${order.market} needs ${need.toFixed()} ${asset}, ${have.toFixed()} available`,
        { asset, needed: need.toFixed(), available: have.toFixed() },
      );
    this.move(asset, need.neg(), need);
    order.held = need;
  }

  /** Gives back what a closed order still holds. */
  release(order: BookOrder): void {
    if (!order.held.gt(0)) return;
    const { base, quote } = splitMarket(order.market);
    const asset = order.side === 'BUY' ? quote : base;
    this.move(asset, order.held, order.held.neg());
    order.held = new D(0);
  }

  /** One fill of `order` on `level` at `price`: as much as the order still wants and the level holds. */
  fillAt(order: BookOrder, level: Level, price: Dec, at: number): void {
    const i = platformInstrument(order.market);
    let amount: Dec;
    if (order.quoteAmount !== undefined) {
      // a MARKET buy spends quote: the fee comes out of what it spends
      const spendable = order.quoteAmount.minus(order.notionalFilled).minus(order.fees);
      amount = D.min(level.amount, spendable.div(price.times(this.feeRate.plus(1)))).toDecimalPlaces(i.baseDecimals, D.ROUND_DOWN);
    } else {
      amount = D.min(level.amount, order.baseAmount!.minus(order.amountFilled));
    }
    if (order.quoteAmount !== undefined && amount.lt(level.amount)) order.spent = true;
    if (!amount.gt(0)) return;
    const notional = amount.times(price);
    const fee = notional.times(this.feeRate);
    level.amount = level.amount.minus(amount);
    order.amountFilled = order.amountFilled.plus(amount);
    order.notionalFilled = order.notionalFilled.plus(notional);
    order.fees = order.fees.plus(fee);
    const { base, quote } = splitMarket(order.market);
    if (order.side === 'BUY') {
      const cost = notional.plus(fee);
      const fromHeld = D.min(cost, order.held);
      order.held = order.held.minus(fromHeld);
      this.move(quote, fromHeld.minus(cost), fromHeld.neg());
      this.move(base, amount, new D(0));
    } else {
      order.held = order.held.minus(amount);
      this.move(base, new D(0), amount.neg());
      this.move(quote, notional.minus(fee), new D(0));
    }
    this.fills.push({
      fillId: `${order.id}-f${this.fills.length + 1}`,
      orderId: order.id,
      market: order.market,
      side: order.side,
      amount,
      price,
      commission: fee,
      commissionAsset: quote,
      at,
    });
  }

  balances(): VenueBalance[] {
    return this.ledger
      .list(OWN)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([asset, b]) => ({ asset, available: b.available, trading: b.trading }));
  }

  private move(asset: string, available: Dec, trading: Dec): void {
    this.ledger.apply([{ profileId: OWN, asset, available, trading }]);
  }
}
