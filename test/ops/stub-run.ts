/**
 * A run as the operations code sees it (OpsRun), driven by hand: decisions and reports pushed into
 * subjects, a real kill switch (`trip` trips a drawdown cause), strategies and the venue's reachability set by the test, on its TestClock.
 */
import { Subject } from 'rxjs';
import type { VenueReachability } from '../../src/api/index.js';
import type { TestClock } from '../../src/clock/index.js';
import type { Decision, ExecReport } from '../../src/core/index.js';
import type { RunView } from '../../src/live/index.js';
import type { OpsRun } from '../../src/ops/index.js';
import { KillSwitch, StrategyPauses, type HaltKind } from '../../src/risk/index.js';
import { emptySnapshot } from '../../src/state/index.js';

export interface StubRun {
  readonly run: OpsRun;
  readonly decisions: Subject<Decision>;
  readonly reports: Subject<ExecReport>;
  trip(reason: string | undefined): void;
  stopStrategy(name: string, why: string): void;
  setReachability(r: VenueReachability): void;
  readonly stopRequests: string[];
}

export function stubRun(clock: TestClock, strategyNames: readonly string[] = ['alpha']): StubRun {
  const decisions = new Subject<Decision>();
  const reports = new Subject<ExecReport>();
  const ks = new KillSwitch({});
  const pauses = new StrategyPauses();
  let reach: VenueReachability = { consecutiveFailures: 0, probes: 0 };
  const strategies = strategyNames.map((name) => ({
    name,
    markets: new Set(['BTCUSD']) as ReadonlySet<string>,
    stopped: undefined as string | undefined,
    params: {},
  }));
  const stopRequests: string[] = [];
  const view = (): RunView => ({
    at: clock.now(),
    startedAt: 0,
    environment: 'test',
    venue: 'stub',
    markets: [],
    balances: [],
    equityAsset: 'USD',
    equity: '1000',
    startEquity: '1000',
    pnl: '0',
    openOrders: [],
    decisions: [],
    reports: [],
    counters: {},
    stoppedStrategies: [],
  });
  const kernel = {
    decisions$: decisions.asObservable(),
    reports$: reports.asObservable(),
    gate: { killSwitch: ks, pauses, stats: () => ({}) },
    market: { snapshot: emptySnapshot, markets: () => [] },
    riskView: {
      instrument: () => undefined,
      transferRemaining: () => undefined,
      transferLimits: { lastReadAt: undefined, readings: () => [] },
    },
    openOrders: {},
    cancelAll: async () => ({ closed: [], open: [] }),
    haltKeepingOrders: (reason: string, kind?: HaltKind) => ks.trip(reason, { ...(kind && { kind }) }),
    resume: (kinds: Iterable<HaltKind>) => ks.lift(kinds),
    pauseStrategy: (strategy: string, reason: string) => pauses.pause({ strategy, since: clock.now(), reason }),
    resumeStrategy: (strategy: string) => pauses.resume(strategy),
  } as unknown as OpsRun['kernel'];
  const run: OpsRun = {
    clock,
    kernel,
    strategies,
    journal: { intents: () => [], fills: () => [], active: () => [], get: () => undefined, strategyFills: () => [] },
    view,
    requestStop: (reason) => stopRequests.push(reason),
    reachability: () => reach,
  };
  return {
    run,
    decisions,
    reports,
    stopRequests,
    trip: (reason) => {
      if (reason === undefined) ks.lift(ks.causes.map((c) => c.kind));
      else ks.trip(reason, { kind: 'drawdown' });
    },
    stopStrategy: (name, why) => {
      const s = strategies.find((x) => x.name === name);
      if (s) s.stopped = why;
    },
    setReachability: (r) => (reach = r),
  };
}
