/**
 * The client's body rules on the order path: RestVenue's well-formed orders skip them (the gate
 * ruled the order, RestVenue checked every field's wire form), yet a malformed body is still refused
 * before anything is sent, whether it comes from a caller of the client or through RestVenue. Against
 * the fake platform over 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/index.js';
import { RestVenue } from '../../src/venue/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { ORDER, clientFor } from './helpers.js';

let fake: FakePlatform;
let api: ApiClient;

async function start(): Promise<void> {
  fake = await FakePlatform.start();
  fake.on('POST', '/profiles/:profile_id/orders', (r) => {
    const sent = r.body as Record<string, string>;
    return { json: { ...ORDER, ref_id: sent.ref_id, base_amount: sent.base_amount ?? ORDER.base_amount, price: sent.price ?? ORDER.price, amount_filled: '0' } };
  });
  api = clientFor(fake);
}

afterEach(async () => {
  await api?.close();
  await fake?.close();
});

const orders = () => fake.requestsTo('POST', '/profiles/p1/orders');

describe('order bodies', () => {
  it('a well-formed order from RestVenue reaches the venue with its wire fields', async () => {
    await start();
    const venue = new RestVenue(api, 'p1');
    const order = await venue.placeOrder({ refId: 'r-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.015', price: '61250.50', expiresAt: 1767225600000 });
    expect(order.orderId).toBe(ORDER.id);
    expect(orders().map((r) => r.body)).toEqual([{ ref_id: 'r-1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', base_amount: '0.015', price: '61250.50', expiration_date: '1767225600000' }]);
  });

  it('refuses a malformed order through RestVenue before sending it, naming the field', async () => {
    await start();
    const venue = new RestVenue(api, 'p1');
    await expect(venue.placeOrder({ refId: 'r-2', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.015', price: '6.1e4' })).rejects.toThrow(/price.*unsigned decimal string/);
    await expect(venue.placeOrder({ refId: 'r-3', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '-1', price: '61250.50' })).rejects.toThrow(/base_amount.*unsigned decimal string/);
    expect(orders()).toHaveLength(0);
  });

  it('refuses a malformed body from a caller of the client, flag or no flag only for its own builder', async () => {
    await start();
    await expect(api.createOrder('p1', { market: 'BTCUSD', side: 'BUY', type: 'LIMIT', base_amount: '1e-3', price: '61250.50' } as never)).rejects.toThrow(/base_amount.*unsigned decimal string.*CreateOrder/);
    await expect(api.createOrder('p1', { market: 'BTCUSD', type: 'LIMIT', base_amount: '0.001', price: '61250.50' } as never, { priority: 'high' })).rejects.toThrow(/side.*is required/);
    expect(orders()).toHaveLength(0);
    // the flag is the builder's promise that it checked: the client then takes the body as given
    await api.createOrder('p1', { ref_id: 'r-9', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', base_amount: '0.001', price: '61250.50' } as never, { bodyChecked: true });
    expect(orders()).toHaveLength(1);
  });
});
