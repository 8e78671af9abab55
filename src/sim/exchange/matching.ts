import { D, type Dec, ZERO } from '../../core/decimal.js';
import { type LiveLevel, type MarketState } from './market-state.js';
import { takerBandRefusal } from '../../platform/order-rules.js';
import {
  byDecimal,
  byNumber,
  crosses,
  fokCovered,
  gttExpired,
  gttTooSoon,
  isStopType,
  postOnlyRefusal,
  stopFires,
  takesOnly,
} from '../../platform/order-life.js';
import { type SimOrder, isClosed } from './order-types.js';
import { type Settlement } from './settlement.js';
import { type TradingRules } from './trading.js';

/**
 * The matching engine, price-time priority. Bot orders take synthetic liquidity level by level
 * (taker phase); resting bot orders are makers that fill when the simulated market trades through
 * or crosses their price at a tick. All sandbox profiles belong to one customer, so a bot order
 * that would match another resting bot order cancels the older one (the platform's self-match rule).
 */
export class MatchingEngine {
  constructor(
    private readonly settlement: Settlement,
    private readonly rules: TradingRules,
  ) {}

  /**
   * Enters an accepted order at `at` (its creation, or later with an order-entry delay): a stop waits
   * OPEN for its trigger, any other order runs its taker phase. A GTT order whose expiry passed while
   * it waited for entry is cancelled as expired.
   */
  enter(order: SimOrder, market: MarketState, tick: number, at: number): void {
    if (gttExpired(order.expiresAt, at) && !gttTooSoon(order.expiresAt, order.createdAt, this.rules.minGttMs)) {
      this.settlement.close(order, 'CANCELLED', at, market, 'GTT expired before the order was entered');
      return;
    }
    if (isStopType(order.type)) {
      order.status = 'OPEN';
      order.modifiedAt = at;
      market.stops.push(order);
      this.settlement.touched(order);
      return;
    }
    this.execute(order, market, tick, at);
  }

  /** Runs the taker phase of a just-entered (or just-triggered) order, then rests or closes it. */
  execute(order: SimOrder, market: MarketState, tick: number, at: number): void {
    const levels = market.liveLevels(order.side === 'BUY' ? 'asks' : 'bids', tick);
    const limit = this.limitOf(order);
    const crossable = (p: Dec): boolean => limit === undefined || crosses(order.side, p, limit, byDecimal);
    const takes = levels[0] !== undefined && crossable(levels[0].price);
    const refusal = this.refusal(order, market, tick, takes, levels, crossable);
    if (refusal !== undefined) {
      this.settlement.close(order, refusal.status, at, market, refusal.reason);
      return;
    }
    this.cancelSelfMatches(order, market, levels[0], crossable, at);
    const exhausted = this.take(order, market, levels, crossable, tick, at);
    if (isClosed(order.status)) return;
    if (takesOnly(order.type, order.timeInForce)) {
      const done = order.side === 'BUY' && order.type === 'MARKET' && exhausted;
      this.settlement.close(
        order,
        done ? 'FILLED' : 'CANCELLED',
        at,
        market,
        done ? undefined : 'unfilled remainder of an immediate order',
      );
      return;
    }
    order.status = 'OPEN';
    order.modifiedAt = at;
    market.rest(order);
    this.settlement.touched(order);
  }

  /** Per-tick work of a market with resting orders: crossings, then the background tape. */
  onTick(market: MarketState, tick: number, tickAt: number): void {
    this.crossResting(market, 'bids', tick, tickAt);
    this.crossResting(market, 'asks', tick, tickAt);
    for (const trade of market.synthetic.trades(tick)) {
      const list = trade.side === 'SELL' ? market.bids : market.asks;
      let left = new D(trade.amount.toFixed(8));
      for (const order of [...list]) {
        const atOrBetter = trade.side === 'SELL' ? order.price!.gte(trade.priceText) : order.price!.lte(trade.priceText);
        if (!atOrBetter || left.lte(0)) break;
        const qty = D.min(left, this.remaining(order));
        left = left.minus(qty);
        market.absorb(trade);
        this.settlement.fill(order, qty, order.price!, 'MAKER', trade.at, market);
      }
    }
  }

