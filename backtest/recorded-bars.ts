/**
 * A bar strategy's bars in the book model's replay of a recording, built and closed as the recorded
 * run built and closed them. A live or paper run builds a market's bars from the platform's trades
 * when its trades stream is on (`streams.trades_ms`), else from its polled prices, and its timer closes
 * each bar at its end (src/engine/engine-bars.ts). The replay does the same from what the run
 * recorded: when the recording holds `trades:` responses of the market, each response's trades reach
 * the bars at the time the run received them, so a trade the run heard after its bar had closed is
 * dropped here as it was there; otherwise the recorded prices feed them. Between two recorded times
 * the engine's clock is ticked at every bar end, before anything received at that time, as the run's
 * timer fired: a bar closes at its boundary, never at the next recorded response, and its decisions
 * see the market as it was then. Bars end with the recording: none ending after its last line closes.
 */
import type { BarNeed } from '../src/bars/index.js';
import type { Engine } from '../src/engine/engine.js';
import { useBarInputs, type TapeTrade } from '../src/engine/engine-bars.js';
import type { MarketSymbol } from '../src/core/index.js';

/** One recorded `trades:` response that brought trades: when the run received it, and its trades. */
export interface RecordedTape {
  readonly at: number;
  readonly trades: readonly TapeTrade[];
}

/** What a recording says about a market's bar inputs (see RecordedMarket). */
export interface RecordedBarData {
  readonly market: MarketSymbol;
  /** Whether the run polled the market's trades (the recording holds its `trades:` responses). */
  readonly tradesPolled: boolean;
  /** Whether the run polled prices (else the replay gives the book mids as prices). */
  readonly hasPrices: boolean;
  readonly tapes: readonly RecordedTape[];
  /** The recording's last time: no bar ending after it closes. */
  readonly lastAt: number;
}

/**
 * Sets what the declared bars are built from, as the recorded run did, and says so: one line per
 * market, the live run's header line followed by what the replay takes for it. None when no
 * strategy declares bars.
 */
export function recordedBarInputs(
  engine: Pick<Engine, 'barFeed'>,
  strategies: ReadonlyArray<{ readonly barNeeds: readonly BarNeed[] }>,
  recorded: Pick<RecordedBarData, 'tradesPolled' | 'hasPrices'>,
): string[] {
  const taken = recorded.tradesPolled
    ? "as the run built them: the recording's trades, each when the run received it"
    : recorded.hasPrices
      ? 'as the run built them: the recorded prices'
      : 'from the recorded book mids in their place (the run polled no prices, so its bars had no points)';
  return useBarInputs(engine.barFeed, strategies, recorded.tradesPolled).map((line) => `${line}, ${taken}`);
}

/**
 * The replay's bar clock: the next bar end (up to the recording's end) and the next recorded tape,
 * in time order, a bar end first at a tie. The book run merges them with its own steps and trades.
 */
export class RecordedBarClock {
  private nextTape = 0;

  constructor(
    private readonly engine: Pick<Engine, 'barFeed' | 'tick' | 'onTrades'>,
    private readonly recorded: RecordedBarData,
  ) {}

  /** When the next bar closes or the next tape arrives; undefined when nothing is left. */
  nextAt(): number | undefined {
    if (this.engine.barFeed === undefined) return undefined;
    const end = this.nextEnd();
    const tape = this.recorded.tapes[this.nextTape]?.at;
    if (end === undefined) return tape;
    return tape === undefined || end <= tape ? end : tape;
  }

  /**
   * Runs what is due at `now` (the engine's clock, at `nextAt()`): the bars ending then close; then a
   * tape received then reaches the bars. Returns false when nothing was due.
   */
  run(now: number): boolean {
    const end = this.nextEnd();
    if (end !== undefined && end <= now) {
      this.engine.tick(now);
      return true;
    }
    const tape = this.recorded.tapes[this.nextTape];
    if (tape === undefined || tape.at > now) return false;
    this.nextTape++;
    this.engine.onTrades(this.recorded.market, tape.trades);
    return true;
  }

  private nextEnd(): number | undefined {
    const end = this.engine.barFeed?.nextClose();
    return end !== undefined && end <= this.recorded.lastAt ? end : undefined;
  }
}

/**
 * What the point model's replay of a recording builds the declared bars from (`--fill-model points`,
 * or a divergence report on a recording without books): the recorded prices, closed at their ends
 * between the points; it replays no trades. One line per market, none without declared bars.
 */
export function pointModelBarInputs(needs: readonly BarNeed[]): string[] {
  return [...new Set(needs.map((n) => n.market))].map((m) => {
    const tfs = [...new Set(needs.filter((n) => n.market === m).map((n) => n.timeframe))].join(', ');
    return `bars of ${m} (${tfs}) are built from the recorded prices (volume 0): the point model replays no trades, so bars a run built from its trades (streams.trades_ms) come out otherwise; the book model builds them from the recorded trades`;
  });
}
