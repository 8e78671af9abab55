import { D, type Dec } from '../core/index.js';
import type { RiskLimits } from './limits.js';

const DAY_MS = 86_400_000;

/**
 * Daily-loss and drawdown kill switch. Fed with marked equity; once tripped it stays tripped until
 * `reset`, and the engine cancels open orders and halts new intents.
 */
export class KillSwitch {
  private dayStart = Number.NaN;
  private dayOpenEquity: Dec | undefined;
  private peak: Dec | undefined;
  private reason: string | undefined;
  private reducing = true;

  constructor(private readonly limits: Pick<RiskLimits, 'daily_loss_limit' | 'max_drawdown_pct'>) {}

  get tripped(): string | undefined {
    return this.reason;
  }

  /**
   * Whether orders that only reduce a position still pass while tripped: yes after a loss or a halt
   * by hand (a trip must never trap a position); no when the run can no longer trust its own ids.
   */
  get allowsReducing(): boolean {
    return this.reducing;
  }

  /** Records equity at `at`; returns the reason when this observation trips the switch. */
  observe(equity: Dec, at: number): string | undefined {
    if (this.reason) return undefined;
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    if (day !== this.dayStart || this.dayOpenEquity === undefined) {
      this.dayStart = day;
      this.dayOpenEquity = equity;
    }
    if (this.peak === undefined || equity.gt(this.peak)) this.peak = equity;
    const loss = this.dayOpenEquity.minus(equity);
    if (this.limits.daily_loss_limit !== undefined && loss.gt(this.limits.daily_loss_limit)) {
      this.reason = `daily loss ${loss.toFixed(2)} exceeds ${this.limits.daily_loss_limit}`;
      return this.reason;
    }
    if (this.limits.max_drawdown_pct !== undefined && this.peak.gt(0)) {
      const dd = this.peak.minus(equity).div(this.peak).times(100);
      if (dd.gt(new D(this.limits.max_drawdown_pct))) {
        this.reason = `drawdown ${dd.toFixed(2)}% exceeds ${this.limits.max_drawdown_pct}%`;
        return this.reason;
      }
    }
    return undefined;
  }

  /**
   * Trips the switch by hand (an operator, a conflicting ref_id). With `allowReducing: false` nothing
   * new passes at all, not even an order that reduces a position (cancels always do).
   */
  trip(reason: string, options: { readonly allowReducing?: boolean } = {}): void {
    this.reason ??= reason;
    if (options.allowReducing === false) this.reducing = false;
  }

  reset(): void {
    this.reason = undefined;
    this.reducing = true;
    this.peak = undefined;
    this.dayOpenEquity = undefined;
  }
}
