import type { Decision, DenialCode, DenialReason, Intent } from '../core/index.js';
import type { Logger } from '../log/index.js';
import { checkNotional, checkBalance, checkOpenOrders, checkPosition } from './checks/size.js';
import { checkPriceBand, checkQuote, checkStale } from './checks/market-data.js';
import { checkOrderShape } from './checks/order-shape.js';
import { checkPrecision } from './checks/precision.js';
import { checkTransfer } from './checks/transfer.js';
import { checkOwnPosition, type Ownership } from './checks/own-position.js';
import { checkAllocation, type AllocationView } from './checks/allocation.js';
import { deny } from './denial.js';
import { isDenial, tradeFacts, type TradeFacts } from './facts.js';
import { KillSwitch } from './kill-switch.js';
import { StrategyPauses } from './pauses.js';
import { onlyReduces } from './reducing.js';
import type { RiskLimits } from './limits.js';
import { RateWindow } from './rate-window.js';
import type { RiskView } from './view.js';

export { onlyReduces };
export type { AllocationView, Ownership };

type TradeCheck = (f: TradeFacts, view: RiskView, limits: RiskLimits) => DenialReason | undefined;

/** The trade checks in the order they run: cheap shape checks first, balance last. */
const TRADE_CHECKS: readonly TradeCheck[] = [
  checkOrderShape,
  checkPrecision,
  checkStale,
  checkQuote,
  checkPriceBand,
  checkNotional,
  checkOpenOrders,
  checkBalance,
  checkPosition,
];

/**
 * The single risk gate: every intent is approved or denied here, with a typed reason. Decisions are
 * counted per code and logged (denials at info, approvals at debug).
 */
export class RiskGate {
  readonly killSwitch: KillSwitch;
  /** The strategies paused one by one by an operator. */
  readonly pauses = new StrategyPauses();
  private readonly rate: RateWindow;
  /** Decisions by code, in the order the codes first came; approvals (most decisions) are counted in `approvals`, without a lookup. */
  private readonly counts = new Map<'approve' | DenialCode, number>();
  private approvals = 0;
  private readonly allowed: ReadonlySet<string>;

  constructor(
    private readonly limits: RiskLimits,
    private readonly view: RiskView,
    private readonly log?: Logger,
    /** Whose each market's position is (the kernel's position book); without it, sells are held to the balance alone. */
    private readonly ownership?: Ownership,
    /** Capital per strategy (`strategies[].allocation`); without it, buys are held to the balance alone. */
    private readonly allocations?: AllocationView,
  ) {
    this.killSwitch = new KillSwitch(limits);
    this.rate = new RateWindow(limits.max_intents_per_minute);
    this.allowed = new Set(limits.allowed_markets);
  }

  decide(intent: Intent): Decision {
    const at = this.view.now();
    const reason = this.check(intent, at);
    const decision: Decision = reason ? { kind: 'deny', intent, at, reason } : { kind: 'approve', intent, at };
    if (reason) {
      this.counts.set(reason.code, (this.counts.get(reason.code) ?? 0) + 1);
      this.rate.countAt(at);
      this.log?.info(
        { intentId: intent.intentId, strategy: intent.strategy, code: reason.code, details: reason.details },
        `denied ${intent.kind}: ${reason.message}`,
      );
    } else {
      // the first approval takes its place among the codes (stats keeps the order they first came in)
      if (this.approvals++ === 0) this.counts.set('approve', 0);
      this.rate.record(at);
      this.log?.debug({ intentId: intent.intentId, strategy: intent.strategy }, `approved ${intent.kind}`);
    }
    return decision;
  }

  /** Decisions so far by outcome code ("approve" or a denial code). */
  stats(): Readonly<Record<string, number>> {
    const stats: Record<string, number> = Object.fromEntries(this.counts);
    if (this.approvals > 0) stats.approve = this.approvals;
    return stats;
  }

  private check(intent: Intent, at: number): DenialReason | undefined {
    if (intent.kind === 'cancel-order') return undefined; // cancelling only ever reduces risk
    const halted = this.killSwitch.tripped;
    // a halt must never trap a position: on spot markets a sell can only reduce a holding, so it still
    // goes (through every check below: balance, precision, the platform's caps); nothing else does
    if (halted && !(this.killSwitch.allowsReducing && onlyReduces(intent))) {
      return deny(
        'HALTED',
        `trading is halted: ${halted}${this.killSwitch.allowsReducing ? ' (only orders that reduce a position are allowed)' : ''}`,
        { reason: halted },
      );
    }
    const paused = this.pauses.check(intent);
    if (paused) return paused;
    const inWindow = this.rate.countAt(at);
    if (inWindow >= this.rate.limit)
      return deny('RATE', `${inWindow} intents in the last minute (limit ${this.rate.limit})`, {
        count: inWindow,
        max_per_minute: this.rate.limit,
      });
    if (intent.kind === 'transfer') return checkTransfer(intent, this.view);
    if (this.allowed.size > 0 && !this.allowed.has(intent.market)) {
      return deny('MARKET_NOT_ALLOWED', `${intent.market} is not in risk.allowed_markets`, { market: intent.market });
    }
    const facts = tradeFacts(intent, this.view);
    if (isDenial(facts)) return facts;
    for (const check of TRADE_CHECKS) {
      const reason = check(facts, this.view, this.limits);
      if (reason) return reason;
    }
    return checkOwnPosition(facts, this.ownership) ?? checkAllocation(facts, this.allocations);
  }
}
