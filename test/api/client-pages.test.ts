import { afterEach, describe, expect, it } from 'vitest';
import { MalformedResponseError, ValidationError } from '../../src/api/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { clientFor } from './helpers.js';

let fake: FakePlatform;
afterEach(async () => {
  await fake?.close();
});

const transfer = (i: number) => ({ id: `t-${i}`, ref_id: `r-${i}`, amount: '1', asset: 'USD' });

describe('pagination', () => {
  it('follows next_page_cursor into page_cursor over several pages', async () => {
    fake = await FakePlatform.start();
    const all = Array.from({ length: 7 }, (_, i) => transfer(i));
    fake.on('GET', '/transfer/transfers', (r) => {
      const start = Number(r.query.get('page_cursor') ?? '0');
      const limit = Number(r.query.get('limit'));
      const next = start + limit < all.length ? String(start + limit) : '';
      return { json: { items: all.slice(start, start + limit), next_page_cursor: next } };
    });
    const client = clientFor(fake);
    const seen: string[] = [];
    for await (const t of client.paginate<{ id: string }>('ListTransfers', { query: { limit: 3, statuses: ['COMPLETED'] } })) seen.push(t.id);
    expect(seen).toEqual(all.map((t) => t.id));
    expect(fake.requests.map((r) => r.rawQuery)).toEqual([
      'statuses=COMPLETED&limit=3',
      'statuses=COMPLETED&limit=3&page_cursor=3',
      'statuses=COMPLETED&limit=3&page_cursor=6',
    ]);
    expect(await client.listAll('ListTransfers', { query: { limit: 5 } })).toHaveLength(7);
    await client.close();
  });

  it('stops when next_page_cursor is missing, and refuses a repeated cursor', async () => {
    fake = await FakePlatform.start();
    fake.sequence('GET', '/orders', [{ json: { items: [{ id: 'o1' }], next_page_cursor: 'c1' } }, { json: { items: [{ id: 'o2' }] } }]);
    fake.on('GET', '/executions', () => ({ json: { items: [{ execution_id: '1' }], next_page_cursor: 'same' } }));
    const client = clientFor(fake);
    expect((await client.listAll<{ id: string }>('ListOrders')).map((o) => o.id)).toEqual(['o1', 'o2']);
    await expect(client.listAll('ListExecutions')).rejects.toBeInstanceOf(MalformedResponseError);
    await expect(client.listAll('GetTicker', { path: { market: 'BTCUSD' } })).rejects.toBeInstanceOf(ValidationError);
    await client.close();
  });

  it('pages historical prices by pagination.offset until total_count', async () => {
    fake = await FakePlatform.start();
    const points = Array.from({ length: 5 }, (_, i) => ({ average_price: `${100 + i}`, timestamp: `2025-03-04T0${i}:00:00Z` }));
    fake.on('GET', '/markets/:market/historical-prices', (r) => {
      const offset = Number(r.query.get('pagination.offset'));
      const limit = Number(r.query.get('pagination.limit'));
      const key = offset === 0 ? 'prices' : 'items';
      return { json: { market: r.params.market, [key]: points.slice(offset, offset + limit), total_count: points.length } };
    });
    const client = clientFor(fake);
    const got = await client.listAll<{ average_price: string }>('ListHistoricalPrices', { path: { market: 'ETHUSD' }, query: { increment: 'ONE_HOUR', 'pagination.limit': 2 } });
    expect(got.map((p) => p.average_price)).toEqual(['100', '101', '102', '103', '104']);
    expect(fake.requests.map((r) => r.query.get('pagination.offset'))).toEqual(['0', '2', '4']);
    await client.close();
  });
});

describe('responses with two documented shapes', () => {
  it('normalises ListTickers (bare array or {tickers}), ListPrices and ListHistoricalPrices (prices ?? items)', async () => {
    fake = await FakePlatform.start();
    const t = { market: 'BTCUSD', best_bid: { price: '1', amount: '2' } };
    fake.sequence('GET', '/all-markets/ticker', [{ json: [t] }, { json: { tickers: [t] } }], { public: true });
    fake.sequence('GET', '/all-markets/prices', [{ json: { prices: [{ market: 'BTCUSD', current_price: '61205.11' }] } }, { json: { items: [{ market: 'ETHUSD', current_price: '3371.4' }] } }], { public: true });
    fake.on('GET', '/markets/:market/historical-prices', () => ({ json: { total_count: 1, items: [{ average_price: '3368.12', timestamp: '2025-03-04T09:00:00Z' }] } }));
    const client = clientFor(fake);
    expect(await client.listTickers()).toEqual([t]);
    expect(await client.listTickers()).toEqual([t]);
    expect((await client.listPrices(['BTCUSD'])).items[0]!.current_price).toBe('61205.11');
    expect((await client.listPrices(['ETHUSD'])).items[0]!.market).toBe('ETHUSD');
    const hp = await client.listHistoricalPrices('ETHUSD', { max_data_points: 10 });
    expect(hp.items).toHaveLength(1);
    expect(hp.total_count).toBe(1);
    await client.close();
  });

  it('gives an omitted items list as [] and raises MalformedResponseError on unusable bodies', async () => {
    fake = await FakePlatform.start();
    fake.on('GET', '/profiles/:profile_id/balances', () => ({ json: {} }));
    fake.sequence('GET', '/markets/:market/order-book', [{ text: '<html>oops</html>' }, { json: [1, 2] }, { json: { market: 'BTCUSD', bids: [{ price: 1, amount: '1' }], asks: [] } }], { public: true });
    fake.on('GET', '/orders', () => ({ json: { items: [1], next_page_cursor: 5 } }));
    fake.on('GET', '/quotes', () => ({ json: { items: 'nope' }, headers: { 'x-request-id': 'rq-9' } }));
    fake.on('GET', '/profiles/:profile_id/orders/:id', () => ({ json: { status: 'OPEN' } }));
    // no retries: each unusable body is seen with its own refusal (reads retry them otherwise)
    const client = clientFor(fake, { maxRetries: 0 });
    expect((await client.listProfileBalances('p1')).items).toEqual([]);
    const first = await client.getOrderBook('BTCUSD').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MalformedResponseError);
    expect((first as Error).message).toBe('GetOrderBook: malformed response body (not JSON)');
    await expect(client.getOrderBook('BTCUSD')).rejects.toThrow(/expected a JSON object/);
    await expect(client.getOrderBook('BTCUSD')).rejects.toThrow(/a bids level lacks price\/amount strings/);
    await expect(client.listOrders()).rejects.toThrow(/next_page_cursor is not a string/);
    await expect(client.listQuotes(['BTCUSD'])).rejects.toMatchObject({ code: 'MALFORMED_RESPONSE', requestId: 'rq-9' });
    await expect(client.getOrder('p1', 'o1')).rejects.toThrow('GetOrder: malformed response body (id is missing or not a string)');
    await client.close();
  });
});
