import { afterEach, describe, expect, it } from 'vitest';
import type { Order, OrderStatus, Transfer } from '../../src/api/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { ORDER, clientFor } from './helpers.js';

let fake: FakePlatform;
afterEach(async () => {
  await fake?.close();
});

/** Values the client has never heard of, as a later platform version might send them. */
const NEW_STATUS = 'PARTIALLY_CANCELLED';
const NEW_TYPE = 'STABLECOIN_BRIDGE_CREDIT';

const transfer = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  customer_id: 'c1',
  profile_id: 'p1',
  amount: '10',
  total: '10',
  fee: '0',
  asset: 'USDG',
  direction: 'CREDIT',
  type: 'CRYPTO_DEPOSIT',
  status: 'COMPLETED',
  created_at: '2025-03-04T10:00:00Z',
  updated_at: '2025-03-04T10:00:00Z',
  ...extra,
});

describe('enums accept values the client does not know', () => {
  it('passes unknown order, side, type and time-in-force values through reads and writes', async () => {
    fake = await FakePlatform.start();
    const unknown = { ...ORDER, status: NEW_STATUS, type: 'ICEBERG_LIMIT', side: 'SELL_SHORT', time_in_force: 'GTD' };
    fake.on('GET', '/profiles/:profile_id/orders/:id', () => ({ json: unknown }));
    fake.on('POST', '/profiles/:profile_id/orders', (r) => ({ json: { ...unknown, ref_id: (r.body as { ref_id: string }).ref_id } }));
    fake.on('GET', '/orders', () => ({ json: { items: [unknown, { ...ORDER, id: 'o2', status: 'FILLED' }], next_page_cursor: '' } }));
    const client = clientFor(fake);
    const got: Order = await client.getOrder('p1', ORDER.id);
    expect(got).toEqual(unknown);
    const created = await client.createOrder('p1', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '61250.50', base_amount: '0.015', ref_id: 'new-enum-1' });
    expect(created).toMatchObject({ status: NEW_STATUS, type: 'ICEBERG_LIMIT', ref_id: 'new-enum-1' });
    const statuses: OrderStatus[] = (await client.listOrders()).items.map((o) => o.status!);
    expect(statuses).toEqual([NEW_STATUS, 'FILLED']);
    // The write was sent once: an unfamiliar status is not an unknown outcome to resolve.
    expect(fake.requestsTo('POST', '/profiles/p1/orders')).toHaveLength(1);
    expect(fake.requestsTo('GET', '/orders')).toHaveLength(1);
    await client.close();
  });

  it('passes unknown transfer types, statuses, networks and secondary statuses through one page and every page', async () => {
    fake = await FakePlatform.start();
    const odd = transfer('t-new', { type: NEW_TYPE, status: 'RETURNED', direction: 'SIDEWAYS', crypto_network: 'NEW_CHAIN', secondary_status: { name: 'SANCTIONS_REVIEW' } });
    fake.on('GET', '/transfer/transfers', (r) => {
      const second = r.query.get('page_cursor') === 'p2';
      return { json: second ? { items: [transfer('t-plain')], next_page_cursor: '' } : { items: [odd], next_page_cursor: 'p2' } };
    });
    fake.on('GET', '/transfer/transfers/:id', () => ({ json: odd }));
    const client = clientFor(fake);
    const page = await client.listTransfers({ type: [NEW_TYPE] });
    expect(page.items).toEqual([odd]);
    expect(fake.requests.at(-1)!.rawQuery).toBe(`type=${NEW_TYPE}`);
    const all = await client.listAll<Transfer>('ListTransfers', {});
    expect(all.map((t) => [t.id, t.type, t.status])).toEqual([
      ['t-new', NEW_TYPE, 'RETURNED'],
      ['t-plain', 'CRYPTO_DEPOSIT', 'COMPLETED'],
    ]);
    const one = await client.getTransfer('t-new');
    expect([one.type, one.status, one.direction, one.crypto_network, one.secondary_status?.name]).toEqual([NEW_TYPE, 'RETURNED', 'SIDEWAYS', 'NEW_CHAIN', 'SANCTIONS_REVIEW']);
    await client.close();
  });

  it('passes unknown quote execution statuses, profile types and increments through', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/profiles/:profile_id/quote-executions/:id', () => ({ json: { id: 'qx1', profile_id: 'p1', quote_id: 'q1', status: 'REVERSED', market: 'BTCUSD', side: 'BUY' } }));
    fake.on('GET', '/profiles', () => ({ json: { items: [{ id: 'p1', nickname: 'vault', type: 'TREASURY' }], next_page_cursor: '' } }));
    fake.on('GET', '/markets/:market/historical-prices', () => ({ json: { items: [{ average_price: '60000', timestamp: '2025-03-04T10:00:00Z' }], increment: 'NINETY_SECONDS' } }));
    const client = clientFor(fake);
    expect((await client.getQuoteExecution('p1', 'qx1')).status).toBe('REVERSED');
    expect((await client.listProfiles()).items[0]!.type).toBe('TREASURY');
    const prices = await client.listHistoricalPrices('BTCUSD', { increment: 'NINETY_SECONDS' });
    expect(prices.items).toEqual([{ average_price: '60000', timestamp: '2025-03-04T10:00:00Z' }]);
    expect(fake.requests.at(-1)!.rawQuery).toBe('increment=NINETY_SECONDS');
    await client.close();
  });
});
