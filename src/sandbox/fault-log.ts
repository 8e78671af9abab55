import { InputError } from '../core/errors.js';

/**
 * What can go wrong on the wire. `error5xx`, `error429` and `drop` hit before the operation runs
 * (nothing changes); `truncate` (connection reset mid-body), `commit-drop`, `commit-5xx` (a 503
 * although the write committed), `malformed` (a complete 200 whose body is cut-off JSON) and
 * `wrong-shape` (a 200 with valid JSON of the wrong shape) hit after it ran — the cases a client
 * must resolve by ref_id.
 */
export type FaultMode =
  'latency' | 'error5xx' | 'error429' | 'drop' | 'truncate' | 'commit-drop' | 'commit-5xx' | 'malformed' | 'wrong-shape';

/** A fault that was injected (the sandbox's own record, for tests and logs). */
export interface InjectedFault {
  readonly mode: FaultMode;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
}

/** Records kept by default: enough to see what just happened, a few hundred kB at most. */
export const DEFAULT_FAULT_LOG_LIMIT = 1_000;

/**
 * The sandbox's memory of injected faults, bounded: exact counters per mode for the whole life of
 * the sandbox, plus the newest `limit` records in a ring. A soak or a sandbox left running with
 * faults injects one fault per few requests for hours; one record each (the log used to be a plain
 * array) grew memory without bound. Counters are what tests and reports count with; the records
 * are for looking at what just happened.
 */
export class FaultLog {
  private readonly ring: Array<InjectedFault | undefined>;
  private recorded = 0;
  private readonly byMode = new Map<FaultMode, number>();

  constructor(readonly limit = DEFAULT_FAULT_LOG_LIMIT) {
    if (!(Number.isInteger(limit) && limit >= 0))
      throw new InputError('faults.logLimit', `expected a whole number of records to keep (0 keeps counters only), got ${String(limit)}`);
    this.ring = new Array<InjectedFault | undefined>(limit);
  }

  record(fault: InjectedFault): void {
    this.byMode.set(fault.mode, (this.byMode.get(fault.mode) ?? 0) + 1);
    if (this.limit > 0) this.ring[this.recorded % this.limit] = fault;
    this.recorded++;
  }

  /** Faults injected since the sandbox started (exact, whatever the limit). */
  get total(): number {
    return this.recorded;
  }

  /** Faults of `mode` injected since the sandbox started (exact). */
  count(mode: FaultMode): number {
    return this.byMode.get(mode) ?? 0;
  }

  /** Exact count per mode of every mode injected at least once. */
  counts(): Partial<Record<FaultMode, number>> {
    return Object.fromEntries(this.byMode) as Partial<Record<FaultMode, number>>;
  }

  /** The newest records (at most `limit`), oldest first. */
  recent(): InjectedFault[] {
    const kept = Math.min(this.recorded, this.limit);
    const out: InjectedFault[] = [];
    for (let i = this.recorded - kept; i < this.recorded; i++) out.push(this.ring[i % this.limit] as InjectedFault);
    return out;
  }
}
