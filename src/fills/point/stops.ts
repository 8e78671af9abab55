/**
 * Stop orders in point replay (`market.ts`). On the platform STOP_MARKET and STOP_LIMIT are
 * sell-only stop losses that wait untriggered until the market falls to `stop_price` (the trigger is
 * src/platform/order-life.ts's `stopFires`); point replay
 * knows one price per point, so a stop waits (its base reserved like any sell) and fires at the first
 * point after the one it was placed at whose price is at or below `stop_price`. From that point on it
 * is the order it turns into: a STOP_MARKET sells like a MARKET sell at that point's price, a
 * STOP_LIMIT is a limit sell at `price` (filled there if marketable, else resting).
 */
import { byNumber, stopFires } from '../../platform/order-life.js';

/**
 * The untriggered stop orders of one replay, by order id. A stop leaves the book when it fires or
 * closes (cancel, GTT expiry), so an empty book costs the per-point path one size check.
 */
export class PointStops {
  private readonly waiting = new Map<string, number>();

  /** How many stops wait for their trigger. */
  get size(): number {
    return this.waiting.size;
  }

  /** Records a just-placed stop; `stopPrice` was checked by the order rules. */
  add(orderId: string, stopPrice: number): void {
    this.waiting.set(orderId, stopPrice);
  }

  /** True while the order waits for its trigger. */
  waits(orderId: string): boolean {
    return this.waiting.has(orderId);
  }

  /** Whether the waiting stop `orderId` fires at `price` (the platform's stop trigger); a fired stop leaves the book. */
  fires(orderId: string, price: number): boolean {
    const stop = this.waiting.get(orderId);
    if (stop === undefined || !stopFires(price, stop, byNumber)) return false;
    this.waiting.delete(orderId);
    return true;
  }

  /** The stop price of a waiting stop (undefined once it fired or closed). */
  stopOf(orderId: string): number | undefined {
    return this.waiting.get(orderId);
  }

  /** Forgets a stop that closed before it fired (or fired inside a bar: `bar-range.ts`). */
  remove(orderId: string): void {
    this.waiting.delete(orderId);
  }
}
