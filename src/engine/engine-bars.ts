import type { Clock, TimerHandle } from '../clock/index.js';
import type { Bar, BarFeed, BarNeed } from '../bars/index.js';

/** A public trade of a market's tape, as bars take it (price and amount as numbers: signals). */
export interface TapeTrade {
  readonly at: number;
  readonly price: number;
  readonly amount: number;
}

/**
 * The engine's side of the bars: closes them on the engine's clock and hands them to `deliver`. A
 * bar closes at its boundary: when the engine's clock reaches it (`closeDue`, called before every
 * input and by the timer a live run arms at the next boundary) or when an input at or after it
 * comes, whichever is first, so a bar is never later in one mode than in another. A backtest ticks at
 * each boundary between its points itself (see backtest/run.ts), on its test clock.
 */
export class EngineBars {
  private armed: { readonly at: number; readonly handle: TimerHandle } | undefined;
  /** Stopped for good (shutdown): an input after it arms no timer, which would hold the process open. */
  private stopped = false;

  constructor(
    readonly feed: BarFeed,
    private readonly deliver: (bars: readonly Bar[]) => void,
    private readonly timer?: { readonly clock: Pick<Clock, 'now' | 'setTimeout'>; readonly tick: () => void },
  ) {}

  /** Closes and delivers the bars whose end is at or before `now`, then arms the timer for the next end. */
  closeDue(now: number): void {
    const closed = this.feed.closeDue(now);
    if (closed.length > 0) this.deliver(closed);
  }

  /**
   * A clock tick at `now` (the timer's, a backtest's) closes the bars due; trades then go into their
   * bars, one stamped after the engine's clock (clock skew) counted at the clock's time.
   */
  input(now: number, tape?: { readonly market: string; readonly trades: readonly TapeTrade[] }): void {
    this.closeDue(now);
    if (tape !== undefined) for (const t of tape.trades) this.feed.point(tape.market, 'trades', Math.min(t.at, now), t.price, t.amount);
    this.arm();
  }

  /** Arms the timer (live runs) at the next bar end, if it is not armed for it already. */
  arm(): void {
    const t = this.timer;
    if (t === undefined || this.stopped) return;
    const next = this.feed.nextClose();
    if (next === this.armed?.at) return;
    this.armed?.handle.cancel();
    this.armed =
      next === undefined
        ? undefined
        : {
            at: next,
            handle: t.clock.setTimeout(() => {
              this.armed = undefined;
              t.tick();
            }, next - t.clock.now()),
          };
  }

  /** Cancels the timer for good (shutdown). */
  stop(): void {
    this.stopped = true;
    this.armed?.handle.cancel();
    this.armed = undefined;
  }
}

/**
 * Sets what each market's declared bars are built from: its trades when the source has a trades
 * stream (`streams.trades_ms`), else the polled prices. Returns one line per market for the run's
 * header (none when no strategy declares bars).
 */
export function useBarInputs(
  feed: BarFeed | undefined,
  strategies: ReadonlyArray<{ readonly barNeeds: readonly BarNeed[] }>,
  fromTrades: boolean,
): string[] {
  if (feed === undefined) return [];
  const needs = strategies.flatMap((s) => s.barNeeds);
  return [...new Set(needs.map((n) => n.market))].map((m) => {
    feed.use(m, fromTrades ? 'trades' : 'points');
    const tfs = [...new Set(needs.filter((n) => n.market === m).map((n) => n.timeframe))].join(', ');
    return `bars of ${m} (${tfs}) are built from ${fromTrades ? "the platform's recent trades (streams.trades_ms)" : 'the polled prices (no trades stream: volume is 0)'}`;
  });
}
