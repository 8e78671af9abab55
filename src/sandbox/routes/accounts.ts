import { type Route, type RouteContext } from '../router.js';
import { wireAccount } from '../wire-platform.js';
import { listPage, timeBounds } from './list-helpers.js';

function listAccounts(ctx: RouteContext): unknown {
  const q = ctx.query;
  const identityId = q.string('identity_id');
  const all = ctx.sim.platform.accounts.list(ctx.owner).filter((a) => identityId === undefined || a.identityId === identityId);
  const page = listPage(q, all, { created: timeBounds(q, 'created_at'), updated: timeBounds(q, 'updated_at') });
  return { items: page.items.map((a) => wireAccount(ctx.sim, a)), next_page_cursor: page.next_page_cursor };
}

const write = 'identity:write_account';

/** Accounts and account members (scopes identity:read_account / identity:write_account). */
export const ACCOUNT_ROUTES: readonly Route[] = [
  { operation: 'ListAccounts', method: 'GET', path: '/v2/identity/accounts', scope: 'identity:read_account', handler: listAccounts },
  {
    operation: 'CreateAccount',
    method: 'POST',
    path: '/v2/identity/accounts',
    scope: write,
    handler: async (ctx) => wireAccount(ctx.sim, ctx.sim.platform.accounts.create(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'GetAccount',
    method: 'GET',
    path: '/v2/identity/accounts/:id',
    scope: 'identity:read_account',
    handler: (ctx) => wireAccount(ctx.sim, ctx.sim.platform.accounts.get(ctx.params.id ?? '', ctx.owner)),
  },
  {
    operation: 'UpdateAccount',
    method: 'PUT',
    path: '/v2/identity/accounts',
    scope: write,
    handler: async (ctx) => wireAccount(ctx.sim, ctx.sim.platform.accounts.update(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'AddAccountMembers',
    method: 'POST',
    path: '/v2/identity/account-members',
    scope: write,
    handler: async (ctx) => {
      const { account, added } = ctx.sim.platform.accounts.addMembers(await ctx.body(), ctx.owner, ctx.sim.now());
      return { account_id: account.id, members: added.map((m) => ({ id: m.id, identity_id: m.identityId, roles: [...m.roles] })) };
    },
  },
  {
    operation: 'DeleteAccountMember',
    method: 'DELETE',
    path: '/v2/identity/account-members/:id',
    scope: write,
    handler: (ctx) => {
      ctx.sim.platform.accounts.removeMember(ctx.params.id ?? '', ctx.owner, ctx.sim.now());
      return {};
    },
  },
];
