import type { DenialReason, Intent } from '../core/index.js';
import { deny } from './denial.js';

/** A strategy paused by an operator: when, and why. */
export interface StrategyPause {
  readonly strategy: string;
  /** Epoch ms. */
  readonly since: number;
  readonly reason: string;
}

/**
 * The strategies an operator has paused, one by one (the control API's pause and resume with a
 * strategy): a paused strategy's new intents are denied `PAUSED`, while its open orders and its
 * position stay as they are. Only what cannot add to its exposure passes: cancelling one of its
 * orders, and an operator's forced exit of its position. Apart from the halt causes of the kill
 * switch, which stop every strategy at once.
 */
export class StrategyPauses {
  private readonly paused = new Map<string, StrategyPause>();

  /** Pauses `p.strategy`; false when it was paused already (its first pause is kept). */
  pause(p: StrategyPause): boolean {
    if (this.paused.has(p.strategy)) return false;
    this.paused.set(p.strategy, Object.freeze({ ...p }));
    return true;
  }

  /** Lifts the pause of `strategy`, returning it (undefined when it was not paused). */
  resume(strategy: string): StrategyPause | undefined {
    const p = this.paused.get(strategy);
    this.paused.delete(strategy);
    return p;
  }

  get(strategy: string): StrategyPause | undefined {
    return this.paused.get(strategy);
  }

  /** Every pause, in the order they were made. */
  list(): StrategyPause[] {
    return [...this.paused.values()];
  }

  /** The denial of `intent` when its strategy is paused and the intent is not one that passes. */
  check(intent: Intent): DenialReason | undefined {
    if (this.paused.size === 0 || intent.kind === 'cancel-order') return undefined;
    const p = this.paused.get(intent.strategy);
    if (p === undefined || (intent.kind === 'place-order' && intent.exitReason === 'operator')) return undefined;
    return deny('PAUSED', `${intent.strategy} is paused by an operator (${p.reason}): its new intents are denied until it is resumed`, {
      strategy: intent.strategy,
      since: p.since,
    });
  }
}