  /** Resting orders the synthetic book has moved through fill as makers at their own price. */
  private crossResting(market: MarketState, side: 'bids' | 'asks', tick: number, tickAt: number): void {
    const opposite = side === 'bids' ? 'asks' : 'bids';
    const levels = market.liveLevels(opposite, tick);
    const taken = new Map<LiveLevel, Dec>();
    for (const order of [...market[side]]) {
      for (const level of levels) {
        const through = crosses(order.side, level.price, order.price!, byDecimal);
        if (!through || isClosed(order.status)) break;
        const qty = D.min(level.amount.minus(taken.get(level) ?? ZERO), this.remaining(order));
        if (qty.lte(0)) continue;
        taken.set(level, (taken.get(level) ?? ZERO).plus(qty));
        market.consume(opposite, level.priceText, qty, tick);
        this.settlement.fill(order, qty, order.price!, 'MAKER', tickAt, market);
      }
    }
  }

  /** Fires stop orders whose trigger the mid has reached (the platform's stop trigger: mid ≤ stop_price). */
  triggerStops(market: MarketState, tick: number, tickAt: number): void {
    const mid = market.synthetic.book(tick).mid;
    for (const order of [...market.stops]) {
      if (!stopFires(mid, order.stopPrice!.toNumber(), byNumber)) continue;
      market.remove(order);
      order.isTriggered = true;
      order.modifiedAt = tickAt;
      this.execute(order, market, tick, tickAt);
    }
  }

  private refusal(
    order: SimOrder,
    market: MarketState,
    tick: number,
    takes: boolean,
    levels: readonly LiveLevel[],
    crossable: (p: Dec) => boolean,
  ): { status: 'REJECTED' | 'CANCELLED'; reason: string } | undefined {
    if (!order.isTriggered && gttTooSoon(order.expiresAt, order.createdAt, this.rules.minGttMs))
      return { status: 'REJECTED', reason: 'GTT expiration_date must be more than 10 s after placement' };
    const postOnly = postOnlyRefusal(order.type, takes);
    if (postOnly !== undefined) return { status: 'REJECTED', reason: postOnly };
    if (order.type === 'LIMIT' && takes && !order.isTriggered) {
      const mid = new D(market.synthetic.book(tick).mid.toFixed(8));
      const band = takerBandRefusal(order.price!, mid, this.rules.priceBand);
      if (band !== undefined) return { status: 'REJECTED', reason: band };
    }
    if (
      order.timeInForce === 'FOK' &&
      !fokCovered(
        order.baseAmount!,
        levels.filter((l) => crossable(l.price)),
      )
    )
      return { status: 'CANCELLED', reason: 'fill-or-kill order could not fill completely' };
    return undefined;
  }

  /** Takes liquidity; returns true when a budget-sized market buy ran out of budget. */
  private take(
    order: SimOrder,
    market: MarketState,
    levels: readonly LiveLevel[],
    crossable: (p: Dec) => boolean,
    tick: number,
    at: number,
  ): boolean {
    const side = order.side === 'BUY' ? 'asks' : 'bids';
    for (const level of levels) {
      if (!crossable(level.price) || isClosed(order.status)) break;
      const want = this.remainingAt(order, level.price);
      const qty = D.min(want, level.amount);
      if (qty.lte(0)) return true;
      market.consume(side, level.priceText, qty, tick);
      this.settlement.fill(order, qty, level.price, 'TAKER', at, market);
    }
    return order.side === 'BUY' && order.type === 'MARKET' && this.remainingAt(order, levels[levels.length - 1]?.price ?? ZERO).lte(0);
  }

  private cancelSelfMatches(
    order: SimOrder,
    market: MarketState,
    best: LiveLevel | undefined,
    crossable: (p: Dec) => boolean,
    at: number,
  ): void {
    const opposite = order.side === 'BUY' ? market.asks : market.bids;
    for (const resting of [...opposite]) {
      const reachable =
        this.limitOf(order) !== undefined
          ? crossable(resting.price!)
          : best === undefined || (order.side === 'BUY' ? resting.price!.lte(best.price) : resting.price!.gte(best.price));
      if (reachable) this.settlement.close(resting, 'CANCELLED', at, market, 'self-match: an opposite order of the same customer arrived');
    }
  }

  private limitOf(order: SimOrder): Dec | undefined {
    return order.type === 'MARKET' || order.type === 'STOP_MARKET' ? undefined : order.price;
  }

  private remaining(order: SimOrder): Dec {
    return order.baseAmount!.minus(order.amountFilled);
  }

  /** Base quantity still wanted at `price` (budget-limited for market buys). */
  private remainingAt(order: SimOrder, price: Dec): Dec {
    if (order.side === 'BUY' && order.type === 'MARKET') {
      if (price.lte(0)) return ZERO;
      return order.reserved.div(price.times(this.settlement.fees.takerRate.plus(1))).toDecimalPlaces(8, D.ROUND_DOWN);
    }
    return this.remaining(order);
  }
}
