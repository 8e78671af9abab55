/**
 * What a portfolio backtest keeps for its report.html (only when one is written): every fill with the
 * strategy that made it, and each strategy's round trips per market with their exit reasons (the
 * account's trades split by whose intent each fill was). The candles and plotted series come from
 * the kernel as in a single-strategy run (replay-kernel.ts).
 */
import type { PointExecution } from '../../src/fills/point/orders.js';
import type { RoundTrip } from '../metrics.js';
import { RoundTripTracker } from '../round-trips.js';

/** One fill on a market's chart, with the strategy whose intent it was ('' when none is known). */
export interface StrategyFill {
  readonly strategy: string;
  readonly market: string;
  readonly side: 'buy' | 'sell';
  readonly price: number;
  readonly at: number;
}

/** One strategy's round trips in one market, oldest first, with the exit reason of each. */
export interface StrategyTrips {
  readonly strategy: string;
  readonly market: string;
  readonly trades: readonly RoundTrip[];
  readonly exitReasons: readonly string[];
}

export interface PortfolioTapeData {
  readonly fills: readonly StrategyFill[];
  readonly trips: readonly StrategyTrips[];
}

/** Fed every execution of the replay in order (see the module comment). */
export class PortfolioTape {
  private readonly fills: StrategyFill[] = [];
  private readonly trackers = new Map<string, { strategy: string; market: string; tracker: RoundTripTracker }>();

  constructor(
    /** The strategy that made an intent, by its ref_id (the journal's record). */
    private readonly strategyOf: (refId: string) => string | undefined,
    /** Why a sell was made, by its ref_id (the run's exit reasons). */
    private readonly exitReasonOf: (refId: string) => string | undefined,
  ) {}

  add(x: PointExecution): void {
    const strategy = this.strategyOf(x.refId) ?? '';
    this.fills.push({ strategy, market: x.market, side: x.side === 'BUY' ? 'buy' : 'sell', price: x.priceNumber, at: x.at });
    const key = `${strategy}\u0000${x.market}`;
    let t = this.trackers.get(key);
    if (t === undefined) {
      t = { strategy, market: x.market, tracker: new RoundTripTracker(false, this.exitReasonOf) };
      this.trackers.set(key, t);
    }
    t.tracker.add(x);
  }

  data(): PortfolioTapeData {
    return {
      fills: this.fills,
      trips: [...this.trackers.values()].map(({ strategy, market, tracker }) => ({
        strategy,
        market,
        trades: tracker.trades,
        exitReasons: tracker.exitReasons,
      })),
    };
  }
}
