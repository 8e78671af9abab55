import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { SimPlatform } from '../sim.js';
import { PRIMARY_ENTITY } from '../owners.js';
import { deriveEvents } from './events.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

function feed(sim: SimPlatform): ReturnType<typeof deriveEvents> {
  return deriveEvents({
    orders: sim.orders(),
    transfers: sim.allTransfers(),
    identities: sim.platform.identities.list(PRIMARY_ENTITY),
    world: 'w-1',
  });
}

describe('the event feed derived from the records', () => {
  it('orders events of one millisecond by kind, record, then start before end; a transfer that waited raises pending then completed', () => {
    const clock = new TestClock(T0);
    const sim = new SimPlatform({ clock, seed: 3, funding: { USD: '10000' } });
    const bot = sim.profiles.create('bot', undefined, sim.now());
    expect(feed(sim).map((e) => e.type)).toEqual(['transfer.wire_deposit.completed']);
    sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'MARKET', quoteAmount: '100', refId: 'm-1' });
    sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '10', refId: 't-1' });
    const now = feed(sim);
    expect(now.map((e) => e.type)).toEqual([
      'order.created',
      'order.filled',
      'transfer.wire_deposit.completed',
      'transfer.internal_transfer_credit.pending',
      'transfer.internal_transfer_debit.pending',
    ]);
    expect(now.every((e) => e.createdAt === T0)).toBe(true);
    clock.advance(1_000);
    sim.advanceTo(clock.now());
    const later = feed(sim);
    expect(later.slice(0, 5)).toEqual(now);
    expect(later.slice(5).map((e) => [e.type, e.createdAt])).toEqual([
      ['transfer.internal_transfer_credit.completed', T0 + 1_000],
      ['transfer.internal_transfer_debit.completed', T0 + 1_000],
    ]);
  });

  it('gives each event an id fixed by world, record and type', () => {
    const sim = new SimPlatform({ clock: new TestClock(T0), seed: 3, funding: { USD: '10000' } });
    sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'MARKET', quoteAmount: '100' });
    const ids = feed(sim).map((e) => e.id);
    expect(feed(sim).map((e) => e.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const other = deriveEvents({ orders: sim.orders(), transfers: sim.allTransfers(), identities: [], world: 'w-2' }).map((e) => e.id);
    expect(other.filter((id) => ids.includes(id))).toEqual([]);
  });
});
