import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRIMARY_ENTITY } from '../../src/sim/owners.js';
import { type PlatformSandbox, approvedPerson, refusal, startPlatformSandbox } from '../support/sandbox-platform.js';

describe('sandbox stablecoin conversions through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox({ funding: { USD: '20000' } });
  });
  afterEach(() => sb.close());

  it('converts 1:1: CREATED with the source locked, SETTLED after the delay', async () => {
    const { api } = sb;
    const c = await api.createStablecoinConversion({
      profile_id: 'default',
      amount: '1500.00',
      source_asset: 'USD',
      target_asset: 'USDP',
      ref_id: 'c-1',
      metadata: { why: 'mint' },
    });
    expect(c).toMatchObject({ status: 'CREATED', amount: '1500.00', source_asset: 'USD', target_asset: 'USDP', ref_id: 'c-1' });
    expect(await api.getProfileBalance('default', 'USD')).toMatchObject({ available: '18500', trading: '1500' });
    sb.advance(2_000);
    const settled = await api.getStablecoinConversion(c.id);
    expect(settled).toMatchObject({ status: 'SETTLED', settled_at: new Date(sb.clock.now()).toISOString() });
    expect((await api.getProfileBalance('default', 'USDP')).available).toBe('1500');
    expect(await api.getProfileBalance('default', 'USD')).toMatchObject({ trading: '0' });
    const back = await api.createStablecoinConversion({ profile_id: 'default', amount: '500', source_asset: 'USDP', target_asset: 'USD' });
    expect(back.status).toBe('CREATED');
    expect((await api.listStablecoinConversions({ ref_id: 'c-1' })).items.map((x) => x.id)).toEqual([c.id]);
  });

  it('cancels a CREATED conversion (funds back), and refuses cancelling it again', async () => {
    const { api } = sb;
    const c = await api.createStablecoinConversion({ profile_id: 'default', amount: '100', source_asset: 'USD', target_asset: 'PYUSD' });
    const cancelled = await api.cancelStablecoinConversion(c.id);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelled_at: expect.any(String) });
    expect(await api.getProfileBalance('default', 'USD')).toMatchObject({ available: '20000', trading: '0' });
    expect((await refusal(api.cancelStablecoinConversion(c.id))).status).toBe(409);
    sb.advance(5_000);
    expect((await api.getStablecoinConversion(c.id)).status).toBe('CANCELLED');
  });

  it('refuses insufficient funds (403), a reused ref_id (409), amounts above the per-request maximum (400) and bad pairs', async () => {
    const { api } = sb;
    const poor = await refusal(
      api.createStablecoinConversion({ profile_id: 'default', amount: '10000', source_asset: 'USDP', target_asset: 'USD' }),
    );
    expect([poor.status, poor.slug, poor.meta?.needed]).toEqual([403, 'insufficient-funds', '10000']);
    const first = await api.createStablecoinConversion({
      profile_id: 'default',
      amount: '10',
      source_asset: 'USD',
      target_asset: 'USDP',
      ref_id: 'dup',
    });
    const raw = await sb.http.post(
      '/v2/conversion/stablecoins',
      { profile_id: 'default', amount: '20', source_asset: 'USD', target_asset: 'USDP', ref_id: 'dup' },
      await sb.http.token(),
    );
    expect([raw.status, raw.body.type, raw.body.meta.existing.id]).toEqual([
      409,
      'https://developer.paxos.com/docs/v2/problems/already-exists',
      first.id,
    ]);
    const big = await refusal(
      api.createStablecoinConversion({ profile_id: 'default', amount: '10000.01', source_asset: 'USD', target_asset: 'USDP' }),
    );
    expect([big.status, big.meta?.field]).toEqual([400, 'amount']);
    expect(
      (await refusal(api.createStablecoinConversion({ profile_id: 'default', amount: '1', source_asset: 'USD', target_asset: 'BTC' }))).meta
        ?.field,
    ).toBe('target_asset');
    expect((await refusal(sb.other.getStablecoinConversion(first.id))).status).toBe(403);
    expect((await refusal(api.getStablecoinConversion('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });
});

describe('sandbox tax forms through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox();
  });
  afterEach(() => sb.close());

  it('lists every revision, the latest in ListTaxForms, and links that expire after 60 s', async () => {
    const { api } = sb;
    const owner = await approvedPerson(api, 'tax-owner');
    const account = await api.createAccount({ account: { identity_id: owner } });
    const none = await api.listTaxFormRevisions({ account_id: account.id, tax_year: '2025' });
    expect(none).toEqual({ tax_form_urls: [] });
    sb.handle.sim.platform.taxForms.issueCorrection(account.id, 'FORM_1099_B', '2024', PRIMARY_ENTITY);
    const all = (await api.listTaxFormRevisions({ account_id: account.id, tax_year: '2024' })) as {
      tax_form_urls: Array<{ type: string; revision: string; url: string }>;
    };
    expect(all.tax_form_urls.map((f) => `${f.type}:${f.revision}`)).toEqual(['FORM_1099_B:1', 'FORM_1099_B:2', 'FORM_1099_MISC:1']);
    const rev1 = (await api.listTaxFormRevisions({
      account_id: account.id,
      tax_year: '2024',
      form_types: ['FORM_1099_B'],
      revision: '1',
    })) as typeof all;
    expect(rev1.tax_form_urls.map((f) => f.revision)).toEqual(['1']);
    const latest = (await api.listTaxForms({ account_ids: [account.id], tax_year: '2024' })) as typeof all;
    expect(latest.tax_form_urls.map((f) => `${f.type}:${f.revision}`)).toEqual(['FORM_1099_B:2', 'FORM_1099_MISC:1']);
    const url = latest.tax_form_urls[0]!.url;
    const open = await fetch(url);
    expect([open.status, ((await open.json()) as { revision: string }).revision]).toEqual([200, '2']);
    sb.advance(59_999);
    expect((await fetch(url)).status).toBe(200);
    sb.advance(1);
    const expired = await fetch(url);
    expect([expired.status, ((await expired.json()) as { detail: string }).detail]).toEqual([403, expect.stringMatching(/expired/)]);
    expect((await fetch(url.slice(0, -3) + 'abc')).status).toBe(404);
    expect((await refusal(api.listTaxForms({ account_ids: [account.id], tax_year: '24' }))).meta?.field).toBe('tax_year');
    expect(
      (await refusal(api.listTaxFormRevisions({ account_id: account.id, tax_year: '2024', form_types: ['FORM_W9'] }))).meta?.field,
    ).toBe('form_types');
    expect((await refusal(sb.other.listTaxForms({ account_ids: [account.id], tax_year: '2024' }))).status).toBe(404);
  });
});
