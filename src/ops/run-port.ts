import type { VenueReachability } from '../api/index.js';
import type { Clock } from '../clock/index.js';
import type { Decision, ExecReport } from '../core/index.js';
import type { Kernel, StrategyRunner } from '../engine/index.js';
import type { RunView } from '../live/index.js';
import type { JournalStore, StrategyFill } from '../exec/index.js';
import type { StreamHealth } from '../venue/index.js';

/** The request budget as the dashboard and /metrics read it. */
export interface BudgetView {
  readonly ratePerSec: number;
  readonly burst: number;
  spent(): number;
  queued(): number;
}

/**
 * What the operations server reads from a running bot and the few things it may ask of it: a narrow
 * view of the live run (its kernel for the streams, the gate and cancel-everything; its view for the
 * panel's figures), the journal for orders and fills, and a stop request. The server never reaches
 * into the engine otherwise.
 */
export interface OpsRun {
  readonly clock: Pick<Clock, 'now' | 'setTimeout'>;
  readonly kernel: Pick<
    Kernel,
    | 'decisions$'
    | 'reports$'
    | 'gate'
    | 'market'
    | 'riskView'
    | 'openOrders'
    | 'cancelAll'
    | 'haltKeepingOrders'
    | 'resume'
    | 'forceExit'
    | 'pauseStrategy'
    | 'resumeStrategy'
    | 'plots'
  > & { readonly engine: Pick<Kernel['engine'], 'barFeed'> };
  readonly strategies: readonly Pick<StrategyRunner, 'name' | 'markets' | 'stopped' | 'params'>[];
  readonly journal: Pick<JournalStore, 'intents' | 'fills' | 'active' | 'get'> & { strategyFills(): StrategyFill[] };
  view(): RunView;
  /** Asks the run to exit cleanly (as Ctrl-C does); the run's own shutdown cancels and reports. */
  requestStop(reason: string): void;
  readonly streams?: () => readonly StreamHealth[];
  readonly reachability?: () => VenueReachability;
  readonly budget?: BudgetView;
}

/** Something that happened, as the dashboard's event stream and the notifier see it. */
export type RunEvent =
  { readonly kind: 'decision'; readonly decision: Decision } | { readonly kind: 'report'; readonly report: ExecReport };
