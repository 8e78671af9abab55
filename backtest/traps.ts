/**
 * Silent traps made loud: a risk limit that denies more than TRAP_SHARE of a strategy's intents is
 * named at the top of the summary and the report, with the count and the config key to change (a
 * strategy that outgrew `max_order_notional` otherwise just stops trading, flat from there).
 */

/** Denials above this share of a strategy's intents (5 %) make a warning. */
export const TRAP_SHARE = 0.05;

/** The config key behind each denial code a user can change. */
const KEY_OF: Readonly<Record<string, string>> = {
  MAX_NOTIONAL: 'risk.max_order_notional',
  MINIMUM: 'risk.min_order_notional',
  MAX_POSITION: 'risk.max_position',
  MAX_OPEN_ORDERS: 'risk.max_open_orders',
  RATE: 'risk.max_intents_per_minute',
  PRICE_BAND: 'risk.price_band_bps',
  STALE_DATA: 'risk.stale_after_ms',
  MARKET_NOT_ALLOWED: 'risk.allowed_markets',
  OWN_POSITION: 'risk.positions',
  ALLOCATION: 'strategies[].allocation',
  HALTED: 'risk.daily_loss_limit / risk.max_drawdown_pct',
};

/** The warnings for one strategy's decisions: one per limit denying more than TRAP_SHARE of its intents. */
export function trapWarnings(strategy: string, decided: number, denials: Readonly<Record<string, number>>): string[] {
  if (decided === 0) return [];
  return Object.entries(denials)
    .filter(([code, count]) => KEY_OF[code] !== undefined && count / decided > TRAP_SHARE)
    .sort((a, b) => b[1] - a[1])
    .map(
      ([code, count]) =>
        `limit ${code} denied ${count} of ${decided} intents of strategy ${strategy} (${pct(count / decided)}): change ${KEY_OF[code]} in the config if that is not intended`,
    );
}

function pct(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;
}
