import { type SimEvent, deriveEvents, withinBounds } from '../../sim/index.js';
import { ownerOf } from '../../sim/owners.js';
import { type SimPlatform } from '../../sim/sim.js';
import { problem } from '../problem.js';
import { type Route, type RouteContext } from '../router.js';
import { wireOrder, wireTransfer } from '../wire.js';
import { timeBounds } from './list-helpers.js';

/** The event feed of the caller's entity (orders and transfers of its profiles, its identities). */
function eventsOf(sim: SimPlatform, owner: string): SimEvent[] {
  const mine = (profileId: string): boolean => {
    try {
      return ownerOf(sim.profiles.get(profileId, true)) === owner;
    } catch {
      return false;
    }
  };
  return deriveEvents({
    orders: sim.orders().filter((o) => mine(o.profileId)),
    transfers: sim.allTransfers().filter((t) => mine(t.profileId)),
    identities: sim.platform.identities.list(owner),
    world: sim.instanceId ?? String(sim.seed),
  });
}

function wireEvent(e: SimEvent): Record<string, unknown> {
  const s = e.subject;
  const object =
    s.kind === 'order'
      ? wireOrder(s.order)
      : s.kind === 'transfer'
        ? wireTransfer(s.transfer)
        : { id: e.id, identity_id: s.identity.id, new_summary_status: s.newStatus, old_summary_status: s.oldStatus };
  return {
    id: e.id,
    type: e.type,
    object_type: e.objectType,
    object,
    created_at: new Date(e.createdAt).toISOString(),
    undelivered_webhooks: 0,
  };
}

/**
 * ListEvents: ascending by created_at, `created_at.*` bounds, `type`, `limit` 1–100 (default 100;
 * the platform pages by moving `created_at.gt` past the last event), `is_test` accepted (every
 * sandbox event is a test event).
 */
function listEvents(ctx: RouteContext): unknown {
  const q = ctx.query;
  const limit = q.int('limit', 1, 100) ?? 100;
  const type = q.string('type');
  q.bool('is_test');
  const bounds = timeBounds(q, 'created_at');
  const events = eventsOf(ctx.sim, ctx.owner).filter((e) => (type === undefined || e.type === type) && withinBounds(e.createdAt, bounds));
  return { events: events.slice(0, limit).map(wireEvent) };
}

function getEvent(ctx: RouteContext): unknown {
  ctx.query.bool('is_test');
  const id = ctx.params.id ?? '';
  const event = eventsOf(ctx.sim, ctx.owner).find((e) => e.id === id);
  if (event === undefined) throw problem(404, `event ${id} not found`);
  return wireEvent(event);
}

/** The event feed: events the platform raises for orders, transfers and identities. */
export const EVENT_ROUTES: readonly Route[] = [
  { operation: 'ListEvents', method: 'GET', path: '/v2/events', scope: 'events:read_event', handler: listEvents },
  { operation: 'GetEvent', method: 'GET', path: '/v2/events/:id', scope: 'events:read_event', handler: getEvent },
];
