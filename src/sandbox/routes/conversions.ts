import { type Route, type RouteContext } from '../router.js';
import { wireConversion } from '../wire-platform.js';
import { listPage, rangeBounds } from './list-helpers.js';

function listConversions(ctx: RouteContext): unknown {
  const q = ctx.query;
  const profileId = q.string('profile_id');
  const resolved = profileId === undefined ? undefined : ctx.sim.profiles.get(profileId, true).id;
  const refId = q.string('ref_id');
  const all = ctx.sim.platform.conversions
    .list(ctx.owner)
    .filter((c) => (resolved === undefined || c.profileId === resolved) && (refId === undefined || c.refId === refId));
  const page = listPage(q, all, { created: rangeBounds(q, 'created_at'), updated: rangeBounds(q, 'updated_at') });
  return { items: page.items.map(wireConversion), next_page_cursor: page.next_page_cursor };
}

const write = 'conversion:write_conversion_stablecoin';

/** Stablecoin conversions at 1:1. */
export const CONVERSION_ROUTES: readonly Route[] = [
  {
    operation: 'ListStablecoinConversions',
    method: 'GET',
    path: '/v2/conversion/stablecoins',
    scope: 'conversion:read_conversion_stablecoin',
    handler: listConversions,
  },
  {
    operation: 'CreateStablecoinConversion',
    method: 'POST',
    path: '/v2/conversion/stablecoins',
    scope: write,
    handler: async (ctx) => wireConversion(ctx.sim.platform.conversions.create(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'GetStablecoinConversion',
    method: 'GET',
    path: '/v2/conversion/stablecoins/:id',
    scope: 'conversion:read_conversion_stablecoin',
    handler: (ctx) => wireConversion(ctx.sim.platform.conversions.get(ctx.params.id ?? '', ctx.owner)),
  },
  {
    operation: 'CancelStablecoinConversion',
    method: 'DELETE',
    path: '/v2/conversion/stablecoins/:id',
    scope: write,
    handler: (ctx) => wireConversion(ctx.sim.platform.conversions.cancel(ctx.params.id ?? '', ctx.owner, ctx.sim.now())),
  },
];
