import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError, allScopes, type ApiClient } from '../../src/api/index.js';
import { FakePlatform } from '../support/fake-platform.js';
import { clientFor } from './helpers.js';

let fake: FakePlatform;
let client: ApiClient;
const page = { json: { items: [], next_page_cursor: '' } };

beforeAll(async () => {
  fake = await FakePlatform.start();
  for (const path of ['/transfer/transfers', '/orders', '/executions', '/conversion/stablecoins', '/profiles', '/quotes', '/transfer/fiat-accounts']) {
    fake.on('GET', path, () => page);
  }
  fake.on('GET', '/profiles/:profile_id/quote-executions', () => page);
  fake.on('GET', '/profiles/:profile_id/balances', () => ({ json: { items: [] } }));
  fake.on('GET', '/markets/:market/historical-prices', () => ({ json: { prices: [], total_count: 0 } }));
  fake.on('GET', '/all-markets/prices', () => ({ json: { prices: [] } }), { public: true });
  client = clientFor(fake, { scopes: allScopes() });
});
afterAll(async () => {
  await client.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const lastQuery = (): string => fake.requests[fake.requests.length - 1]!.rawQuery;

describe('query encoding on the wire', () => {
  it('repeats plain names for arrays and keeps created_at.* / updated_at.* names verbatim', async () => {
    await client.listTransfers({
      statuses: ['PENDING', 'FAILED'], type: ['CRYPTO_DEPOSIT', 'CRYPTO_WITHDRAWAL'], profile_ids: ['p1'],
      'created_at.gte': '2024-01-01T00:00:00Z', 'updated_at.lt': '2024-02-01T00:00:00.123456789+01:00', order: 'ASC', order_by: 'CREATED_AT', limit: 50,
    });
    expect(lastQuery()).toBe(
      'profile_ids=p1&type=CRYPTO_DEPOSIT&type=CRYPTO_WITHDRAWAL&statuses=PENDING&statuses=FAILED' +
        '&created_at.gte=2024-01-01T00%3A00%3A00Z&updated_at.lt=2024-02-01T00%3A00%3A00.123456789%2B01%3A00&limit=50&order=ASC&order_by=CREATED_AT',
    );
    const q = fake.requests[0]!.query;
    expect(q.getAll('statuses')).toEqual(['PENDING', 'FAILED']);
    expect(q.get('updated_at.lt')).toBe('2024-02-01T00:00:00.123456789+01:00');
  });

  it('encodes inclusive ranges: order_time.begin/end, range.begin/end, created_at.begin/end', async () => {
    await client.listOrders({ 'order_time.begin': '2025-03-04T00:00:00Z', 'order_time.end': '2025-03-05T00:00:00Z', ref_ids: ['a', 'b'], market: 'BTCUSD', status: 'OPEN' });
    expect(fake.requests[0]!.query.get('order_time.begin')).toBe('2025-03-04T00:00:00Z');
    expect(fake.requests[0]!.query.getAll('ref_ids')).toEqual(['a', 'b']);
    await client.listExecutions({ 'range.begin': '2025-03-04T00:00:00Z', since_execution_id: '88123457' });
    expect(lastQuery()).toBe('since_execution_id=88123457&range.begin=2025-03-04T00%3A00%3A00Z');
    await client.listQuoteExecutions('p1', { 'created_at.begin': '2025-03-04T00:00:00Z', side: 'BUY' });
    expect(lastQuery()).toBe('side=BUY&created_at.begin=2025-03-04T00%3A00%3A00Z');
    await client.listStablecoinConversions({ ref_id: 'r', 'updated_at.end': '2025-03-04T00:00:00Z' });
    expect(lastQuery()).toBe('ref_id=r&updated_at.end=2025-03-04T00%3A00%3A00Z');
  });

  it('encodes pagination.limit/offset, booleans and required arrays', async () => {
    await client.listHistoricalPrices('ETHUSD', { increment: 'ONE_HOUR', 'pagination.limit': 10, 'pagination.offset': 20 });
    expect(lastQuery()).toBe('increment=ONE_HOUR&pagination.limit=10&pagination.offset=20');
    await client.listFiatAccounts({ include_deleted: true });
    expect(lastQuery()).toBe('include_deleted=true');
    await client.listPrices(['BTCUSD', 'ETHUSD']);
    expect(lastQuery()).toBe('markets=BTCUSD&markets=ETHUSD');
    await client.listProfileBalances('p1');
    expect(lastQuery()).toBe('');
    await client.call('ListProfileBalances', { path: { profile_id: 'p 1/x' }, query: { assets: 'BTC' } });
    expect(fake.requests[fake.requests.length - 1]!.path).toBe('/profiles/p%201%2Fx/balances');
    expect(lastQuery()).toBe('assets=BTC');
  });
});

async function rejected(p: Promise<unknown>): Promise<ValidationError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  expect(fake.requests).toHaveLength(0);
  return err as ValidationError;
}

describe('validation before sending (no request made)', () => {
  it('names unknown query parameters and lists the valid ones', async () => {
    const err = await rejected(client.call('ListOrders', { query: { 'order_time.start': '2025-01-01T00:00:00Z' } }));
    expect(err.field).toBe('order_time.start');
    expect(err.message).toContain('order_time.begin');
    expect(err.code).toBe('INPUT_INVALID');
  });

  it('limits array filters to 100 values, limit to 1000 (500 for profile executions)', async () => {
    expect((await rejected(client.listTransfers({ ids: Array.from({ length: 101 }, (_, i) => `id-${i}`) }))).field).toBe('ids');
    expect((await rejected(client.listOrders({ limit: 1001 }))).message).toContain('at most 1000');
    expect((await rejected(client.listProfileExecutions('p1', { limit: 501 }))).message).toContain('at most 500');
    expect((await rejected(client.listOrders({ limit: 1.5 }))).field).toBe('limit');
    expect((await rejected(client.listTaxForms({ account_ids: Array.from({ length: 51 }, () => 'a'), tax_year: '2024' }))).message).toContain('at most 50');
  });

  it('requires RFC 3339 timestamps, required parameters and path parameters', async () => {
    expect((await rejected(client.listOrders({ 'order_time.begin': '2025-03-04 10:00' }))).message).toContain('RFC 3339');
    expect((await rejected(client.call('ListQuotes', {}))).field).toBe('markets');
    expect((await rejected(client.getOrder('p1', ''))).field).toBe('id');
    expect((await rejected(client.call('NoSuchOperation'))).field).toBe('operationId');
  });

  it('requires exactly one of increment and max_data_points', async () => {
    expect((await rejected(client.listHistoricalPrices('BTCUSD', {}))).field).toBe('increment/max_data_points');
    await rejected(client.listHistoricalPrices('BTCUSD', { increment: 'ONE_DAY', max_data_points: 10 }));
  });

  it('checks decimal strings and their precision', async () => {
    expect((await rejected(client.createOrder('p1', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '-1', base_amount: '1' }))).field).toBe('price');
    await rejected(client.createOrder('p1', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '1e5', base_amount: '1' }));
    await rejected(client.createOrder('p1', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '1.', base_amount: '1' }));
    const qe = await rejected(client.createQuoteExecution('p1', { quote_id: 'q', base_amount: '0.000000001' }));
    expect(qe.message).toContain('at most 8');
    expect((await rejected(client.createQuoteExecution('p1', { quote_id: 'q', quote_amount: '10.001' }))).field).toBe('quote_amount');
    expect((await rejected(client.createInternalTransfer({ from_profile_id: 'a', to_profile_id: 'b', asset: 'USD', amount: '1.234' }))).field).toBe('amount');
    expect((await rejected(client.createFiatWithdrawal({ asset: 'USD', fiat_account_id: 'f', profile_id: 'p', total: '1.001' }))).field).toBe('total');
  });

  it('enforces exactly-one-of and both-or-neither rules', async () => {
    expect((await rejected(client.createQuoteExecution('p1', { quote_id: 'q', base_amount: '1', quote_amount: '1' }))).field).toBe('base_amount/quote_amount');
    await rejected(client.createQuoteExecution('p1', { quote_id: 'q' }));
    expect((await rejected(client.createFiatWithdrawal({ asset: 'USD', fiat_account_id: 'f', profile_id: 'p' }))).field).toBe('amount/total');
    await rejected(client.createCryptoWithdrawal({ profile_id: 'p', asset: 'BTC', destination_address: 'x', crypto_network: 'BITCOIN', amount: '1', total: '1' }));
    await rejected(client.createCryptoWithdrawalFee({ asset: 'BTC', destination_address: 'x', crypto_network: 'BITCOIN' }));
    expect((await rejected(client.createOrder('p1', { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '1', identity_id: 'i' }))).field).toBe('identity_id/identity_account_id');
  });

  it('checks metadata (≤ 6 pairs, ≤ 100 characters) and the memo charset and length', async () => {
    const seven = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, 'v']));
    expect((await rejected(client.createOrder('p1', { side: 'SELL', market: 'BTCUSD', type: 'MARKET', base_amount: '1', metadata: seven }))).field).toBe('metadata');
    expect((await rejected(client.createInternalTransfer({ from_profile_id: 'a', to_profile_id: 'b', asset: 'BTC', amount: '1', recipient_metadata: { k: 'v'.repeat(101) } }))).field).toBe('recipient_metadata.k');
    const base = { asset: 'USD', fiat_account_id: 'f', profile_id: 'p', amount: '10.00' };
    expect((await rejected(client.createFiatWithdrawal({ ...base, memo: 'invoice #12' }))).field).toBe('memo');
    await rejected(client.createFiatWithdrawal({ ...base, memo: 'a'.repeat(101) }));
    expect((await rejected(client.createAccount({ account: { identity_id: '' } }))).field).toBe('account.identity_id');
    expect((await rejected(client.call('DeactivateProfile', { path: { profile_id: 'p' }, body: {} }))).field).toBe('body');
    expect((await rejected(client.call('CreateProfile', {}))).field).toBe('body');
  });
});
