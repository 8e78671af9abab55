import { type SimPlatform } from '../sim/sim.js';
import { type FaultInjector, type FaultMode, type InjectedFault } from './faults.js';
import { wireBalance, wireExecution, wireOrder, wireProfile, wireQuoteExecution, wireTransfer } from './wire.js';

type Json = Record<string, unknown>;

/** The sandbox's own records, as a test or tool sees them without the public API. */
export interface SandboxTruth {
  readonly now: string;
  readonly seed: number;
  /** The world's instance id (mixed into the ids it issues; see SandboxHandle.instanceId). */
  readonly instance_id: string | null;
  /** Every order ever created (any profile), oldest first, with ref_id and why the sim closed it. */
  readonly orders: readonly Json[];
  readonly executions: readonly Json[];
  readonly quote_executions: readonly Json[];
  /** Deposits and both legs of every internal transfer, oldest first. */
  readonly transfers: readonly Json[];
  readonly profiles: readonly Json[];
  /** Faults injected since start, exact (count with these, not with `injected_faults`). */
  readonly faults_injected: number;
  /** Exact count per fault mode since start (modes never injected are absent). */
  readonly fault_counts: Partial<Record<FaultMode, number>>;
  /** The newest injected faults, oldest first: at most the fault log's limit (default 1,000). */
  readonly injected_faults: readonly InjectedFault[];
}

/**
 * Builds the truth snapshot: what reliability tests count (e.g. exactly one order per ref_id after
 * a lost response) and out-of-process tools read from `GET /__sandbox/truth`.
 */
export function sandboxTruth(sim: SimPlatform, faults: FaultInjector): SandboxTruth {
  const now = sim.now();
  return {
    now: new Date(now).toISOString(),
    seed: sim.seed,
    instance_id: sim.instanceId ?? null,
    orders: sim.orders().map((o) => ({ ...wireOrder(o), ...(o.reason !== undefined ? { reason: o.reason } : {}) })),
    executions: sim.executions().map((e) => ({
      ...wireExecution(e),
      profile_id: e.profileId,
      ...(e.refId !== undefined ? { ref_id: e.refId } : {}),
      liquidity: e.liquidity,
    })),
    quote_executions: sim.quoteExecutions().map(wireQuoteExecution),
    transfers: sim.allTransfers().map(wireTransfer),
    profiles: sim.profiles.list(true).map((p) => ({
      ...wireProfile(p),
      active: p.active,
      balances: (p.active ? sim.accounts.balances(p.id) : []).filter((b) => !b.available.isZero() || !b.trading.isZero()).map(wireBalance),
    })),
    faults_injected: faults.log.total,
    fault_counts: faults.log.counts(),
    injected_faults: faults.log.recent(),
  };
}
