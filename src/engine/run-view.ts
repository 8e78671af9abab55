import type { Decision, ExecReport, MarketSymbol } from '../core/index.js';
import type { StreamHealth } from '../venue/index.js';

/** What the live panel and the run summary show; rebuilt by the runner on each refresh. */
export interface RunView {
  readonly at: number;
  readonly startedAt: number;
  readonly environment: string;
  readonly venue: string;
  readonly markets: readonly { readonly market: MarketSymbol; readonly mid?: number; readonly stale: boolean }[];
  readonly balances: readonly { readonly asset: string; readonly available: string; readonly trading: string }[];
  readonly equity?: string;
  readonly startEquity?: string;
  readonly pnl?: string;
  readonly openOrders: readonly { readonly refId: string; readonly market: string; readonly side: string; readonly price?: string; readonly amount?: string; readonly status: string }[];
  readonly decisions: readonly Decision[];
  readonly reports: readonly ExecReport[];
  readonly counters: Readonly<Record<string, number>>;
  readonly halted?: string;
  readonly stoppedStrategies: readonly string[];
  /**
   * Epoch ms since when the venue is unreachable (its circuit breaker is open), absent while it
   * answers: the panel shows one outage line instead of a warning per refused request.
   */
  readonly venueUnreachableSince?: number;
  /** Orphans found at start (see `run.orphans`) and what was done to each. */
  readonly orphans?: readonly { readonly refId: string; readonly orderId: string; readonly market: string; readonly side: string; readonly price?: string; readonly action: string }[];
}

/** The run summary printed on exit (and returned to tests). */
export interface RunSummary {
  readonly durationMs: number;
  readonly intents: number;
  readonly approved: number;
  readonly denied: number;
  readonly denials: Readonly<Record<string, number>>;
  readonly ordersPlaced: number;
  readonly fills: number;
  readonly fees: string;
  readonly startEquity?: string;
  readonly endEquity?: string;
  readonly pnl?: string;
  readonly openOrdersLeft: number;
  /** The orders still open at the venue at exit, named (ref_id, venue id, side, market, price, status). */
  readonly leftOpen?: readonly string[];
  /** Orphans found at start, counted by what was done: cancel, adopt, halt, left-open. */
  readonly orphans?: Readonly<Record<string, number>>;
  readonly unresolved: number;
  readonly stoppedStrategies: readonly string[];
  readonly halted?: string;
}

/** A fixed-size list of the latest items (recent decisions, reports). */
export class Recent<T> {
  private readonly items: T[] = [];

  constructor(private readonly capacity: number) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) this.items.shift();
  }

  list(): readonly T[] {
    return [...this.items];
  }
}

/** The earliest `unreachableSince` of the market source's streams (the venue's outage), if any. */
export function venueUnreachableSince(health: readonly StreamHealth[]): number | undefined {
  let since: number | undefined;
  for (const h of health) if (h.unreachableSince !== undefined && (since === undefined || h.unreachableSince < since)) since = h.unreachableSince;
  return since;
}
