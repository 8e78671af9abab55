import { type Route, type RouteContext } from '../router.js';
import { wireTransfer } from '../wire.js';
import { wireDepositInstructions, wireFiatAccount } from '../wire-platform.js';
import { listPage, matches, timeBounds } from './list-helpers.js';

function listFiatAccounts(ctx: RouteContext): unknown {
  const q = ctx.query;
  const ids = q.array('ids');
  const refs = q.array('ref_ids');
  const deleted = q.bool('include_deleted');
  const all = ctx.sim.platform.fiatAccounts.list(ctx.owner, deleted).filter((a) => matches(ids, a.id) && matches(refs, a.refId));
  const page = listPage(q, all, { created: timeBounds(q, 'created_at') });
  return { items: page.items.map((a) => wireFiatAccount(a, ctx.shapes.withheld)), next_page_cursor: page.next_page_cursor };
}

function listInstructions(ctx: RouteContext): unknown {
  const q = ctx.query;
  const ids = q.array('ids');
  const refs = q.array('ref_ids');
  const all = ctx.sim.platform.fiat.listInstructions(ctx.owner).filter((x) => matches(ids, x.id) && matches(refs, x.refId));
  const page = listPage(q, all, { created: timeBounds(q, 'created_at') });
  return { items: page.items.map(wireDepositInstructions), next_page_cursor: page.next_page_cursor };
}

async function createFiatAccount(ctx: RouteContext): Promise<unknown> {
  const body = await ctx.body();
  const p = ctx.sim.platform;
  const identityId =
    typeof body.identity_id === 'string' && body.identity_id !== '' ? p.identities.get(body.identity_id, ctx.owner).id : undefined;
  const accountId =
    typeof body.account_id === 'string' && body.account_id !== '' ? p.accounts.get(body.account_id, ctx.owner).id : undefined;
  const links = { ...(identityId !== undefined ? { identityId } : {}), ...(accountId !== undefined ? { accountId } : {}) };
  return wireFiatAccount(p.fiatAccounts.create(body, ctx.owner, links, ctx.sim.now()));
}

/** Fiat accounts, deposit instructions, fiat withdrawals and the sandbox fiat deposit. */
export const FIAT_ROUTES: readonly Route[] = [
  {
    operation: 'ListFiatAccounts',
    method: 'GET',
    path: '/v2/transfer/fiat-accounts',
    scope: 'transfer:read_fiat_account',
    handler: listFiatAccounts,
  },
  {
    operation: 'CreateFiatAccount',
    method: 'POST',
    path: '/v2/transfer/fiat-accounts',
    scope: 'transfer:write_fiat_account',
    handler: createFiatAccount,
  },
  {
    operation: 'GetFiatAccount',
    method: 'GET',
    path: '/v2/transfer/fiat-accounts/:id',
    scope: 'transfer:read_fiat_account',
    handler: (ctx) => {
      const deleted = ctx.query.bool('include_deleted');
      return wireFiatAccount(ctx.sim.platform.fiatAccounts.get(ctx.params.id ?? '', ctx.owner, deleted));
    },
  },
  {
    operation: 'UpdateFiatAccount',
    method: 'PUT',
    path: '/v2/transfer/fiat-accounts/:id',
    scope: 'transfer:write_fiat_account',
    handler: async (ctx) =>
      wireFiatAccount(ctx.sim.platform.fiatAccounts.update(ctx.params.id ?? '', await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'DeleteFiatAccount',
    method: 'DELETE',
    path: '/v2/transfer/fiat-accounts/:id',
    scope: 'transfer:write_fiat_account',
    handler: (ctx) => {
      ctx.sim.platform.fiatAccounts.remove(ctx.params.id ?? '', ctx.owner, ctx.sim.now());
      return {};
    },
  },
  {
    operation: 'ListFiatDepositInstructions',
    method: 'GET',
    path: '/v2/transfer/fiat-deposit-instructions',
    scope: 'transfer:read_fiat_deposit_instructions',
    handler: listInstructions,
  },
  {
    operation: 'CreateFiatDepositInstructions',
    method: 'POST',
    path: '/v2/transfer/fiat-deposit-instructions',
    scope: 'transfer:write_fiat_deposit_instructions',
    handler: async (ctx) => wireDepositInstructions(ctx.sim.platform.fiat.createInstructions(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'GetFiatDepositInstructions',
    method: 'GET',
    path: '/v2/transfer/fiat-deposit-instructions/:id',
    scope: 'transfer:read_fiat_deposit_instructions',
    handler: (ctx) => wireDepositInstructions(ctx.sim.platform.fiat.getInstructions(ctx.params.id ?? '', ctx.owner)),
  },
  {
    operation: 'CreateFiatWithdrawal',
    method: 'POST',
    path: '/v2/transfer/fiat-withdrawals',
    scope: 'transfer:write_fiat_withdrawal',
    handler: async (ctx) => wireTransfer(ctx.sim.platform.fiat.withdraw(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'InitiateSandboxFiatDeposit',
    method: 'POST',
    path: '/v2/sandbox/fiat-deposits',
    scope: 'transfer:write_sandbox_fiat_deposit',
    handler: async (ctx) => {
      ctx.sim.platform.fiat.sandboxDeposit(await ctx.body(), ctx.sim.now());
      return {};
    },
  },
];
