import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type PlatformSandbox,
  approvedPerson,
  corporation,
  passthroughPerson,
  refusal,
  startPlatformSandbox,
  wireAccount,
} from '../support/sandbox-platform.js';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('sandbox operations beyond the platform spec, through the typed client', () => {
  let sb: PlatformSandbox;
  afterEach(() => sb.close());

  it('lists events of orders, transfers and identities ascending, filters them, and finds each by id', async () => {
    sb = await startPlatformSandbox();
    const { api } = sb;
    const t0 = sb.clock.now();
    await api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '100', ref_id: 'ev-1' });
    sb.advance(1_000);
    const resting = await api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '50000',
      base_amount: '0.01',
      ref_id: 'ev-2',
    });
    await api.cancelOrder('default', resting.id);
    sb.advance(1_000);
    const person = await approvedPerson(api, 'ev-person');
    await api.createSandboxDeposit('default', { asset: 'ETH', amount: '2' });
    const { events } = await api.listEvents();
    const types = events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'order.created',
        'order.filled',
        'order.cancelled',
        'identity.approved',
        'transfer.crypto_deposit.completed',
      ]),
    );
    const times = events.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events.find((e) => e.type === 'identity.approved')!.object).toMatchObject({
      identity_id: person,
      new_summary_status: 'APPROVED',
      old_summary_status: 'PENDING',
    });
    expect(events.find((e) => e.type === 'order.cancelled')!.object).toMatchObject({ id: resting.id, status: 'CANCELLED', ref_id: 'ev-2' });
    expect((await api.listEvents({ type: 'order.created' })).events.map((e) => (e.object as { ref_id?: string }).ref_id)).toEqual([
      'ev-1',
      'ev-2',
    ]);
    expect((await api.listEvents({ 'created_at.gt': iso(t0 + 500) })).events.every((e) => Date.parse(e.created_at) > t0 + 500)).toBe(true);
    expect((await api.listEvents({ limit: 2 })).events).toEqual(events.slice(0, 2));
    const one = events[3]!;
    expect(await api.getEvent(one.id)).toEqual(one);
    // the client refuses a limit over 100 before sending; the sandbox does too
    expect((await refusal(api.listEvents({ limit: 101 }))).error.name).toBe('ValidationError');
    expect((await sb.http.get('/v2/events?limit=101', await sb.http.token())).body).toMatchObject({
      status: 400,
      meta: { field: 'limit' },
    });
    expect((await refusal(api.getEvent('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await sb.other.listEvents()).events).toEqual([]);
    expect((await refusal(sb.other.getEvent(one.id))).status).toBe(404);
  });

  it('keeps an address book of crypto destinations: created, updated by pair or id, filtered, per entity', async () => {
    sb = await startPlatformSandbox();
    const { api } = sb;
    const created = (await api.putCryptoDestinationAddress({ crypto_network: 'ETHEREUM', address: '0xabc', nickname: 'cold' })).address;
    expect(created).toMatchObject({
      crypto_network: 'ETHEREUM',
      address: '0xabc',
      nickname: 'cold',
      status: 'APPROVED',
      bookmarked: false,
    });
    const again = (await api.putCryptoDestinationAddress({ crypto_network: 'ETHEREUM', address: '0xabc', bookmarked_status: true }))
      .address;
    expect([again.id, again.nickname, again.bookmarked]).toEqual([created.id, 'cold', true]);
    await api.putCryptoDestinationAddress({ crypto_network: 'SOLANA', address: 'So1', nickname: 'hot' });
    expect((await api.putCryptoDestinationAddress({ id: created.id, nickname: 'vault' })).address.nickname).toBe('vault');
    expect((await api.listCryptoDestinationAddresses()).addresses.map((a) => a.nickname)).toEqual(['hot', 'vault']);
    expect((await api.listCryptoDestinationAddresses({ bookmarked_status: true })).addresses.map((a) => a.id)).toEqual([created.id]);
    expect(
      (await api.listCryptoDestinationAddresses({ crypto_networks: ['SOLANA'], order: 'ASC' })).addresses.map((a) => a.address),
    ).toEqual(['So1']);
    const page = await api.listCryptoDestinationAddresses({ limit: 1 });
    expect(page.addresses).toHaveLength(1);
    expect((await api.listCryptoDestinationAddresses({ page_cursor: page.next_page_cursor })).addresses.map((a) => a.nickname)).toEqual([
      'vault',
    ]);
    const both = await refusal(api.putCryptoDestinationAddress({ id: created.id, crypto_network: 'ETHEREUM', address: '0xabc' }));
    expect([both.status, both.meta?.field]).toEqual([400, 'id']);
    expect((await refusal(api.putCryptoDestinationAddress({ crypto_network: 'ETHEREUM' }))).meta?.field).toBe('address');
    expect((await sb.other.listCryptoDestinationAddresses()).addresses).toEqual([]);
    expect((await refusal(sb.other.putCryptoDestinationAddress({ id: created.id, nickname: 'theirs' }))).status).toBe(404);
  });

  it('deletes a fiat account: gone from reads and withdrawals, still listed with include_deleted', async () => {
    sb = await startPlatformSandbox();
    const { api } = sb;
    const a = await api.createFiatAccount({
      fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
      fiat_network_instructions: wireAccount('123456789'),
    } as never);
    sb.advance(5_000);
    await api.deleteFiatAccount(a.id);
    expect((await refusal(api.getFiatAccount(a.id))).status).toBe(404);
    expect((await api.getFiatAccount(a.id, { include_deleted: true })).id).toBe(a.id);
    expect((await api.listFiatAccounts()).items).toEqual([]);
    expect((await api.listFiatAccounts({ include_deleted: true })).items.map((x) => x.id)).toEqual([a.id]);
    expect(
      (await refusal(api.createFiatWithdrawal({ profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '10' }))).status,
    ).toBe(404);
    expect((await refusal(api.deleteFiatAccount(a.id))).status).toBe(404);
  });

  it('takes the request fields the schemas declare: crypto_network optional on sandbox deposits, identity and account extras', async () => {
    sb = await startPlatformSandbox();
    const { api } = sb;
    const before = (await api.getProfileBalance('default', 'BTC')).available;
    await api.createSandboxDeposit('default', { asset: 'BTC', amount: '0.5' });
    expect(Number((await api.getProfileBalance('default', 'BTC')).available) - Number(before)).toBeCloseTo(0.5, 8);
    const deposits = (await api.listTransfers({ type: ['CRYPTO_DEPOSIT'] })).items;
    expect(deposits.at(-1) ?? deposits[0]).toBeDefined();
    expect(deposits.some((t) => t.crypto_network === 'BITCOIN' && t.amount === '0.5')).toBe(true);
    const addr = await api.createDepositAddress({ profile_id: 'default', crypto_network: 'POLYGON_POS' });
    await api.createSandboxDeposit('default', { asset: 'USDP', amount: '10', crypto_address: addr.address });
    expect(
      (await api.listTransfers({ type: ['CRYPTO_DEPOSIT'] })).items.some(
        (t) => t.destination_address === addr.address && t.crypto_network === 'POLYGON_POS',
      ),
    ).toBe(true);

    const cdd = { estimated_net_worth: 'ENW_0_TO_100K', source_of_funds: 'SALARY' };
    const merchant = await api.createIdentity({
      ...passthroughPerson({ id_verification_status: 'APPROVED' }, 'cdd-1'),
      is_merchant: true,
      customer_due_diligence: cdd,
      tax_details_not_required: false,
    });
    expect(await api.getIdentity(merchant.id, { include_details: true })).toMatchObject({
      is_merchant: true,
      customer_due_diligence: cdd,
      summary_status: 'PENDING',
    });
    const person = await refusal(api.createIdentity({ ...passthroughPerson({}, 'cdd-2'), tax_details_not_required: true }));
    expect([person.status, person.detail]).toEqual([400, 'tax_details_not_required: allowed for non-US institutions only']);
    const foreign = corporation({
      cip_id_country: 'SGP',
      cip_id_type: 'REGISTRATION_NUMBER',
      business_address: { country: 'SGP', address1: '1 Raffles Pl', city: 'Singapore', province: 'SG' },
    });
    expect((await api.createIdentity({ ...foreign, tax_details_not_required: true, is_merchant: false })).id).toEqual(expect.any(String));
  });

  it('answers valid empty lists for what it does not simulate, 403 feature not enabled for creates and 404 for ids', async () => {
    sb = await startPlatformSandbox();
    const { api } = sb;
    expect(await api.listStatements()).toEqual({ statements: [], next_page_cursor: '' });
    expect(await api.listPayments({ payment_status: 'PAYMENT_STATUS_PAID' }).catch((e: { status?: number }) => e.status)).toBe(400);
    expect((await api.listApiCredentials()).items).toEqual([]);
    expect((await api.listOrchestrations()).orchestrations).toEqual([]);
    expect((await api.listOrchestrationRules()).rules).toEqual([]);
    expect((await api.listMonitoringAddress()).addresses).toEqual([]);
    expect((await api.listIssuerQuoteExecutions({ status: ['COMPLETE'] })).issuer_quote_executions).toEqual([]);
    for (const call of [
      api.createIssuerQuote({ profile_id: 'default' }),
      api.createOrchestration({}),
      api.createOrchestrationRule({}),
      api.createMonitoringAddress({}),
      api.deleteApiCredentials('tradeloop-local'),
    ]) {
      const r = await refusal(call);
      expect([r.status, r.slug]).toEqual([403, undefined]);
      expect(r.detail).toMatch(/^feature not enabled/);
    }
    for (const call of [
      api.getOrchestration('x'),
      api.deleteOrchestrationRule('x'),
      api.getMonitoringAddress('x'),
      api.updateMonitoringAddress('x', {}),
      api.createIssuerQuoteExecution('x', {}),
      api.deleteApiCredentials('someone-else'),
    ]) {
      expect((await refusal(call)).status).toBe(404);
    }
  });

  it('keeps crypto destination addresses in the state file across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-beyond-'));
    try {
      const stateFile = join(dir, 'world.sqlite');
      sb = await startPlatformSandbox({ stateFile });
      await sb.api.putCryptoDestinationAddress({ crypto_network: 'BASE', address: '0xkept', nickname: 'kept' });
      await sb.close();
      sb = await startPlatformSandbox({ stateFile });
      expect((await sb.api.listCryptoDestinationAddresses()).addresses.map((a) => [a.address, a.nickname])).toEqual([['0xkept', 'kept']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
