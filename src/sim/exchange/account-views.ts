import { type Dec } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { KNOWN_ASSETS } from '../market/catalog.js';
import { SimError } from '../errors.js';
import { type Ledger } from './ledger.js';
import { type OrderRecord, type OrderStatus, type SimExecution } from './order-types.js';
import { type ProfileStore } from './profiles.js';
import { type Settlement } from './settlement.js';
import { type OrderEntry } from './trading.js';

export interface SimBalance {
  readonly asset: string;
  readonly available: Dec;
  readonly trading: Dec;
}

export interface OrderFilter {
  readonly profileId?: string;
  readonly market?: string;
  readonly status?: OrderStatus;
  readonly refIds?: readonly string[];
  readonly beginMs?: number;
  readonly endMs?: number;
}

export interface ExecutionFilter {
  readonly profileId?: string;
  readonly orderId?: string;
  /** Only executions with a larger id (newer), for polling. */
  readonly sinceExecutionId?: string;
  readonly beginMs?: number;
  readonly endMs?: number;
}

/**
 * Read-only queries over the sim's accounts. Lists come newest first (the sandbox pages them); the
 * caller has already caught the sim up to the present.
 */
export class AccountViews {
  constructor(
    private readonly ledger: Ledger,
    private readonly settlement: Settlement,
    private readonly entry: OrderEntry,
    private readonly profiles: ProfileStore,
  ) {}

  /** Balances of a profile: every known asset (zeros included) plus any other it holds. */
  balances(profileId: string, assets?: readonly string[]): SimBalance[] {
    const id = this.profiles.get(profileId).id;
    const held = new Map(this.ledger.list(id));
    const names = assets && assets.length > 0 ? assets : [...new Set([...KNOWN_ASSETS, ...held.keys()])];
    return names.map((asset) => ({ asset, ...this.ledger.get(id, asset) }));
  }

  /** One balance; 404 for an asset the sandbox does not know. */
  balance(profileId: string, asset: string): SimBalance {
    const id = this.profiles.get(profileId).id;
    if (!KNOWN_ASSETS.includes(asset) && this.ledger.list(id).every(([a]) => a !== asset))
      throw new SimError('not-found', `asset ${asset} not found`);
    return { asset, ...this.ledger.get(id, asset) };
  }

  getOrder(profileId: string, orderId: string): OrderRecord {
    return this.entry.get(this.profiles.get(profileId, true).id, orderId);
  }

  /** Orders matching every given filter, newest first. */
  listOrders(filter: OrderFilter): OrderRecord[] {
    const profileId = filter.profileId === undefined ? undefined : this.profiles.get(filter.profileId, true).id;
    const refs = filter.refIds && filter.refIds.length > 0 ? new Set(filter.refIds) : undefined;
    const out: OrderRecord[] = [];
    const orders = this.entry.orders;
    for (let i = orders.length - 1; i >= 0; i--) {
      const o = orders[i]!;
      if (profileId !== undefined && o.profileId !== profileId) continue;
      if (filter.market !== undefined && o.market !== filter.market) continue;
      if (filter.status !== undefined && o.status !== filter.status) continue;
      if (refs !== undefined && (o.refId === undefined || !refs.has(o.refId))) continue;
      if (filter.beginMs !== undefined && o.createdAt < filter.beginMs) continue;
      if (filter.endMs !== undefined && o.createdAt > filter.endMs) continue;
      out.push(o);
    }
    return out;
  }

  /** Executions matching every given filter, newest first. */
  listExecutions(filter: ExecutionFilter): SimExecution[] {
    const profileId = filter.profileId === undefined ? undefined : this.profiles.get(filter.profileId, true).id;
    const since = filter.sinceExecutionId === undefined ? undefined : executionNumber(filter.sinceExecutionId);
    const out: SimExecution[] = [];
    const all = this.settlement.executions;
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i]!;
      if (profileId !== undefined && e.profileId !== profileId) continue;
      if (filter.orderId !== undefined && e.orderId !== filter.orderId) continue;
      if (since !== undefined && BigInt(e.executionId) <= since) continue;
      if (filter.beginMs !== undefined && e.executedAt < filter.beginMs) continue;
      if (filter.endMs !== undefined && e.executedAt > filter.endMs) continue;
      out.push(e);
    }
    return out;
  }
}

/** An execution id as a BigInt: ids of an instance's world pass 2^53, where a Number would round. */
function executionNumber(value: string): bigint {
  if (!/^\d{1,19}$/.test(value))
    throw new InputError('since_execution_id', `expected an execution id (digits), got ${JSON.stringify(value)}`);
  return BigInt(value);
}
