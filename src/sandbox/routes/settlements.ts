import { SETTLEMENT_STATUSES } from '../../sim/index.js';
import { badRequest } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wireSettlement } from '../wire-platform.js';
import { listPage } from './list-helpers.js';

function listTransactions(ctx: RouteContext): unknown {
  const q = ctx.query;
  const statuses = q.array('statuses');
  for (const s of statuses)
    if (!(SETTLEMENT_STATUSES as readonly string[]).includes(s))
      throw badRequest('statuses', `${JSON.stringify(s)} is not valid: use ${SETTLEMENT_STATUSES.join(', ')}`);
  const source = q.string('source_profile_id');
  const target = q.string('target_profile_id');
  const all = ctx.sim.platform.settlements
    .list(ctx.owner)
    .filter(
      (s) =>
        (statuses.length === 0 || statuses.includes(s.status)) &&
        (source === undefined || s.sourceProfileId === source) &&
        (target === undefined || s.targetProfileId === target),
    );
  const page = listPage(q, all, { ordered: false, defaultOrder: 'DESC' });
  return { items: page.items.map(wireSettlement), next_page_cursor: page.next_page_cursor };
}

const write = 'settlement:write_transaction';
const id = (ctx: RouteContext): string => ctx.params.transaction_id ?? '';

/** Settlement transactions: create, list, get, affirm, cancel. */
export const SETTLEMENT_ROUTES: readonly Route[] = [
  {
    operation: 'ListTransactions',
    method: 'GET',
    path: '/v2/settlement/transactions',
    scope: 'settlement:read_transaction',
    handler: listTransactions,
  },
  {
    operation: 'CreateTransaction',
    method: 'POST',
    path: '/v2/settlement/transactions',
    scope: write,
    handler: async (ctx) => wireSettlement(ctx.sim.platform.settlements.create(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'GetTransaction',
    method: 'GET',
    path: '/v2/settlement/transactions/:transaction_id',
    scope: 'settlement:read_transaction',
    handler: (ctx) => wireSettlement(ctx.sim.platform.settlements.visible(id(ctx), ctx.owner)),
  },
  {
    operation: 'CancelTransaction',
    method: 'DELETE',
    path: '/v2/settlement/transactions/:transaction_id',
    scope: write,
    handler: (ctx) => wireSettlement(ctx.sim.platform.settlements.cancel(id(ctx), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'AffirmTransaction',
    method: 'PUT',
    path: '/v2/settlement/transactions/:transaction_id/affirm',
    scope: write,
    handler: (ctx) => wireSettlement(ctx.sim.platform.settlements.affirm(id(ctx), ctx.owner, ctx.sim.now())),
  },
];
