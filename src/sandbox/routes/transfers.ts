import { TRANSFER_TYPES, type TimeBounds, type TransferFilter } from '../../sim/index.js';
import { pageOf } from '../paging.js';
import { badRequest } from '../problem.js';
import { type Query } from '../query.js';
import { type Route, type RouteContext } from '../router.js';
import { wireTransfer, wireTransferLimit } from '../wire.js';

const STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
const SECONDARY = ['TRAVEL_RULE_INFO_REQUESTED', 'TRAVEL_RULE_REJECTED', 'CUSTOMER_REJECTED', 'PENDING_CUSTOMER_APPROVAL'] as const;
const BOUNDS = ['lt', 'lte', 'eq', 'gte', 'gt'] as const;

function enumArray(q: Query, name: string, allowed: readonly string[]): string[] {
  const values = q.array(name);
  for (const v of values)
    if (!allowed.includes(v)) throw badRequest(name, `${JSON.stringify(v)} is not valid: use one of ${allowed.join(', ')}`);
  return values;
}

function bounds(q: Query, family: 'created_at' | 'updated_at'): TimeBounds | undefined {
  const out: Record<string, number> = {};
  for (const b of BOUNDS) {
    const t = q.time(`${family}.${b}`);
    if (t !== undefined) out[b] = t;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** List Transfers' query, including the rule that `order_by` must match the timestamp filters used. */
function transferFilter(q: Query): TransferFilter {
  const created = bounds(q, 'created_at');
  const updated = bounds(q, 'updated_at');
  const orderBy = q.oneOf('order_by', ['CREATED_AT', 'UPDATED_AT'] as const) ?? (updated !== undefined ? 'UPDATED_AT' : 'CREATED_AT');
  if (updated !== undefined && orderBy !== 'UPDATED_AT')
    throw badRequest('order_by', 'updated_at.* filters need order_by=UPDATED_AT (order_by must match the timestamp filters used)');
  if (created !== undefined && orderBy === 'UPDATED_AT')
    throw badRequest('order_by', 'created_at.* filters need order_by=CREATED_AT (order_by must match the timestamp filters used)');
  const order = q.oneOf('order', ['ASC', 'DESC'] as const);
  return {
    profileIds: q.array('profile_ids'),
    identityIds: q.array('identity_ids'),
    accountIds: q.array('account_ids'),
    refIds: q.array('ref_ids'),
    ids: q.array('ids'),
    types: enumArray(q, 'type', TRANSFER_TYPES),
    groupIds: q.array('group_ids'),
    cryptoTxHashes: q.array('crypto_tx_hashes'),
    statuses: enumArray(q, 'statuses', STATUSES),
    secondaryStatuses: enumArray(q, 'secondary_statuses', SECONDARY),
    ...(created !== undefined ? { created } : {}),
    ...(updated !== undefined ? { updated } : {}),
    orderBy,
    ...(order !== undefined ? { order } : {}),
  };
}

function listTransfers(ctx: RouteContext): unknown {
  const q = ctx.query;
  const { items, keyOf, descending } = ctx.sim.listTransfers(transferFilter(q));
  const page = pageOf(items, keyOf, descending, q.string('page_cursor'), q.int('limit', 1, 1000) ?? 100);
  return { items: page.items.map(wireTransfer), next_page_cursor: page.nextPageCursor };
}

async function createInternalTransfer(ctx: RouteContext, kind: 'INTERNAL' | 'PAXOS'): Promise<unknown> {
  const b = await ctx.body();
  const cmd = {
    fromProfileId: b.from_profile_id,
    toProfileId: b.to_profile_id,
    asset: b.asset,
    amount: b.amount,
    refId: b.ref_id,
    metadata: b.metadata,
    recipientMetadata: b.recipient_metadata,
    fromIdentityId: b.from_identity_id,
    fromAccountId: b.from_account_id,
    toIdentityId: b.to_identity_id,
    toAccountId: b.to_account_id,
  };
  const now = ctx.sim.now();
  const debit =
    kind === 'INTERNAL' ? ctx.sim.platform.internalTransfer(cmd, ctx.owner, now) : ctx.sim.platform.platformTransfer(cmd, ctx.owner, now);
  ctx.sim.transfers.completeDue(now);
  return wireTransfer(debit);
}

function listTransferLimits(ctx: RouteContext): unknown {
  const type = ctx.query.oneOf('transfer_type', TRANSFER_TYPES);
  if (type === undefined) throw badRequest('transfer_type', 'required: one transfer type, e.g. transfer_type=INTERNAL_TRANSFER_DEBIT');
  return { items: ctx.sim.transferLimits(type).map(wireTransferLimit), next_page_cursor: '' };
}

/** Transfers, internal transfers and transfer limits (scopes transfer:*). */
export const TRANSFER_ROUTES: readonly Route[] = [
  { operation: 'ListTransfers', method: 'GET', path: '/v2/transfer/transfers', scope: 'transfer:read_transfer', handler: listTransfers },
  {
    operation: 'GetTransfer',
    method: 'GET',
    path: '/v2/transfer/transfers/:id',
    scope: 'transfer:read_transfer',
    handler: (ctx) => wireTransfer(ctx.sim.getTransfer(ctx.params.id ?? '')),
  },
  {
    operation: 'CreateInternalTransfer',
    method: 'POST',
    path: '/v2/transfer/internal',
    scope: 'transfer:write_internal_transfer',
    handler: (ctx) => createInternalTransfer(ctx, 'INTERNAL'),
  },
  {
    operation: 'CreatePaxosTransfer',
    method: 'POST',
    path: '/v2/transfer/paxos',
    scope: 'transfer:write_paxos_transfer',
    handler: (ctx) => createInternalTransfer(ctx, 'PAXOS'),
  },
  {
    operation: 'ListTransferLimits',
    method: 'GET',
    path: '/v2/transfer/limits/utilizations',
    scope: 'transfer:read_transfer_limit',
    handler: listTransferLimits,
  },
];
