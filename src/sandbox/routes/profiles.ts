import { pageOf } from '../paging.js';
import { ownerOf } from '../../sim/owners.js';
import { badRequest, problem } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wireBalance, wireProfile } from '../wire.js';

function listProfiles(ctx: RouteContext): unknown {
  const q = ctx.query;
  const order = q.oneOf('order', ['ASC', 'DESC'] as const) ?? 'ASC';
  q.oneOf('order_by', ['CREATED_AT'] as const);
  const nickname = q.string('nickname')?.toLowerCase();
  const ids = q.array('ids');
  const bounds = {
    lt: q.time('created_at.lt'),
    lte: q.time('created_at.lte'),
    eq: q.time('created_at.eq'),
    gte: q.time('created_at.gte'),
    gt: q.time('created_at.gt'),
  };
  let profiles = ctx.sim.profiles.list().filter((p) => {
    if (ownerOf(p) !== ctx.owner) return false;
    if (nickname !== undefined && !p.nickname.toLowerCase().startsWith(nickname)) return false;
    if (ids.length > 0 && !ids.includes(p.id)) return false;
    const t = p.createdAt;
    return !(
      (bounds.lt !== undefined && t >= bounds.lt) ||
      (bounds.lte !== undefined && t > bounds.lte) ||
      (bounds.eq !== undefined && t !== bounds.eq) ||
      (bounds.gte !== undefined && t < bounds.gte) ||
      (bounds.gt !== undefined && t <= bounds.gt)
    );
  });
  if (order === 'DESC') profiles = profiles.reverse();
  const page = pageOf(profiles, (p) => p.seq, order === 'DESC', q.string('page_cursor'), q.int('limit', 1, 1000) ?? 1000);
  return { items: page.items.map(wireProfile), next_page_cursor: page.nextPageCursor };
}

/** The path's profile, which the caller's entity must own (403 otherwise). */
function profileParam(ctx: RouteContext): string {
  const id = ctx.params.profile_id;
  if (id === undefined || id === '') throw badRequest('profile_id', 'required in the path');
  const p = ctx.sim.profiles.get(id, true);
  if (ownerOf(p) !== ctx.owner) throw problem(403, `profile ${id} belongs to another entity: act only on profiles your credential owns`);
  return id;
}

/** Profiles and balances (scopes funding:read_profile / funding:write_profile). */
export const PROFILE_ROUTES: readonly Route[] = [
  { operation: 'ListProfiles', method: 'GET', path: '/v2/profiles', scope: 'funding:read_profile', handler: listProfiles },
  {
    operation: 'CreateProfile',
    method: 'POST',
    path: '/v2/profiles',
    scope: 'funding:write_profile',
    handler: async (ctx) => {
      const body = await ctx.body();
      return wireProfile(ctx.sim.profiles.create(body.nickname, body.description, ctx.sim.now(), ctx.owner));
    },
  },
  {
    operation: 'GetProfile',
    method: 'GET',
    path: '/v2/profiles/:profile_id',
    scope: 'funding:read_profile',
    handler: (ctx) => wireProfile(ctx.sim.profiles.get(profileParam(ctx), ctx.query.bool('include_deactivated'))),
  },
  {
    operation: 'UpdateProfile',
    method: 'PUT',
    path: '/v2/profiles/:profile_id',
    scope: 'funding:write_profile',
    handler: async (ctx) => {
      const body = await ctx.body();
      return wireProfile(ctx.sim.profiles.update(profileParam(ctx), body.nickname, body.description));
    },
  },
  {
    operation: 'ListProfileBalances',
    method: 'GET',
    path: '/v2/profiles/:profile_id/balances',
    scope: 'funding:read_profile',
    handler: (ctx) => ({ items: ctx.sim.accounts.balances(profileParam(ctx), ctx.query.array('assets')).map(wireBalance) }),
  },
  {
    operation: 'GetProfileBalance',
    method: 'GET',
    path: '/v2/profiles/:profile_id/balances/:asset',
    scope: 'funding:read_profile',
    handler: (ctx) => wireBalance(ctx.sim.accounts.balance(profileParam(ctx), ctx.params.asset ?? '')),
  },
  {
    operation: 'DeactivateProfile',
    method: 'PUT',
    path: '/v2/profiles/:profile_id/deactivate',
    scope: 'funding:write_profile',
    handler: (ctx) => {
      ctx.sim.deactivateProfile(profileParam(ctx));
      return {};
    },
  },
  {
    operation: 'CreateSandboxDeposit',
    method: 'POST',
    path: '/v2/sandbox/profiles/:profile_id/deposit',
    scope: 'funding:read_profile',
    handler: async (ctx) => {
      const body = await ctx.body();
      const r = ctx.sim.deposit({
        profileId: profileParam(ctx),
        asset: body.asset,
        amount: body.amount,
        cryptoNetwork: body.crypto_network,
        cryptoAddress: body.crypto_address,
      });
      return { activity_id: r.activityId };
    },
  },
];
