import { D, ZERO, splitMarket, type Dec, type Decision, type ExecReport } from '../core/index.js';
import { midOf, type MarketStore } from '../state/index.js';

/** A strategy's allocation as the config gives it: an amount of the quote asset ("5000") or a share of its balance at start ("25%"). */
export type AllocationText = string;

/** What a buy still open may spend, by its ref_id. */
interface Spend {
  readonly key: string;
  remaining: Dec;
}

const keyOf = (strategy: string, asset: string): string => `${strategy}\u0000${asset}`;

/**
 * Capital per strategy (`strategies[].allocation`): how much of a quote asset a strategy may have in
 * its positions (their cost basis) and in its open buys. A share is of the asset's balance as the
 * first balances after start read it. The gate denies a buy beyond it (ALLOCATION).
 */
export class Allocations {
  private readonly spends = new Map<string, Spend>();
  private readonly openBy = new Map<string, Dec>();
  private readonly startTotals = new Map<string, Dec>();
  private started = false;

  constructor(
    private readonly limits: ReadonlyMap<string, AllocationText>,
    private readonly deps: {
      readonly costOf: (strategy: string, quote: string) => Dec;
      readonly total: (asset: string) => Dec;
      readonly market: Pick<MarketStore, 'snapshot'>;
    },
  ) {}

  /** The first balances after start fix what a share is of. */
  onBalances(assets: Iterable<string>): void {
    if (this.started) return;
    this.started = true;
    for (const a of assets) this.startTotals.set(a, this.deps.total(a));
  }

  /** The strategy's allocation of `asset` and what it uses of it now; undefined when it has none. */
  of(strategy: string, asset: string): { readonly limit: Dec; readonly used: Dec; readonly text: string } | undefined {
    const text = this.limits.get(strategy);
    if (text === undefined) return undefined;
    const limit = text.endsWith('%') ? (this.startTotals.get(asset) ?? ZERO).times(new D(text.slice(0, -1))).div(100) : new D(text);
    return { limit, used: this.deps.costOf(strategy, asset).plus(this.openBy.get(keyOf(strategy, asset)) ?? ZERO), text };
  }

  /** An approved buy of a strategy with an allocation holds what it may spend until it fills or closes. */
  onDecision(d: Decision): void {
    const i = d.intent;
    if (
      d.kind !== 'approve' ||
      (i.kind !== 'place-order' && i.kind !== 'execute-quote') ||
      i.side !== 'BUY' ||
      !this.limits.has(i.strategy)
    )
      return;
    const price = i.kind === 'place-order' ? i.price : i.limitPrice;
    const mid = midOf(this.deps.market.snapshot(i.market));
    const spend =
      i.quoteAmount !== undefined
        ? new D(i.quoteAmount)
        : price !== undefined
          ? new D(price).times(i.baseAmount!)
          : mid !== undefined
            ? new D(mid).times(i.baseAmount!)
            : undefined;
    if (spend === undefined) return;
    const key = keyOf(i.strategy, splitMarket(i.market).quote);
    this.spends.set(i.intentId, { key, remaining: spend });
    this.openBy.set(key, (this.openBy.get(key) ?? ZERO).plus(spend));
  }

  /** A buy's fills move its spend into the position's cost; a closed order frees the rest. */
  onReport(r: ExecReport): void {
    const s = this.spends.get(r.refId);
    if (s === undefined) return;
    let take: Dec | undefined;
    if (r.kind === 'filled') take = r.orderDone === true ? s.remaining : D.min(s.remaining, new D(r.amount).times(r.price));
    else if (r.kind === 'quote-executed' || r.kind === 'cancelled' || r.kind === 'rejected' || r.kind === 'failed' || r.kind === 'denied')
      take = s.remaining;
    if (take === undefined) return;
    s.remaining = s.remaining.minus(take);
    this.openBy.set(s.key, (this.openBy.get(s.key) ?? ZERO).minus(take));
    if (!s.remaining.gt(0)) this.spends.delete(r.refId);
  }
}
