import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/api/index.js';
import { type PlatformSandbox, approvedPerson, refusal, startPlatformSandbox } from '../support/sandbox-platform.js';

const DEST = '0x1111111111111111111111111111111111111111';

describe('sandbox crypto addresses, deposits, fees, withdrawals and platform transfers through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox({ funding: { USD: '10000' } });
  });
  afterEach(() => sb.close());

  it('creates deposit addresses on create-type networks only and credits deposits to them (USD for stablecoins when asked)', async () => {
    const { api } = sb;
    const stellar = await refusal(api.createDepositAddress({ profile_id: 'default', crypto_network: 'STELLAR' }));
    expect([stellar.status, stellar.meta?.field]).toEqual([400, 'crypto_network']);
    const eth = await api.createDepositAddress({
      profile_id: 'default',
      crypto_network: 'ETHEREUM',
      conversion_target_asset: 'USD',
      metadata: { wallet: 'hot' },
      ref_id: 'addr-1',
    });
    expect(eth).toMatchObject({
      crypto_network: 'ETHEREUM',
      conversion_target_asset: 'USD',
      address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      compatible_crypto_networks: expect.arrayContaining(['BASE', 'POLYGON_POS']),
    });
    const btc = await api.createDepositAddress({ profile_id: 'default', crypto_network: 'BITCOIN' });
    expect(btc.conversion_target_asset).toBe('NO_CONVERSION');
    await api.createSandboxDeposit('default', { asset: 'USDP', amount: '50', crypto_network: 'BASE', crypto_address: eth.address! });
    const [deposit] = (await api.listTransfers({ type: ['CRYPTO_DEPOSIT'], limit: 1 })).items;
    expect(deposit).toMatchObject({
      asset: 'USDP',
      balance_asset: 'USD',
      status: 'COMPLETED',
      destination_address: eth.address,
      metadata: { wallet: 'hot' },
    });
    expect((await api.getProfileBalance('default', 'USD')).available).toBe('10050');
    expect((await api.listDepositAddresses({ ref_ids: ['addr-1'] })).items.map((a) => a.id)).toEqual([eth.id]);
  });

  it('holds a deposit at or above the travel-rule threshold in NEEDS_INFO until updated (credited) or rejected (failed)', async () => {
    const { api } = sb;
    const me = await approvedPerson(api, 'depositor');
    const addr = await api.createDepositAddress({ profile_id: 'default', crypto_network: 'ETHEREUM', identity_id: me });
    await api.createSandboxDeposit('default', { asset: 'USDP', amount: '5000', crypto_network: 'ETHEREUM', crypto_address: addr.address! });
    const held = (await api.listTransfers({ secondary_statuses: ['TRAVEL_RULE_INFO_REQUESTED'] })).items[0]!;
    expect(held).toMatchObject({ status: 'PENDING', secondary_status: { name: 'TRAVEL_RULE_INFO_REQUESTED' } });
    expect((await api.getProfileBalance('default', 'USDP')).available).toBe('0');
    expect(
      (await refusal(api.updateCryptoDeposit(held.id, { identity_id: me, originator_address_info: { first_name: 'Ada' } }))).meta?.field,
    ).toBe('originator_address_info.last_name');
    await api.updateCryptoDeposit(held.id, { identity_id: me, originator_address_info: { first_name: 'Ada', last_name: 'Lovelace' } });
    sb.advance(3_000);
    expect(await api.getTransfer(held.id)).toMatchObject({ status: 'COMPLETED' });
    expect((await api.getProfileBalance('default', 'USDP')).available).toBe('5000');
    const notWaiting = await refusal(api.rejectCryptoDeposit(held.id, { identity_id: me }));
    expect([notWaiting.status, notWaiting.detail]).toEqual([409, expect.stringMatching(/not in NEEDS_INFO/)]);
    await api.createSandboxDeposit('default', { asset: 'USDP', amount: '4000', crypto_network: 'ETHEREUM', crypto_address: addr.address! });
    const second = (await api.listTransfers({ secondary_statuses: ['TRAVEL_RULE_INFO_REQUESTED'] })).items[0]!;
    expect((await refusal(sb.other.rejectCryptoDeposit(second.id, { identity_id: me }))).status).toBe(403);
    await api.rejectCryptoDeposit(second.id, { identity_id: me });
    expect(await api.getTransfer(second.id)).toMatchObject({ status: 'FAILED', secondary_status: { name: 'CUSTOMER_REJECTED' } });
    expect((await api.getProfileBalance('default', 'USDP')).available).toBe('5000');
    expect((await refusal(api.rejectCryptoDeposit('not-a-uuid', { identity_id: me }))).status).toBe(400);
    expect((await refusal(api.rejectCryptoDeposit('00000000-0000-4000-8000-000000000000', { identity_id: me }))).status).toBe(404);
  });

  it('guarantees a withdrawal fee until it expires and refuses amounts above it', async () => {
    const { api } = sb;
    await api.createSandboxDeposit('default', { asset: 'ETH', amount: '2', crypto_network: 'ETHEREUM' });
    const both = await sb.http.post(
      '/v2/transfer/fees/crypto-withdrawal',
      { asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: DEST, amount: '1', total: '1' },
      await sb.http.token(),
    );
    expect([both.status, both.body.meta]).toEqual([400, { field: 'total' }]);
    const fee = await api.createCryptoWithdrawalFee({ asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: DEST, amount: '0.5' });
    expect(fee).toMatchObject({ fee: '0.001', amount: '0.5', total: '0.501', expires_at: new Date(sb.clock.now() + 60_000).toISOString() });
    const over = await refusal(
      api.createCryptoWithdrawal({
        profile_id: 'default',
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: DEST,
        amount: '0.6',
        fee_id: fee.id!,
      }),
    );
    expect([over.status, over.meta?.field]).toEqual([400, 'amount']);
    const w = await api.createCryptoWithdrawal({
      profile_id: 'default',
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: DEST,
      amount: '0.5',
      fee_id: fee.id!,
      ref_id: 'cw-1',
    });
    expect(w).toMatchObject({
      type: 'CRYPTO_WITHDRAWAL',
      status: 'PENDING',
      amount: '0.5',
      fee: '0.001',
      total: '0.501',
      destination_address: DEST,
    });
    expect((await api.getProfileBalance('default', 'ETH')).available).toBe('1.499');
    sb.advance(60_000);
    expect((await api.getTransfer(w.id)).status).toBe('COMPLETED');
    const late = await refusal(
      api.createCryptoWithdrawal({
        profile_id: 'default',
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: DEST,
        amount: '0.1',
        fee_id: fee.id!,
      }),
    );
    expect([late.status, late.slug, late.meta?.expired_at]).toEqual([403, 'expired', fee.expires_at]);
    expect(
      (
        await refusal(
          api.createCryptoWithdrawal({
            profile_id: 'default',
            asset: 'ETH',
            crypto_network: 'ETHEREUM',
            destination_address: DEST,
            amount: '0.1',
            fee_id: 'nope',
          }),
        )
      ).status,
    ).toBe(404);
    const byTotal = await api.createCryptoWithdrawal({
      profile_id: 'default',
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: DEST,
      total: '1.001',
    });
    expect(byTotal).toMatchObject({ amount: '1', total: '1.001' });
    const poor = await refusal(
      api.createCryptoWithdrawal({
        profile_id: 'default',
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: DEST,
        amount: '5',
      }),
    );
    expect([poor.status, poor.slug]).toEqual([403, 'insufficient-funds']);
    expect(
      (
        await refusal(
          api.createCryptoWithdrawal({
            profile_id: 'default',
            asset: 'ETH',
            crypto_network: 'ETHEREUM',
            destination_address: 'bc1qxyz',
            amount: '0.1',
          }),
        )
      ).meta?.field,
    ).toBe('destination_address');
  });

  it('refuses a crypto withdrawal with both amount and total, or neither: the client before sending, the sandbox with 400 naming the field', async () => {
    const { api, http } = sb;
    await api.createSandboxDeposit('default', { asset: 'ETH', amount: '2', crypto_network: 'ETHEREUM' });
    const base = { profile_id: 'default', asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: DEST } as const;
    for (const body of [{ ...base, amount: '0.5', total: '0.501' }, base]) {
      const local = await refusal(api.createCryptoWithdrawal(body));
      expect([local.error, local.status, local.detail]).toEqual([
        expect.any(ValidationError),
        undefined,
        'amount/total: give exactly one of amount and total (CreateCryptoWithdrawal)',
      ]);
    }
    const token = await http.token();
    const both = await http.post('/v2/transfer/crypto-withdrawals', { ...base, amount: '0.5', total: '0.501' }, token);
    expect([both.status, both.contentType, both.body.meta, both.body.detail]).toEqual([
      400,
      expect.stringContaining('application/problem+json'),
      { field: 'total' },
      expect.stringMatching(/exactly one of amount .*and total/),
    ]);
    const neither = await http.post('/v2/transfer/crypto-withdrawals', base, token);
    expect([neither.status, neither.body.meta, neither.body.detail]).toEqual([
      400,
      { field: 'amount' },
      expect.stringMatching(/exactly one of amount .*and total/),
    ]);
    expect((await api.getProfileBalance('default', 'ETH')).available).toBe('2');
    expect((await api.listTransfers({ type: ['CRYPTO_WITHDRAWAL'] })).items).toEqual([]);
    expect((await http.post('/v2/transfer/crypto-withdrawals', { ...base, total: '0.501' }, token)).body).toMatchObject({
      amount: '0.5',
      total: '0.501',
    });
  });

  it('moves assets between entities with a platform transfer, and refuses one within an entity', async () => {
    const { api, other } = sb;
    const theirs = await other.createProfile({ nickname: 'cp-desk' });
    const mine = await api.createProfile({ nickname: 'my-desk' });
    const same = await refusal(api.createPaxosTransfer({ from_profile_id: 'default', to_profile_id: mine.id, asset: 'USD', amount: '10' }));
    expect([same.status, same.detail]).toEqual([400, expect.stringMatching(/CreateInternalTransfer/)]);
    const cross = await refusal(
      api.createInternalTransfer({ from_profile_id: 'default', to_profile_id: theirs.id, asset: 'USD', amount: '10' }),
    );
    expect(cross.status).toBe(403);
    const debit = await api.createPaxosTransfer({
      from_profile_id: 'default',
      to_profile_id: theirs.id,
      asset: 'USD',
      amount: '125',
      ref_id: 'pt-1',
      recipient_metadata: { from: 'primary' },
    });
    expect(debit).toMatchObject({ type: 'PAXOS_TRANSFER_DEBIT', status: 'PENDING', amount: '125', group_id: expect.any(String) });
    sb.advance(1000);
    expect((await other.getProfileBalance(theirs.id, 'USD')).available).toBe('125');
    expect((await api.getTransfer(debit.id)).status).toBe('COMPLETED');
    expect(
      (await refusal(other.createPaxosTransfer({ from_profile_id: 'default', to_profile_id: theirs.id, asset: 'USD', amount: '1' })))
        .status,
    ).toBe(403);
    expect(
      (await refusal(api.createPaxosTransfer({ from_profile_id: 'default', to_profile_id: theirs.id, asset: 'USD', amount: '1000000' })))
        .slug,
    ).toBe('insufficient-funds');
  });
});
