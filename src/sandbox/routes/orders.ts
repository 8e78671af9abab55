import { TRADING_MARKETS } from '../../core/markets.js';
import { type OrderFilter, type OrderRecord, type OrderStatus, isClosed } from '../../sim/index.js';
import { type SimPlatform } from '../../sim/sim.js';
import { pageOf } from '../paging.js';
import { badRequest } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wireExecution, wireOrder } from '../wire.js';

const STATUSES: readonly OrderStatus[] = ['PENDING_SUBMISSION', 'SUBMITTED', 'OPEN', 'FILLED', 'CANCELLED', 'REJECTED'];
const MAX_AWAIT_FILL_MS = 10_000;

async function createOrder(ctx: RouteContext): Promise<unknown> {
  const b = await ctx.body();
  const awaitMs = awaitFillMillis(b.await_fill_millis);
  ctx.sim.profiles.owned(ctx.params.profile_id ?? '', ctx.owner);
  const order = ctx.sim.placeOrder({
    profileId: ctx.params.profile_id ?? '',
    side: b.side,
    market: b.market,
    type: b.type,
    refId: b.ref_id,
    baseAmount: b.base_amount,
    quoteAmount: b.quote_amount,
    price: b.price,
    stopPrice: b.stop_price,
    timeInForce: b.time_in_force,
    expirationDate: b.expiration_date,
    metadata: b.metadata,
    identityId: b.identity_id,
    identityAccountId: b.identity_account_id,
    recipientProfileId: b.recipient_profile_id,
    selfMatchPreventionId: b.self_match_prevention_id,
  });
  await awaitFill(ctx.sim, order, awaitMs);
  return wireOrder(order);
}

function awaitFillMillis(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_AWAIT_FILL_MS)
    throw badRequest('await_fill_millis', `expected an integer from 0 to ${MAX_AWAIT_FILL_MS}`);
  return n;
}

/** Blocks (on the sim's clock) until the order is closed or `ms` pass. */
function awaitFill(sim: SimPlatform, order: OrderRecord, ms: number): Promise<void> {
  if (ms <= 0 || isClosed(order.status)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      timer.cancel();
      unsubscribe();
      resolve();
    };
    const timer = sim.clock.setTimeout(done, ms);
    const unsubscribe = sim.subscribe((e) => {
      if (e.kind === 'order' && e.order.id === order.id && isClosed(e.order.status)) done();
    });
  });
}

function orderFilter(ctx: RouteContext, profileId: string | undefined): OrderFilter {
  const q = ctx.query;
  const market = q.oneOf('market', TRADING_MARKETS);
  const status = q.oneOf('status', STATUSES);
  const beginMs = q.time('order_time.begin');
  const endMs = q.time('order_time.end');
  return {
    ...(profileId !== undefined ? { profileId } : {}),
    ...(market !== undefined ? { market } : {}),
    ...(status !== undefined ? { status } : {}),
    refIds: q.array('ref_ids'),
    ...(beginMs !== undefined ? { beginMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
  };
}

function listOrders(ctx: RouteContext, profileId: string | undefined): unknown {
  const orders = ctx.sim.listOrdersNow(orderFilter(ctx, profileId));
  const page = pageOf(orders, (o) => o.seq, true, ctx.query.string('page_cursor'), ctx.query.int('limit', 1, 1000) ?? 100);
  return { items: page.items.map(wireOrder), next_page_cursor: page.nextPageCursor };
}

function listExecutions(ctx: RouteContext, profileId: string | undefined, defaultLimit: number, maxLimit: number): unknown {
  const q = ctx.query;
  const orderId = q.string('order_id');
  const since = q.string('since_execution_id');
  const beginMs = q.time('range.begin');
  const endMs = q.time('range.end');
  const executions = ctx.sim.listExecutionsNow({
    ...(profileId !== undefined ? { profileId } : {}),
    ...(orderId !== undefined ? { orderId } : {}),
    ...(since !== undefined ? { sinceExecutionId: since } : {}),
    ...(beginMs !== undefined ? { beginMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
  });
  const page = pageOf(executions, (e) => e.seq, true, q.string('page_cursor'), q.int('limit', 1, maxLimit) ?? defaultLimit);
  return { items: page.items.map(wireExecution), next_page_cursor: page.nextPageCursor };
}

/** Orders and executions (scopes exchange:read_order / exchange:write_order). */
export const ORDER_ROUTES: readonly Route[] = [
  {
    operation: 'CreateOrder',
    method: 'POST',
    path: '/v2/profiles/:profile_id/orders',
    scope: 'exchange:write_order',
    handler: createOrder,
  },
  {
    operation: 'ListProfileOrders',
    method: 'GET',
    path: '/v2/profiles/:profile_id/orders',
    scope: 'exchange:read_order',
    handler: (ctx) => listOrders(ctx, ctx.params.profile_id),
  },
  {
    operation: 'ListOrders',
    method: 'GET',
    path: '/v2/orders',
    scope: 'exchange:read_order',
    handler: (ctx) => listOrders(ctx, ctx.query.string('profile_id')),
  },
  {
    operation: 'GetOrder',
    method: 'GET',
    path: '/v2/profiles/:profile_id/orders/:id',
    scope: 'exchange:read_order',
    handler: (ctx) => wireOrder(ctx.sim.getOrder(ctx.params.profile_id ?? '', ctx.params.id ?? '')),
  },
  {
    operation: 'CancelOrder',
    method: 'DELETE',
    path: '/v2/profiles/:profile_id/orders/:id',
    scope: 'exchange:write_order',
    handler: (ctx) => {
      ctx.sim.cancelOrder(ctx.params.profile_id ?? '', ctx.params.id ?? '');
      return {};
    },
  },
  {
    operation: 'ListExecutions',
    method: 'GET',
    path: '/v2/executions',
    scope: 'exchange:read_order',
    handler: (ctx) => listExecutions(ctx, ctx.query.string('profile_id'), 100, 1000),
  },
  {
    operation: 'ListProfileExecutions',
    method: 'GET',
    path: '/v2/profiles/:profile_id/executions',
    scope: 'exchange:read_order',
    handler: (ctx) => listExecutions(ctx, ctx.params.profile_id, 20, 500),
  },
];
