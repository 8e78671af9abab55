/**
 * Shared sizing helpers of the built-in "one position at a time" strategies: buy with a share of
 * the quote currency, sell the whole base holding, and never act while an order is in flight.
 */
import { roundBase, roundQuote, splitMarket, type ExecReport } from '../src/core/index.js';
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
    // on warm-up history nothing is sent: acting would leave `pending` set with no report to clear it
    if (this.pending || ctx.warmingUp || this.held(ctx)) return undefined;
    const spend = roundQuote(ctx.instrument(this.market), ctx.account.available(this.quote).times(this.sizePct).div(100));
    if (!(Number(spend) > 0)) return undefined;
    this.pending = true;
    return { kind: 'place-order', market: this.market, side: 'BUY', type: 'MARKET', quoteAmount: spend };
  }

  /** A MARKET sell of the whole available base holding, or nothing when flat. */
  sell(ctx: StrategyContext): IntentDraft | undefined {
    if (this.pending || ctx.warmingUp) return undefined;
    const amount = roundBase(ctx.instrument(this.market), ctx.account.available(this.base));
    if (!(Number(amount) > 0)) return undefined;
    this.pending = true;
    return { kind: 'place-order', market: this.market, side: 'SELL', type: 'MARKET', baseAmount: amount };
  }

  /** Clears the in-flight flag once the risk gate denied the order or the venue answered. */
  onReport(r: ExecReport): void {
    if (r.kind === 'filled' || r.kind === 'denied' || r.kind === 'rejected' || r.kind === 'failed' || r.kind === 'cancelled' || r.kind === 'quote-executed') this.pending = false;
  }
}
