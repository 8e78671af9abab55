import type { Dec, DenialReason } from '../../core/index.js';
import { toDecimal } from '../../core/exact.js';
import { deny } from '../denial.js';
import type { TradeFacts } from '../facts.js';

/** Capital per strategy, as the gate reads it (see engine/allocations.ts). */
export interface AllocationView {
  /** The strategy's allocation of `asset` and what it uses now (its positions' cost and open buys); undefined without one. */
  of(strategy: string, asset: string): { readonly limit: Dec; readonly used: Dec; readonly text: string } | undefined;
}

/** A buy may not take the strategy past its `strategies[].allocation` of the quote asset: one strategy never spends another's budget. */
export function checkAllocation(f: TradeFacts, allocations: AllocationView | undefined): DenialReason | undefined {
  if (f.side !== 'BUY' || allocations === undefined) return undefined;
  const a = allocations.of(f.intent.strategy, f.quote);
  const notional = f.notional;
  if (a === undefined || notional === undefined) return undefined;
  const spend = toDecimal(notional);
  if (!a.used.plus(spend).gt(a.limit)) return undefined;
  const strategy = f.intent.strategy;
  return deny(
    'ALLOCATION',
    `strategy ${strategy} would have ${a.used.plus(spend).toFixed(2)} ${f.quote} in its positions and open buys, beyond its allocation of ${a.limit.toFixed(2)} ${f.quote} (strategies[].allocation: ${a.text})`,
    {
      strategy,
      asset: f.quote,
      allocation: a.limit.toFixed(),
      used: a.used.toFixed(),
      required: spend.toFixed(),
    },
  );
}
