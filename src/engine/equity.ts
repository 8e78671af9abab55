import { ZERO, type Dec } from '../core/index.js';
import { midOf, type AccountStore, type MarketStore } from '../state/index.js';

/** Holdings marked at mid in `quote`; undefined before balances, or when a held asset has no price. */
export function equityOf(account: AccountStore, market: MarketStore, quote: string): Dec | undefined {
  const balances = account.snapshot.balances?.value;
  if (!balances) return undefined;
  let total = ZERO;
  for (const b of balances.values()) {
    const amount = b.available.plus(b.trading);
    if (amount.isZero()) continue;
    if (b.asset === quote) total = total.plus(amount);
    else {
      const mid = midOf(market.snapshot(`${b.asset}${quote}`));
      if (mid === undefined) return undefined;
      total = total.plus(amount.times(mid));
    }
  }
  return total;
}
