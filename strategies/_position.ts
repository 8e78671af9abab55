/**
 * Shared sizing helpers of the built-in "one position at a time" strategies: buy with a share of
 * the quote currency, sell the whole base holding, and never act while an order is in flight.
 */
import { D, splitMarket, type ExecReport } from '../src/core/index.js';
import type { IntentDraft, StrategyContext } from '../src/strategy/index.js';

export class SinglePosition {
  readonly base: string;
  readonly quote: string;
  private pending = false;

  constructor(
    readonly market: string,
    private readonly sizePct: number,
  ) {
    ({ base: this.base, quote: this.quote } = splitMarket(market));
  }

  get busy(): boolean {
    return this.pending;
  }

  held(ctx: StrategyContext): boolean {
    return ctx.account.total(this.base).gt(0);
  }

  /** A MARKET buy spending `size_pct` of the available quote currency, or nothing if flat broke. */
  buy(ctx: StrategyContext): IntentDraft | undefined {
    if (this.pending || this.held(ctx)) return undefined;
    const spend = ctx.account.available(this.quote).times(this.sizePct).div(100).toDecimalPlaces(2, D.ROUND_DOWN);
    if (spend.lte(0)) return undefined;
    this.pending = true;
    return { kind: 'place-order', market: this.market, side: 'BUY', type: 'MARKET', quoteAmount: spend.toFixed(2) };
  }

  /** A MARKET sell of the whole available base holding, or nothing when flat. */
  sell(ctx: StrategyContext): IntentDraft | undefined {
    if (this.pending) return undefined;
    const amount = ctx.account.available(this.base).toDecimalPlaces(8, D.ROUND_DOWN);
    if (amount.lte(0)) return undefined;
    this.pending = true;
    return { kind: 'place-order', market: this.market, side: 'SELL', type: 'MARKET', baseAmount: amount.toFixed() };
  }

  /** Clears the in-flight flag once the venue has answered. */
  onReport(r: ExecReport): void {
    if (r.kind === 'filled' || r.kind === 'rejected' || r.kind === 'failed' || r.kind === 'cancelled' || r.kind === 'quote-executed') this.pending = false;
  }
}
