import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { D } from '../../src/core/decimal.js';
import {
  type PlatformSandbox,
  approvedPerson,
  corporation,
  passthroughPerson,
  refusal,
  startPlatformSandbox,
} from '../support/sandbox-platform.js';

describe('sandbox accounts and the may-transact rule through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox();
  });
  afterEach(() => sb.close());

  it('creates an account with its own profile, updates members within the rules and disables it', async () => {
    const { api } = sb;
    const owner = await approvedPerson(api, 'acct-owner');
    const advisor = (await api.createIdentity(passthroughPerson({}, 'advisor'))).id;
    const bo = (await api.createIdentity(passthroughPerson({}, 'bo'))).id;
    const badType = await refusal(api.createAccount({ account: { identity_id: owner, type: 'SAVINGS' } as never }));
    expect([badType.status, badType.meta?.field]).toEqual([400, 'account.type']);
    const ira = await api.createAccount({ account: { identity_id: advisor, type: 'ROTH_IRA' } });
    expect(ira.type).toBe('ROTH_IRA');
    expect((await api.updateAccount({ account: { id: ira.id, type: 'ROTH_IRA', description: 'same type' } })).description).toBe(
      'same type',
    );
    const changed = await refusal(api.updateAccount({ account: { id: ira.id, type: 'BROKERAGE' } }));
    expect([changed.status, changed.meta?.field]).toEqual([400, 'account.type']);
    const account = await api.createAccount({
      account: { identity_id: owner, description: 'main', ref_id: 'a-1', members: [{ identity_id: bo, roles: ['BENEFICIAL_OWNER'] }] },
      create_profile: true,
    });
    expect(account).toMatchObject({
      identity_id: owner,
      type: 'BROKERAGE',
      summary_status: 'APPROVED',
      profile_id: expect.any(String),
      user_disabled: false,
    });
    expect((await api.getProfile(account.profile_id!)).account_id).toBe(account.id);
    const added = (await api.addAccountMembers({
      account_id: account.id,
      members: [{ identity_id: advisor, roles: ['FINANCIAL_ADVISOR'] }],
    })) as unknown as { members: Array<{ id: string }> };
    expect((await api.getAccount(account.id)).members?.map((m) => m.roles)).toEqual([['BENEFICIAL_OWNER'], ['FINANCIAL_ADVISOR']]);
    expect(
      (await refusal(api.addAccountMembers({ account_id: account.id, members: [{ identity_id: advisor, roles: ['BENEFICIAL_OWNER'] }] })))
        .meta?.field,
    ).toBe('members[0].roles[0]');
    const dropBo = await refusal(
      api.updateAccount({ account: { id: account.id, members: [{ identity_id: advisor, roles: ['FINANCIAL_ADVISOR'] }] } }),
    );
    expect([dropBo.status, dropBo.detail]).toEqual([403, expect.stringMatching(/only FINANCIAL_ADVISOR and AUTHORIZED_USER/)]);
    const updated = await api.updateAccount({
      account: {
        id: account.id,
        metadata: { k: 'v' },
        members: [
          { identity_id: bo, roles: ['BENEFICIAL_OWNER'] },
          { identity_id: advisor, roles: ['AUTHORIZED_USER'] },
        ],
      },
    });
    expect(updated.members?.map((m) => m.roles)).toEqual([['BENEFICIAL_OWNER'], ['AUTHORIZED_USER']]);
    expect(updated.metadata).toEqual({ k: 'v' });
    expect((await refusal(api.deleteAccountMember(added.members[0]!.id))).status).toBe(404);
    const empty = await refusal(api.updateAccount({ account: { id: account.id, members: [] } }));
    expect(empty.meta?.field).toBe('account.members');
    expect((await api.updateAccount({ account: { id: account.id }, set_user_disabled: true })).summary_status).toBe('DISABLED');
    expect((await api.listAccounts({ identity_id: owner })).items.map((a) => a.id)).toEqual([account.id]);
    expect((await refusal(sb.other.getAccount(account.id))).status).toBe(404);
  });

  it('answers a reused account ref_id with 409 and the earlier account (which the client takes as its own)', async () => {
    const owner = await approvedPerson(sb.api, 'dup-owner');
    const first = await sb.api.createAccount({ account: { identity_id: owner, ref_id: 'same', description: 'one' } });
    const raw = await sb.http.post(
      '/v2/identity/accounts',
      { account: { identity_id: owner, ref_id: 'same', description: 'two' } },
      await sb.http.token(),
    );
    expect([raw.status, raw.body.type, raw.body.meta.existing]).toEqual([
      409,
      'https://developer.paxos.com/docs/v2/problems/already-exists',
      first,
    ]);
    expect(await sb.api.createAccount({ account: { identity_id: owner, ref_id: 'same', description: 'one' } })).toEqual(first);
    expect((await sb.api.listAccounts()).items).toHaveLength(1);
  });

  it('lets a profile linked to an identity trade and transfer only once the identity may transact', async () => {
    const { api } = sb;
    const person = await api.createIdentity(passthroughPerson({ passthrough_verification_status: 'PENDING' }, 'gate'));
    const account = await api.createAccount({ account: { identity_id: person.id }, create_profile: true });
    const profile = account.profile_id!;
    await api.createSandboxDeposit(profile, { asset: 'USD', amount: '1000' });
    const order = { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '100' } as const;
    const refused = await refusal(api.createOrder(profile, order));
    expect([refused.status, refused.meta]).toEqual([
      403,
      expect.objectContaining({ identity_id: person.id, id_verification_status: 'PENDING', sanctions_verification_status: 'PENDING' }),
    ]);
    expect(
      (await refusal(api.createInternalTransfer({ from_profile_id: profile, to_profile_id: 'default', asset: 'USD', amount: '10' })))
        .status,
    ).toBe(403);
    await api.sandboxSetIdentityStatus(person.id, { id_verification_status: 'APPROVED' });
    expect((await refusal(api.createOrder(profile, order))).detail).toMatch(/sanctions APPROVED|sanctions_verification_status APPROVED/);
    await api.sandboxSetIdentityStatus(person.id, { sanctions_verification_status: 'APPROVED' });
    expect((await api.createOrder(profile, order)).status).toBe('FILLED');
    await api.updateAccount({ account: { id: account.id }, set_user_disabled: true });
    expect((await refusal(api.createOrder(profile, order))).detail).toMatch(/disabled/);
    expect((await api.createOrder('default', order)).status).toBe('FILLED');
  });

  it('removes AUTHORIZED_USER and FINANCIAL_ADVISOR members by id, after which Get Account no longer lists them', async () => {
    const { api } = sb;
    const owner = await approvedPerson(api, 'rm-owner');
    const bo = (await api.createIdentity(passthroughPerson({}, 'rm-bo'))).id;
    const user = (await api.createIdentity(passthroughPerson({}, 'rm-user'))).id;
    const advisor = (await api.createIdentity(passthroughPerson({}, 'rm-advisor'))).id;
    const account = await api.createAccount({
      account: { identity_id: owner, members: [{ identity_id: bo, roles: ['BENEFICIAL_OWNER'] }] },
    });
    await api.addAccountMembers({
      account_id: account.id,
      members: [
        { identity_id: user, roles: ['AUTHORIZED_USER'] },
        { identity_id: advisor, roles: ['FINANCIAL_ADVISOR'] },
      ],
    });
    const members = (await api.getAccount(account.id)).members!;
    expect(members.map((m) => [m.identity_id, m.roles])).toEqual([
      [bo, ['BENEFICIAL_OWNER']],
      [user, ['AUTHORIZED_USER']],
      [advisor, ['FINANCIAL_ADVISOR']],
    ]);
    const idOf = (identity: string): string => members.find((m) => m.identity_id === identity)!.id!;
    await api.deleteAccountMember(idOf(user));
    expect((await api.getAccount(account.id)).members?.map((m) => m.identity_id)).toEqual([bo, advisor]);
    await api.deleteAccountMember(idOf(advisor));
    expect((await api.getAccount(account.id)).members?.map((m) => m.identity_id)).toEqual([bo]);
    expect((await refusal(api.deleteAccountMember(idOf(advisor)))).status).toBe(404);
    const fixed = await refusal(api.deleteAccountMember(idOf(bo)));
    expect([fixed.status, fixed.detail]).toEqual([403, expect.stringMatching(/only FINANCIAL_ADVISOR and AUTHORIZED_USER/)]);
    expect((await refusal(sb.other.deleteAccountMember(idOf(bo)))).status).toBe(404);
    expect((await api.getAccount(account.id)).members?.map((m) => m.identity_id)).toEqual([bo]);
  });

  it("lets an institution's profile trade and transfer once its sanctions verification alone is APPROVED", async () => {
    const { api } = sb;
    const corp = await api.createIdentity(corporation({ name: 'Gate Corp' }));
    const account = await api.createAccount({ account: { identity_id: corp.id }, create_profile: true });
    const profile = account.profile_id!;
    await api.createSandboxDeposit(profile, { asset: 'USD', amount: '1000' });
    const order = { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '100' } as const;
    const transfer = { from_profile_id: profile, to_profile_id: 'default', asset: 'USD', amount: '10' } as const;
    const refused = await refusal(api.createOrder(profile, order));
    expect([refused.status, refused.detail, refused.meta]).toEqual([
      403,
      expect.stringMatching(/an institution needs sanctions_verification_status APPROVED/),
      expect.objectContaining({ identity_id: corp.id, sanctions_verification_status: 'PENDING' }),
    ]);
    const refusedTransfer = await refusal(api.createInternalTransfer(transfer));
    expect([refusedTransfer.status, refusedTransfer.meta?.identity_id]).toEqual([403, corp.id]);
    await api.sandboxSetIdentityStatus(corp.id, { document_verification_status: 'APPROVED', additional_screening_status: 'APPROVED' });
    expect((await refusal(api.createOrder(profile, order))).status).toBe(403);
    expect((await api.getProfileBalance(profile, 'USD')).available).toBe('1000');
    await api.sandboxSetIdentityStatus(corp.id, { sanctions_verification_status: 'APPROVED' });
    const approved = await api.getIdentity(corp.id, { include_details: true });
    expect(approved.summary_status).toBe('APPROVED');
    expect((await api.createOrder(profile, order)).status).toBe('FILLED');
    const afterOrder = new D((await api.getProfileBalance(profile, 'USD')).available);
    expect(afterOrder.lt(1000)).toBe(true);
    expect((await api.createInternalTransfer(transfer)).status).toBe('PENDING');
    sb.advance(1_000);
    expect((await api.getProfileBalance(profile, 'USD')).available).toBe(afterOrder.minus(10).toFixed());
    await api.sandboxSetIdentityStatus(corp.id, { sanctions_verification_status: 'PENDING' });
    expect((await refusal(api.createInternalTransfer(transfer))).status).toBe(403);
  });

  it('keeps entities apart: another entity cannot act on the primary profiles', async () => {
    const r = await refusal(sb.other.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '10' }));
    expect(r.status).toBe(403);
    const own = await sb.other.createProfile({ nickname: 'cp-main' });
    expect((await sb.other.listProfiles()).items.map((p) => p.id)).toEqual([own.id]);
    expect((await refusal(sb.api.listProfileBalances(own.id))).status).toBe(403);
  });
});
