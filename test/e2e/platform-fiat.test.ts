import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/api/index.js';
import { type PlatformSandbox, ADDRESS, refusal, startPlatformSandbox, wireAccount } from '../support/sandbox-platform.js';

const PERSON = { person_details: { first_name: 'Ada', last_name: 'Lovelace' } };

describe('sandbox fiat accounts, deposits and withdrawals through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox({
      funding: { USD: '5000' },
      sim: { transferLimits: [{ transferTypes: ['WIRE_WITHDRAWAL'], periodSeconds: 86_400, limit: '3000' }] },
    });
  });
  afterEach(() => sb.close());

  it('reviews a fiat account PENDING → APPROVED (or REJECTED) after the delay; an update goes back to PENDING', async () => {
    const { api } = sb;
    const a = await api.createFiatAccount({
      fiat_account_owner: PERSON,
      fiat_network_instructions: wireAccount('123456789'),
      ref_id: 'fa-1',
    });
    expect(a).toMatchObject({ status: 'PENDING', fiat_account_owner: PERSON });
    sb.advance(4_999);
    expect((await api.getFiatAccount(a.id)).status).toBe('PENDING');
    sb.advance(1);
    expect((await api.getFiatAccount(a.id)).status).toBe('APPROVED');
    const rejected = await api.createFiatAccount({ fiat_account_owner: PERSON, fiat_network_instructions: wireAccount('550000') });
    sb.advance(5_000);
    expect((await api.getFiatAccount(rejected.id)).status).toBe('REJECTED');
    const moved = await api.updateFiatAccount(a.id, {
      fiat_network_instructions: {
        wire: { fiat_account_owner_address: { ...ADDRESS, city: 'Boston' }, routing_details: { bank_name: '' } },
      },
    });
    expect(moved.status).toBe('PENDING');
    expect(
      (
        moved.fiat_network_instructions as {
          wire: { fiat_account_owner_address: { city: string }; routing_details: { bank_name: string } };
        }
      ).wire,
    ).toMatchObject({ fiat_account_owner_address: { city: 'Boston' }, routing_details: { bank_name: 'First Bank' } });
    sb.advance(5_000);
    expect((await api.getFiatAccount(a.id)).status).toBe('APPROVED');
  });

  it('refuses an owner type change and a new account number on update', async () => {
    const { api } = sb;
    const a = await api.createFiatAccount({ fiat_account_owner: PERSON, fiat_network_instructions: wireAccount('123456789') });
    const owner = await refusal(api.updateFiatAccount(a.id, { fiat_account_owner: { institution_details: { name: 'Acme' } } }));
    expect([owner.status, owner.meta?.field, owner.detail]).toEqual([
      400,
      'fiat_account_owner',
      expect.stringMatching(/owner type cannot change/),
    ]);
    expect(
      (await refusal(api.updateFiatAccount(a.id, { fiat_network_instructions: { wire: { account_number: '999' } } }))).meta?.field,
    ).toBe('fiat_network_instructions.wire.account_number');
    expect(
      (await api.updateFiatAccount(a.id, { fiat_account_owner: { person_details: { first_name: 'Augusta', last_name: 'King' } } }))
        .fiat_account_owner,
    ).toEqual({ person_details: { first_name: 'Augusta', last_name: 'King' } });
  });

  it('lists fiat accounts masked to the last four digits, the owner name and address withheld', async () => {
    const { api } = sb;
    const a = await api.createFiatAccount({
      fiat_account_owner: PERSON,
      fiat_network_instructions: wireAccount('123456789'),
      ref_id: 'm-1',
    });
    const listed = (await api.listFiatAccounts({ ref_ids: ['m-1'] })).items;
    expect(listed).toHaveLength(1);
    expect(listed[0]!.fiat_account_owner).toEqual({});
    expect(listed[0]!.fiat_network_instructions).toEqual({
      wire: {
        account_number: 'XXXX6789',
        fiat_account_owner_address: { country: 'USA' },
        routing_details: expect.objectContaining({ routing_number: '021000021' }),
      },
    });
    expect((await api.getFiatAccount(a.id)).fiat_network_instructions).toEqual(wireAccount('123456789'));
  });

  it('credits USD for a sandbox deposit quoting the memo of deposit instructions; 400 without network instructions', async () => {
    const { api } = sb;
    const before = (await api.getProfileBalance('default', 'USD')).available;
    const x = await api.createFiatDepositInstructions({
      profile_id: 'default',
      fiat_network: 'WIRE',
      routing_number_type: 'ABA',
      ref_id: 'di-1',
    });
    expect(x).toMatchObject({
      status: 'VALID',
      memo_id: expect.stringMatching(/^[0-9A-F]{10}$/),
      fiat_network_instructions: { wire: expect.any(Object) },
    });
    const missing = await sb.http.post(
      '/v2/sandbox/fiat-deposits',
      { amount: '100.00', asset: 'USD', memo_id: x.memo_id },
      await sb.http.token(),
    );
    expect([missing.status, missing.body.title, missing.body.meta]).toEqual([400, 'Bad Request', { field: 'fiat_network_instructions' }]);
    await expect(api.initiateSandboxFiatDeposit({ amount: '100.00', asset: 'USD', memo_id: x.memo_id } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    const wrongMemo = await refusal(
      api.initiateSandboxFiatDeposit({ amount: '100.00', asset: 'USD', memo_id: 'NOPE', fiat_network_instructions: wireAccount('42') }),
    );
    expect(wrongMemo.meta?.field).toBe('memo_id');
    await api.initiateSandboxFiatDeposit({
      amount: '250.50',
      asset: 'USD',
      memo_id: x.memo_id!,
      fiat_network_instructions: wireAccount('42'),
    });
    expect((await api.getProfileBalance('default', 'USD')).available).toBe(String(Number(before) + 250.5));
    const deposits = await api.listTransfers({ type: ['WIRE_DEPOSIT'], limit: 1 });
    expect(deposits.items[0]).toMatchObject({ amount: '250.5', status: 'COMPLETED', direction: 'CREDIT', memo: x.memo_id });
    expect((await api.listFiatDepositInstructions({ ref_ids: ['di-1'] })).items.map((i) => i.id)).toEqual([x.id]);
  });

  it('withdraws to an approved account: exactly one of amount/total, fee, memo rules, limits, PENDING → COMPLETED', async () => {
    const { api } = sb;
    const a = await api.createFiatAccount({ fiat_account_owner: PERSON, fiat_network_instructions: wireAccount('123456789') });
    const early = await refusal(api.createFiatWithdrawal({ profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '10' }));
    expect([early.status, early.detail]).toEqual([400, expect.stringMatching(/PENDING: withdrawals need an APPROVED account/)]);
    sb.advance(5_000);
    const token = await sb.http.token();
    const both = await sb.http.post(
      '/v2/transfer/fiat-withdrawals',
      { profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '10', total: '15' },
      token,
    );
    expect([both.status, both.body.meta]).toEqual([400, { field: 'total' }]);
    const neither = await sb.http.post(
      '/v2/transfer/fiat-withdrawals',
      { profile_id: 'default', fiat_account_id: a.id, asset: 'USD' },
      token,
    );
    expect([neither.status, neither.body.meta]).toEqual([400, { field: 'amount' }]);
    const badMemo = await sb.http.post(
      '/v2/transfer/fiat-withdrawals',
      { profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '10', memo: 'rent #4' },
      token,
    );
    expect([badMemo.status, badMemo.body.meta]).toEqual([400, { field: 'memo' }]);
    const longMemo = await sb.http.post(
      '/v2/transfer/fiat-withdrawals',
      { profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '10', memo: 'x'.repeat(101) },
      token,
    );
    expect([longMemo.status, longMemo.body.meta]).toEqual([400, { field: 'memo' }]);
    const w = await api.createFiatWithdrawal({
      profile_id: 'default',
      fiat_account_id: a.id,
      asset: 'USD',
      total: '105.00',
      memo: 'Invoice 12/2025',
      ref_id: 'fw-1',
    });
    expect(w).toMatchObject({
      type: 'WIRE_WITHDRAWAL',
      status: 'PENDING',
      amount: '100',
      fee: '5',
      total: '105',
      fiat_account_id: a.id,
      direction: 'DEBIT',
    });
    expect((await api.getProfileBalance('default', 'USD')).available).toBe('4895');
    sb.advance(3_000);
    expect((await api.getTransfer(w.id)).status).toBe('COMPLETED');
    const poor = await refusal(api.createFiatWithdrawal({ profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '4900' }));
    expect([poor.status, poor.slug]).toEqual([403, 'insufficient-funds']);
    await api.createSandboxDeposit('default', { asset: 'USD', amount: '10000' });
    const limited = await refusal(api.createFiatWithdrawal({ profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '2950' }));
    expect([limited.status, limited.slug]).toEqual([400, 'exceed-max-withdraw-limit']);
    expect(limited.meta).toMatchObject({ transfer_type: 'WIRE_WITHDRAWAL', limit: expect.any(String), amount: '2955.00' });
    const reused = await sb.http.post(
      '/v2/transfer/fiat-withdrawals',
      { profile_id: 'default', fiat_account_id: a.id, asset: 'USD', amount: '1', ref_id: 'fw-1' },
      token,
    );
    expect([reused.status, reused.body.meta.existing.id]).toEqual([409, w.id]);
  });
});
