import { Subject } from 'rxjs';
import type { MarketEvent, MarketSymbol } from '../../src/core/index.js';
import type { AccountEvent } from '../../src/state/index.js';
import type { MarketSource, MarketSubscription, StreamHealth } from '../../src/venue/index.js';

/** A MarketSource the test drives by hand: push events and account state, script the warm-up. */
export class ScriptedSource implements MarketSource {
  readonly events = new Subject<MarketEvent>();
  readonly account = new Subject<AccountEvent>();
  readonly events$ = this.events.asObservable();
  readonly account$ = this.account.asObservable();
  subscriptions: readonly MarketSubscription[] = [];
  started = false;
  stopped = false;

  constructor(private readonly history: readonly MarketEvent[] = []) {}

  async warmUp(markets: readonly MarketSymbol[], points: number): Promise<readonly MarketEvent[]> {
    return this.history.filter((e) => markets.includes(e.market)).slice(-points);
  }

  start(subscriptions: readonly MarketSubscription[]): void {
    this.subscriptions = subscriptions;
    this.started = true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  health(): readonly StreamHealth[] {
    return [];
  }
}
