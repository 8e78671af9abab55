import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, type ListTransfersQuery, type Transfer, allScopes, createApiClient } from '../../src/api/index.js';
import { D } from '../../src/core/decimal.js';
import { T0, type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';
import { approvedPerson } from '../support/sandbox-platform.js';

describe('sandbox quotes, quote executions, transfers and limits over HTTP', () => {
  let sb: TestSandbox;
  let token: string;

  beforeEach(async () => {
    sb = await startTestSandbox({
      funding: { USD: '10000' },
      sim: { transferLimits: [{ transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 3600, limit: '1000' }] },
    });
    token = await sb.http.token();
  });
  afterEach(() => sb.close());

  const buyQuote = async (market = 'BTCUSD'): Promise<{ id: string; price: string; expires_at: string }> => {
    const r = await sb.http.get(`/v2/quotes?markets=${market}`, token);
    return r.body.items.find((q: { side: string }) => q.side === 'BUY');
  };

  it('executes a quote: CREATED with funds locked, then SETTLED with balances moved', async () => {
    const q = await buyQuote();
    const created = await sb.http.post(
      '/v2/profiles/default/quote-executions',
      { quote_id: q.id, quote_amount: '250.00', ref_id: 'qe-1' },
      token,
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'CREATED',
      quote_id: q.id,
      ref_id: 'qe-1',
      quote_amount: '250.00',
      side: 'BUY',
      price: q.price,
    });
    expect(created.body.base_amount).toBe(new D(250).div(q.price).toDecimalPlaces(8, D.ROUND_DOWN).toFixed());
    expect((await sb.http.get('/v2/profiles/default/balances/USD', token)).body).toEqual({
      asset: 'USD',
      available: '9750',
      trading: '250',
    });
    sb.advance(1000);
    const settled = await sb.http.get(`/v2/profiles/default/quote-executions/${created.body.id}`, token);
    expect(settled.body).toMatchObject({ status: 'SETTLED', settled_at: new Date(T0 + 1000).toISOString() });
    expect((await sb.http.get('/v2/profiles/default/balances/USD', token)).body).toEqual({ asset: 'USD', available: '9750', trading: '0' });
    expect((await sb.http.get('/v2/profiles/default/balances/BTC', token)).body.available).toBe(created.body.base_amount);
  });

  it('refuses an expired quote (403 expired with meta.expired_at), an unknown quote (404) and missing funds (403)', async () => {
    const q = await buyQuote();
    const poor = await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: q.id, quote_amount: '10000.01' }, token);
    expect([poor.status, poor.body.type, poor.body.meta]).toEqual([
      403,
      'https://developer.paxos.com/docs/v2/problems/insufficient-funds',
      expect.objectContaining({ asset: 'USD', needed: '10000.01' }),
    ]);
    const unknown = await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: 'nope', quote_amount: '1' }, token);
    expect(unknown.status).toBe(404);
    sb.advance(30_001);
    const late = await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: q.id, quote_amount: '1' }, token);
    expect(late.status).toBe(403);
    expect(late.contentType).toContain('application/problem+json');
    expect(late.body).toMatchObject({
      type: 'https://developer.paxos.com/docs/v2/problems/expired',
      title: 'Expired',
      meta: { expired_at: q.expires_at },
    });
    const both = await sb.http.post(
      '/v2/profiles/default/quote-executions',
      { quote_id: q.id, quote_amount: '1', base_amount: '0.1' },
      token,
    );
    expect([both.status, both.body.meta]).toEqual([400, { field: 'quote_amount' }]);
  });

  it('answers 409 with meta.existing when a ref_id is reused, creating nothing', async () => {
    const q = await buyQuote();
    const first = await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: q.id, quote_amount: '10', ref_id: 'dup' }, token);
    const again = await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: q.id, quote_amount: '10', ref_id: 'dup' }, token);
    expect(again.status).toBe(409);
    expect(again.body.meta.existing).toEqual(first.body);
    expect(sb.handle.sim.quoteExecutions()).toHaveLength(1);
  });

  it('lists quote executions with filters, total_count and cursor paging', async () => {
    for (let i = 0; i < 5; i++) {
      const q = await buyQuote(i % 2 === 0 ? 'BTCUSD' : 'ETHUSD');
      await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: q.id, quote_amount: '10', ref_id: `l-${i}` }, token);
      sb.advance(400);
    }
    const page1 = await sb.http.get('/v2/profiles/default/quote-executions?limit=2', token);
    expect(page1.body.total_count).toBe(5);
    expect(page1.body.items.map((x: { ref_id: string }) => x.ref_id)).toEqual(['l-4', 'l-3']);
    const page2 = await sb.http.get(`/v2/profiles/default/quote-executions?limit=2&page_cursor=${page1.body.next_page_cursor}`, token);
    expect(page2.body.items.map((x: { ref_id: string }) => x.ref_id)).toEqual(['l-2', 'l-1']);
    const eth = await sb.http.get('/v2/profiles/default/quote-executions?market=ETHUSD&order=ASC', token);
    expect(eth.body.items.map((x: { ref_id: string }) => x.ref_id)).toEqual(['l-1', 'l-3']);
    const created = await sb.http.get('/v2/profiles/default/quote-executions?status=CREATED', token);
    expect(created.body.items.map((x: { ref_id: string }) => x.ref_id)).toEqual(['l-4', 'l-3']);
  });

  it('moves balances with an internal transfer and shows both legs in List Transfers', async () => {
    const bot = (await sb.http.post('/v2/profiles', { nickname: 'bot' }, token)).body;
    const debit = await sb.http.post(
      '/v2/transfer/internal',
      { from_profile_id: 'default', to_profile_id: bot.id, asset: 'USD', amount: '300', ref_id: 'mv-1', metadata: { why: 'fund bot' } },
      token,
    );
    expect(debit.body).toMatchObject({
      type: 'INTERNAL_TRANSFER_DEBIT',
      direction: 'DEBIT',
      status: 'PENDING',
      amount: '300',
      ref_id: 'mv-1',
      metadata: { why: 'fund bot' },
    });
    sb.advance(1000);
    const legs = await sb.http.get(`/v2/transfer/transfers?group_ids=${debit.body.group_id}`, token);
    expect(legs.body.items.map((t: { type: string; status: string; profile_id: string }) => [t.type, t.status, t.profile_id])).toEqual([
      ['INTERNAL_TRANSFER_DEBIT', 'COMPLETED', debit.body.profile_id],
      ['INTERNAL_TRANSFER_CREDIT', 'COMPLETED', bot.id],
    ]);
    expect((await sb.http.get(`/v2/profiles/${bot.id}/balances/USD`, token)).body.available).toBe('300');
    expect((await sb.http.get('/v2/profiles/default/balances/USD', token)).body.available).toBe('9700');
    const dup = await sb.http.post(
      '/v2/transfer/internal',
      { from_profile_id: 'default', to_profile_id: bot.id, asset: 'USD', amount: '300', ref_id: 'mv-1' },
      token,
    );
    expect([dup.status, dup.body.meta.existing.id]).toEqual([409, debit.body.id]);
    expect(
      (await sb.http.post('/v2/transfer/internal', { from_profile_id: bot.id, to_profile_id: 'default', asset: 'BTC', amount: '1' }, token))
        .status,
    ).toBe(403);
    expect(
      (
        await sb.http.post(
          '/v2/transfer/internal',
          { from_profile_id: 'ghost', to_profile_id: 'default', asset: 'USD', amount: '1' },
          token,
        )
      ).status,
    ).toBe(404);
  });

  it('lowers remaining transfer limits, refuses a transfer over them naming the limit, and recovers after the period', async () => {
    const bot = (await sb.http.post('/v2/profiles', { nickname: 'bot' }, token)).body;
    const limits = async (): Promise<string[]> =>
      (await sb.http.get('/v2/transfer/limits/utilizations?transfer_type=INTERNAL_TRANSFER_DEBIT', token)).body.items.map(
        (l: { remaining: string }) => l.remaining,
      );
    expect(await limits()).toEqual(['1000']);
    await sb.http.post('/v2/transfer/internal', { from_profile_id: 'default', to_profile_id: bot.id, asset: 'USD', amount: '700' }, token);
    expect(await limits()).toEqual(['300']);
    const over = await sb.http.post(
      '/v2/transfer/internal',
      { from_profile_id: 'default', to_profile_id: bot.id, asset: 'USD', amount: '300.01' },
      token,
    );
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({
      type: 'about:blank',
      title: 'Forbidden',
      meta: { transfer_type: 'INTERNAL_TRANSFER_DEBIT', period_seconds: '3600', limit: '1000', remaining: '300', limit_asset: 'USD' },
    });
    expect(over.body.detail).toContain(over.body.meta.rule_id);
    sb.advance(3_600_000);
    token = await sb.http.token();
    expect(await limits()).toEqual(['1000']);
    expect((await sb.http.get('/v2/transfer/limits/utilizations', token)).status).toBe(400);
  });

  it('filters and pages List Transfers, enforcing that order_by matches the timestamp filters', async () => {
    const bot = (await sb.http.post('/v2/profiles', { nickname: 'bot' }, token)).body;
    for (let i = 0; i < 3; i++) {
      await sb.http.post(
        '/v2/transfer/internal',
        { from_profile_id: 'default', to_profile_id: bot.id, asset: 'USD', amount: '1', ref_id: `p-${i}` },
        token,
      );
      sb.advance(2000);
    }
    const debits = '/v2/transfer/transfers?type=INTERNAL_TRANSFER_DEBIT&limit=2';
    const page1 = await sb.http.get(debits, token);
    expect(page1.body.items.map((t: { ref_id: string }) => t.ref_id)).toEqual(['p-2', 'p-1']);
    const page2 = await sb.http.get(`${debits}&page_cursor=${page1.body.next_page_cursor}`, token);
    expect([page2.body.items.map((t: { ref_id: string }) => t.ref_id), page2.body.next_page_cursor]).toEqual([['p-0'], '']);
    const byRef = await sb.http.get('/v2/transfer/transfers?ref_ids=p-1&profile_ids=' + bot.id, token);
    expect(byRef.body.items.map((t: { type: string }) => t.type)).toEqual(['INTERNAL_TRANSFER_CREDIT']);
    const since = new Date(T0 + 2500).toISOString();
    const updated = await sb.http.get(
      `/v2/transfer/transfers?order_by=UPDATED_AT&updated_at.gte=${since}&type=INTERNAL_TRANSFER_DEBIT`,
      token,
    );
    expect(updated.body.items.map((t: { ref_id: string }) => t.ref_id)).toEqual(['p-1', 'p-2']);
    const mixed = await sb.http.get(`/v2/transfer/transfers?order_by=CREATED_AT&updated_at.gte=${since}`, token);
    expect([mixed.status, mixed.body.meta]).toEqual([400, { field: 'order_by' }]);
    expect((await sb.http.get('/v2/transfer/transfers?statuses=DONE', token)).status).toBe(400);
    const deposits = await sb.http.get('/v2/transfer/transfers?type=WIRE_DEPOSIT', token);
    expect(deposits.body.items).toHaveLength(1);
  });

  it('filters List Transfers by ids, identity_ids, account_ids, crypto_tx_hashes and created_at.* through the client', async () => {
    const api = createApiClient({
      apiUrl: sb.handle.apiUrl,
      tokenUrl: sb.handle.tokenUrl,
      clientId: 'tradeloop-local',
      clientSecret: 'tradeloop-local-secret',
      scopes: allScopes(),
    });
    try {
      const at = (ms: number): string => new Date(T0 + ms).toISOString();
      const bot = (await api.createProfile({ nickname: 'bot' })).id;
      const [aliceId, aliceAcct] = await verifiedAccount(api, 'alice');
      const [bobId, bobAcct] = await verifiedAccount(api, 'bob');
      const [carolId, carolAcct] = await verifiedAccount(api, 'carol');
      sb.advance(1000);
      await api.createSandboxDeposit('default', { asset: 'BTC', amount: '0.5', crypto_network: 'BITCOIN' });
      sb.advance(1000);
      await api.createSandboxDeposit('default', { asset: 'ETH', amount: '2', crypto_network: 'ETHEREUM' });
      sb.advance(1000);
      const alice = await api.createInternalTransfer({
        from_profile_id: 'default',
        to_profile_id: bot,
        asset: 'USD',
        amount: '10',
        ref_id: 'f-alice',
        from_identity_id: aliceId,
        from_account_id: aliceAcct,
        to_identity_id: bobId,
        to_account_id: bobAcct,
      });
      sb.advance(1000);
      const carol = await api.createInternalTransfer({
        from_profile_id: 'default',
        to_profile_id: bot,
        asset: 'USD',
        amount: '20',
        ref_id: 'f-carol',
        from_identity_id: carolId,
        from_account_id: carolAcct,
      });
      const list = async (q: ListTransfersQuery): Promise<Transfer[]> => [
        ...(await api.listTransfers({ ...q, order: 'ASC', limit: 1000 })).items,
      ];
      const label = (t: Transfer): string =>
        `${t.type}${t.ref_id !== undefined ? ` ${t.ref_id}` : ''}${t.crypto_network !== undefined ? ` ${t.asset}` : ''}`;
      const names = async (q: ListTransfersQuery): Promise<string[]> => (await list(q)).map(label);
      const all = await list({});
      expect(all.map(label)).toEqual([
        'WIRE_DEPOSIT',
        'CRYPTO_DEPOSIT BTC',
        'CRYPTO_DEPOSIT ETH',
        'INTERNAL_TRANSFER_CREDIT f-alice',
        'INTERNAL_TRANSFER_DEBIT f-alice',
        'INTERNAL_TRANSFER_CREDIT f-carol',
        'INTERNAL_TRANSFER_DEBIT f-carol',
      ]);
      const [, btc, eth, aliceCredit] = all;

      expect((await list({ ids: [eth!.id, carol.id] })).map((t) => t.id)).toEqual([eth!.id, carol.id]);
      expect(await list({ ids: ['no-such-transfer'] })).toEqual([]);

      expect(await names({ identity_ids: [aliceId] })).toEqual(['INTERNAL_TRANSFER_DEBIT f-alice']);
      expect(await names({ identity_ids: [bobId] })).toEqual(['INTERNAL_TRANSFER_CREDIT f-alice']);
      expect((await list({ identity_ids: [aliceId, carolId] })).map((t) => t.id)).toEqual([alice.id, carol.id]);
      expect(await names({ account_ids: [bobAcct] })).toEqual(['INTERNAL_TRANSFER_CREDIT f-alice']);
      expect((await list({ account_ids: [aliceAcct, carolAcct] })).map((t) => t.identity_id)).toEqual([aliceId, carolId]);
      expect((await list({ account_ids: [bobAcct] }))[0]!.id).toBe(aliceCredit!.id);
      expect(await list({ identity_ids: ['no-such-identity'] })).toEqual([]);

      expect(btc!.crypto_tx_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await names({ crypto_tx_hashes: [eth!.crypto_tx_hash!] })).toEqual(['CRYPTO_DEPOSIT ETH']);
      expect(await names({ crypto_tx_hashes: [btc!.crypto_tx_hash!, eth!.crypto_tx_hash!] })).toEqual([
        'CRYPTO_DEPOSIT BTC',
        'CRYPTO_DEPOSIT ETH',
      ]);

      expect(await names({ 'created_at.eq': at(2000) })).toEqual(['CRYPTO_DEPOSIT ETH']);
      expect(await names({ 'created_at.lt': at(2000) })).toEqual(['WIRE_DEPOSIT', 'CRYPTO_DEPOSIT BTC']);
      expect(await names({ 'created_at.lte': at(2000) })).toEqual(['WIRE_DEPOSIT', 'CRYPTO_DEPOSIT BTC', 'CRYPTO_DEPOSIT ETH']);
      expect(await names({ 'created_at.gt': at(3000) })).toEqual(['INTERNAL_TRANSFER_CREDIT f-carol', 'INTERNAL_TRANSFER_DEBIT f-carol']);
      expect(await names({ 'created_at.gte': at(3000), 'created_at.lt': at(4000) })).toEqual([
        'INTERNAL_TRANSFER_CREDIT f-alice',
        'INTERNAL_TRANSFER_DEBIT f-alice',
      ]);
      expect(await names({ 'created_at.gte': at(1000), 'created_at.lte': at(3000), type: ['CRYPTO_DEPOSIT'] })).toEqual([
        'CRYPTO_DEPOSIT BTC',
        'CRYPTO_DEPOSIT ETH',
      ]);
      // Filters combine: every given filter must match.
      expect(await list({ identity_ids: [aliceId], 'created_at.gte': at(3001) })).toEqual([]);

      const paged: string[] = [];
      for await (const t of api.paginate<Transfer>('ListTransfers', { query: { 'created_at.gte': at(1000), limit: 2 } })) paged.push(t.id);
      expect(paged).toEqual(
        all
          .slice(1)
          .reverse()
          .map((t) => t.id),
      );
    } finally {
      await api.close();
    }
  });
});

/** An identity approved to transact and an account of it: [identity id, account id]. */
async function verifiedAccount(api: ApiClient, ref: string): Promise<[string, string]> {
  const identity = await approvedPerson(api, `person-${ref}`);
  const account = await api.createAccount({ account: { identity_id: identity, ref_id: `account-${ref}` } });
  return [identity, account.id];
}
