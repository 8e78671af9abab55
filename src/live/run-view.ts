import type { StrategyPosition } from '../exec/journal-trades.js';
import type { Decision, ExecReport, MarketSymbol } from '../core/index.js';
import type { StreamHealth } from '../venue/index.js';

/** What the live panel and the run summary show; rebuilt by the runner on each refresh. */
export interface RunView {
  readonly at: number;
  readonly startedAt: number;
  readonly environment: string;
  readonly venue: string;
  /** Each traded market's mid, with the decimals of its tick (the panel shows prices at them). */
  readonly markets: readonly {
    readonly market: MarketSymbol;
    readonly mid?: number;
    readonly stale: boolean;
    readonly priceDecimals?: number;
  }[];
  /** Balances at full precision; the panel shows them at their asset's precision. */
  readonly balances: readonly { readonly asset: string; readonly available: string; readonly trading: string }[];
  /** The asset equity, start equity and PnL are measured in (default USD). */
  readonly equityAsset?: string;
  readonly equity?: string;
  readonly startEquity?: string;
  readonly startEquityAt?: number;
  readonly pnl?: string;
  readonly openOrders: readonly {
    readonly refId: string;
    readonly market: string;
    readonly side: string;
    readonly price?: string;
    readonly amount?: string;
    readonly status: string;
  }[];
  readonly decisions: readonly Decision[];
  readonly reports: readonly ExecReport[];
  readonly counters: Readonly<Record<string, number>>;
  readonly halted?: string;
  /** Why the run's journal can no longer be trusted (a write failed, its file deleted or replaced): the run halted and is stopping. */
  readonly journalFailure?: string;
  readonly stoppedStrategies: readonly string[];
  /**
   * Epoch ms since when the venue is unreachable (its circuit breaker is open), absent while it
   * answers: the panel shows one outage line instead of a warning per refused request.
   */
  readonly venueUnreachableSince?: number;
  /**
   * The shared request budget (`api.rate_limit_store`) while its store does not answer: since when,
   * the store, and the bots whose 1/N share this one uses meanwhile.
   */
  readonly budgetStoreUnreachable?: { readonly since: number; readonly store: string; readonly bots: number };
  /** Orphans found at start (see `run.orphans`) and what was done to each. */
  readonly orphans?: readonly {
    readonly refId: string;
    readonly orderId: string;
    readonly market: string;
    readonly side: string;
    readonly price?: string;
    readonly action: string;
  }[];
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
  /** Fees paid, full precision, in `equityAsset`. */
  readonly fees: string;
  /** The asset equity, fees and PnL are measured in (default USD). */
  readonly equityAsset?: string;
  /**
   * Equity when the run started, full precision: on a restart with the same journal, the equity of
   * the first start (kept in the journal), so PnL covers the whole run.
   */
  readonly startEquity?: string;
  /** When the start equity was measured (epoch ms). */
  readonly startEquityAt?: number;
  readonly endEquity?: string;
  readonly pnl?: string;
  readonly openOrdersLeft: number;
  /** The orders still open at the venue at exit, named (ref_id, venue id, side, market, price, status). */
  readonly leftOpen?: readonly string[];
  /**
   * Quote executions the exit could not follow to their end within `run.exit_timeout_ms` (CREATED at
   * the venue, or outcome unknown): counted, and named in `leftSettling`. The next start follows them.
   */
  readonly settlingQuoteExecutions?: number;
  readonly leftSettling?: readonly string[];
  /** Orphans found at start, counted by what was done: cancel, adopt, halt, left-open. */
  readonly orphans?: Readonly<Record<string, number>>;
  readonly unresolved: number;
  /** What is still held at exit besides the equity asset, valued at the last mid when there is one. */
  readonly positions?: readonly HeldPosition[];
  /** Each strategy's own position and P&L per market (the kernel's, as `tradeloop positions` reads the journal). */
  readonly strategyPositions?: readonly StrategyPosition[];
  /** Base held by no strategy, per asset (with the strategies' positions, the account's balance). */
  readonly unassigned?: Readonly<Record<string, string>>;
  readonly stoppedStrategies: readonly string[];
  readonly halted?: string;
  /** Set when the run halted and stopped because its journal failed (see `JournalWatch`); the command exits 5. */
  readonly journalFailure?: { readonly kind: string; readonly reason: string; readonly at: number };
}

/** One asset still held when a run ends; amounts full precision (the summary rounds them for people). */
export interface HeldPosition {
  readonly asset: string;
  /** Available plus in orders. */
  readonly amount: string;
  /** The market it was valued in (asset + equity asset), its mid and the value, when priced. */
  readonly market?: string;
  readonly mid?: string;
  readonly priceDecimals?: number;
  readonly value?: string;
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

/**
 * The latest execution reports in the order of an order's life: an `accepted` that comes after a fill
 * or cancel of the same order (the venue's answer to the placement can come after the fill stream's)
 * is listed before them, so the panel never shows an order filled and then accepted.
 */
export class RecentReports {
  private readonly items: ExecReport[] = [];

  constructor(private readonly capacity: number) {}

  push(r: ExecReport): void {
    const later =
      r.kind === 'accepted' ? this.items.findIndex((x) => x.refId === r.refId && (x.kind === 'filled' || x.kind === 'cancelled')) : -1;
    if (later >= 0) this.items.splice(later, 0, r);
    else this.items.push(r);
    if (this.items.length > this.capacity) this.items.shift();
  }

  list(): readonly ExecReport[] {
    return [...this.items];
  }
}

/** The earliest `unreachableSince` of the market source's streams (the venue's outage), if any. */
export function venueUnreachableSince(health: readonly StreamHealth[]): number | undefined {
  let since: number | undefined;
  for (const h of health)
    if (h.unreachableSince !== undefined && (since === undefined || h.unreachableSince < since)) since = h.unreachableSince;
  return since;
}
