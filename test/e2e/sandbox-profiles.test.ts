import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';

describe('sandbox profiles, balances and deposits', () => {
  let sb: TestSandbox;
  let token: string;

  beforeAll(async () => {
    sb = await startTestSandbox();
    token = await sb.http.token();
  });
  afterAll(() => sb.close());

  it('has a DEFAULT profile reachable by its alias, with the initial funding', async () => {
    const p = await sb.http.get('/v2/profiles/default', token);
    expect(p.body).toMatchObject({ nickname: 'default', type: 'DEFAULT' });
    const balances = await sb.http.get('/v2/profiles/default/balances', token);
    expect(balances.body.items).toContainEqual({ asset: 'USD', available: '2000000', trading: '0' });
    expect(balances.body.items).toContainEqual({ asset: 'BTC', available: '0', trading: '0' });
    const some = await sb.http.get('/v2/profiles/default/balances?assets=USD&assets=ETH', token);
    expect(some.body.items.map((b: { asset: string }) => b.asset)).toEqual(['USD', 'ETH']);
  });

  it('creates, lists, renames and deactivates profiles with unique nicknames', async () => {
    const a = await sb.http.post('/v2/profiles', { nickname: 'Grid-Bot', description: 'grid funds' }, token);
    expect(a.body).toMatchObject({ nickname: 'Grid-Bot', type: 'NORMAL', description: 'grid funds' });
    const clash = await sb.http.post('/v2/profiles', { nickname: 'grid-bot' }, token);
    expect(clash).toMatchObject({ status: 409, body: { meta: { existing: { id: a.body.id } } } });
    const missing = await sb.http.post('/v2/profiles', {}, token);
    expect(missing.body.detail).toMatch(/^nickname: /);
    const listed = await sb.http.get('/v2/profiles?nickname=gri', token);
    expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual([a.body.id]);
    const renamed = await sb.http.put(`/v2/profiles/${a.body.id}`, { nickname: 'grid-2' }, token);
    expect(renamed.body.nickname).toBe('grid-2');
    await sb.http.post(`/v2/sandbox/profiles/${a.body.id}/deposit`, { asset: 'USD', amount: '10' }, token);
    expect((await sb.http.put(`/v2/profiles/${a.body.id}/deactivate`, undefined, token)).status).toBe(403);
    expect((await sb.http.put('/v2/profiles/default/deactivate', undefined, token)).status).toBe(403);
    const empty = await sb.http.post('/v2/profiles', { nickname: 'empty' }, token);
    expect(await sb.http.put(`/v2/profiles/${empty.body.id}/deactivate`, undefined, token)).toMatchObject({ status: 200, body: {} });
    expect((await sb.http.get(`/v2/profiles/${empty.body.id}`, token)).status).toBe(404);
    expect((await sb.http.get(`/v2/profiles/${empty.body.id}?include_deactivated=true`, token)).status).toBe(200);
  });

  it("credits crypto deposits (network optional: the asset's usual one) and fiat deposits (no network), recording COMPLETED transfers", async () => {
    const crypto = await sb.http.post(
      '/v2/sandbox/profiles/default/deposit',
      { asset: 'BTC', amount: '1.5', crypto_network: 'BITCOIN' },
      token,
    );
    expect(crypto.status).toBe(200);
    expect(typeof crypto.body.activity_id).toBe('string');
    const noNetwork = await sb.http.post('/v2/sandbox/profiles/default/deposit', { asset: 'ETH', amount: '1' }, token);
    expect(noNetwork.status).toBe(200);
    const badNetwork = await sb.http.post(
      '/v2/sandbox/profiles/default/deposit',
      { asset: 'ETH', amount: '1', crypto_network: 'MOON' },
      token,
    );
    expect(badNetwork.body.detail).toMatch(/^crypto_network: "MOON" is not valid/);
    const fiatNetwork = await sb.http.post(
      '/v2/sandbox/profiles/default/deposit',
      { asset: 'EUR', amount: '1', crypto_network: 'ETHEREUM' },
      token,
    );
    expect(fiatNetwork.status).toBe(400);
    await sb.http.post('/v2/sandbox/profiles/default/deposit', { asset: 'EUR', amount: '250.50' }, token);
    expect((await sb.http.get('/v2/profiles/default/balances/BTC', token)).body).toEqual({ asset: 'BTC', available: '1.5', trading: '0' });
    expect((await sb.http.get('/v2/profiles/default/balances/EUR', token)).body.available).toBe('250.5');
    const deposits = sb.handle.sim.transfers.transfers.filter((t) => t.asset !== 'USD');
    expect(deposits.map((t) => [t.type, t.status, t.cryptoNetwork])).toEqual([
      ['CRYPTO_DEPOSIT', 'COMPLETED', 'BITCOIN'],
      ['CRYPTO_DEPOSIT', 'COMPLETED', 'ETHEREUM'],
      ['WIRE_DEPOSIT', 'COMPLETED', undefined],
    ]);
  });
});
