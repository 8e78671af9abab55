import type { Intent } from '../core/index.js';

/**
 * Whether an intent can only reduce a position: a sell (order or quote execution) on a spot market,
 * where the balance check makes sure it sells no more than is held. Transfers and buys add exposure.
 *
 * Such an order is never trapped by the limits meant to cap exposure (`max_order_notional`,
 * `max_position`) nor by a tripped kill switch that allows reducing; it still obeys balance,
 * precision, the platform's caps and the rate limit, like any other order.
 */
export function onlyReduces(intent: Intent): boolean {
  return (intent.kind === 'place-order' || intent.kind === 'execute-quote') && intent.side === 'SELL';
}
