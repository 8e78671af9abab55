import { type z } from 'zod';
import type { ExecReport, Intent, MarketEvent, MarketSymbol } from '../core/index.js';
import type { Logger } from '../log/index.js';
import type { IntentDraft, StrategyContext, StrategyDefinition, StrategyHandlers } from '../strategy/index.js';
import type { IntentIds } from './intent-ids.js';

const KINDS = new Set(['place-order', 'cancel-order', 'execute-quote', 'transfer']);

/**
 * One running strategy instance. Calls its handlers, turns what they return into intents stamped
 * with ids, and stops the strategy (reporting why) when it throws or returns something that is not
 * an intent; other strategies go on.
 */
export class StrategyRunner {
  readonly markets: ReadonlySet<MarketSymbol>;
  private handlers: StrategyHandlers;
  private stoppedReason: string | undefined;

  constructor(
    readonly name: string,
    readonly definition: StrategyDefinition,
    readonly params: Readonly<Record<string, unknown>>,
    markets: readonly MarketSymbol[],
    private readonly ids: IntentIds,
    private readonly log?: Logger,
  ) {
    this.markets = new Set(markets);
    this.handlers = definition.create(params as z.infer<typeof definition.params>);
  }

  get stopped(): string | undefined {
    return this.stoppedReason;
  }

  onEvent(event: MarketEvent, ctx: StrategyContext): Intent[] | undefined {
    const handler = this.handlers.onEvent;
    if (this.stoppedReason || !handler || !this.markets.has(event.market)) return undefined;
    // called once per market event: no closure here (see `call` for reports)
    let out: unknown;
    try {
      out = handler.call(this.handlers, event, ctx);
    } catch (e) {
      this.stop(`onEvent threw: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    return out === undefined || out === null ? undefined : this.toIntents(out, 'onEvent');
  }

  /**
   * Warm-up on history: the handler runs (indicators fill) and whatever it returns is dropped before
   * an intent id is taken. A throw stops the strategy as on live data. Returns how many were dropped.
   */
  onWarmUpEvent(event: MarketEvent, ctx: StrategyContext): number {
    const handler = this.handlers.onEvent;
    if (this.stoppedReason || !handler || !this.markets.has(event.market)) return 0;
    let out: unknown;
    try {
      out = handler.call(this.handlers, event, ctx);
    } catch (e) {
      this.stop(`onEvent threw during warm-up: ${e instanceof Error ? e.message : String(e)}`);
      return 0;
    }
    return out === undefined || out === null ? 0 : Array.isArray(out) ? out.length : 1;
  }

  onReport(report: ExecReport, ctx: StrategyContext): Intent[] | undefined {
    if (this.stoppedReason || !this.handlers.onReport) return undefined;
    return this.call(() => this.handlers.onReport?.(report, ctx), 'onReport');
  }

  stop(reason: string): void {
    if (this.stoppedReason) return;
    this.stoppedReason = reason;
    this.log?.error({ strategy: this.name }, `strategy ${this.name} stopped: ${reason}`);
  }

  private call(fn: () => readonly IntentDraft[] | IntentDraft | undefined | void, where: string): Intent[] | undefined {
    let out: unknown;
    try {
      out = fn();
    } catch (e) {
      this.stop(`${where} threw: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    if (out === undefined || out === null) return undefined;
    return this.toIntents(out, where);
  }

  private toIntents(out: unknown, where: string): Intent[] | undefined {
    const drafts = Array.isArray(out) ? out : [out];
    if (drafts.length === 0) return undefined;
    const intents: Intent[] = [];
    for (const d of drafts) {
      if (typeof d !== 'object' || d === null || !KINDS.has((d as { kind?: string }).kind ?? '')) {
        this.stop(`${where} returned ${JSON.stringify(d)}, not an intent (kind must be one of ${[...KINDS].join(', ')})`);
        return undefined;
      }
      intents.push({ ...(d as IntentDraft), intentId: this.ids.next(), strategy: this.name } as Intent);
    }
    return intents;
  }
}
