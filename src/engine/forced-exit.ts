import { roundBase, type Decision, type Instrument, type Intent, type MarketSymbol } from '../core/index.js';
import type { HaltCause } from '../risk/index.js';
import type { PositionBook } from './positions.js';

/** What an operator's forced exit of one strategy did, market by market. */
export interface ForcedExit {
  readonly strategy: string;
  readonly exits: ReadonlyArray<{
    readonly market: MarketSymbol;
    readonly amount: string;
    readonly decision?: Decision;
    readonly note?: string;
  }>;
}

/**
 * The MARKET sells of an operator's forced exit (`tradeloop ctl exit STRATEGY`): in each market of the
 * strategy (or the one named), its own position less its open sells, rounded down to the instrument,
 * marked `exitReason: 'operator'`. They go through the gate like any reducing order. Markets with
 * nothing to sell are named with a note instead.
 */
export function forcedExitIntents(
  deps: {
    readonly positions: PositionBook;
    readonly instrument: (m: MarketSymbol) => Instrument | undefined;
    readonly nextId: () => string;
  },
  strategy: string,
  markets: readonly MarketSymbol[],
): { readonly intents: Intent[]; readonly empty: ReadonlyArray<{ readonly market: MarketSymbol; readonly note: string }> } {
  const intents: Intent[] = [];
  const empty: Array<{ market: MarketSymbol; note: string }> = [];
  for (const market of markets) {
    const own = deps.positions.ownSellable(strategy, market);
    const instrument = deps.instrument(market);
    const amount = instrument ? roundBase(instrument, own) : own.toFixed();
    if (!(Number(amount) > 0)) {
      empty.push({
        market,
        note: `${strategy} holds nothing of its own to sell in ${market}${own.gt(0) ? ` (${own.toFixed()} rounds to zero)` : ''}`,
      });
      continue;
    }
    intents.push({
      kind: 'place-order',
      intentId: deps.nextId(),
      strategy,
      market,
      side: 'SELL',
      type: 'MARKET',
      baseAmount: amount,
      exitReason: 'operator',
    });
  }
  return { intents, empty };
}

/**
 * The kill switch closes no position itself: it cancels the open orders and lets only orders that
 * reduce a position through. A sell made while one of its causes holds (a daily-loss or drawdown
 * trip, orphans at start: the causes only a resume with `kill_switch` lifts) that names no exit
 * reason of its own is the run winding down under the trip, and is journaled with the reason
 * `kill-switch`. An exit that names its reason keeps it: an operator's forced exit stays `operator`
 * (also during a halt), a stop-loss stays `stop-loss`.
 */
export function withKillSwitchReason(intent: Intent, causes: readonly HaltCause[]): Intent {
  if ((intent.kind !== 'place-order' && intent.kind !== 'execute-quote') || intent.side !== 'SELL' || intent.exitReason !== undefined)
    return intent;
  return causes.some((c) => c.lift === 'kill-switch') ? { ...intent, exitReason: 'kill-switch' } : intent;
}
