import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { PRIMARY_ENTITY } from '../owners.js';
import { SimPlatform } from '../sim.js';
import { parseSnapshot } from '../snapshot.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);
const ADDRESS = { country: 'USA', address1: '1 Main St', city: 'New York', province: 'NY' };
const WIRE = {
  wire: {
    account_number: '123456789',
    fiat_account_owner_address: ADDRESS,
    routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'B' },
  },
};

describe('platform state in sim snapshots', () => {
  it('restores identities, accounts, fiat accounts mid-review, addresses, held deposits, settlements and conversions, which keep moving', () => {
    const clock = new TestClock(T0);
    const sim = new SimPlatform({ clock, seed: 5, funding: { USD: '10000' } });
    const p = sim.platform;
    const now = sim.now();
    const person = p.identities.create(
      {
        ref_id: 'snap',
        person_details: {
          verifier_type: 'PASSTHROUGH',
          passthrough_verifier_type: 'PLAID',
          passthrough_verified_at: '2025-01-01T00:00:00Z',
          cip_id: '1',
          cip_id_country: 'USA',
          address: ADDRESS,
        },
      },
      PRIMARY_ENTITY,
      now,
    );
    p.identities.setStatus(
      person.id,
      { id_verification_status: 'APPROVED', sanctions_verification_status: 'APPROVED' },
      PRIMARY_ENTITY,
      now,
    );
    const account = p.accounts.create({ account: { identity_id: person.id }, create_profile: true }, PRIMARY_ENTITY, now);
    const fiat = p.fiatAccounts.create(
      { fiat_account_owner: { person_details: { first_name: 'A', last_name: 'B' } }, fiat_network_instructions: WIRE },
      PRIMARY_ENTITY,
      {},
      now,
    );
    const addr = p.crypto.createAddress({ profile_id: 'default', crypto_network: 'ETHEREUM' }, PRIMARY_ENTITY, now);
    sim.deposit({ profileId: 'default', asset: 'USDP', amount: '4000', cryptoNetwork: 'ETHEREUM', cryptoAddress: addr.address });
    const other = sim.profiles.create('cp', undefined, now, 'cp').id;
    const tx = p.settlements.create(
      {
        ref_id: 's',
        source_profile_id: 'default',
        target_profile_id: other,
        legs: [{ direction: 'DELIVER', asset: 'USD', amount: '100' }],
      },
      PRIMARY_ENTITY,
      now,
    );
    const conv = p.conversions.create(
      { profile_id: 'default', amount: '50', source_asset: 'USD', target_asset: 'USDP' },
      PRIMARY_ENTITY,
      now,
    );
    p.taxForms.issueCorrection(account.id, 'FORM_1099_B', '2024', PRIMARY_ENTITY);

    const restored = new SimPlatform({ clock, restore: parseSnapshot(JSON.stringify(sim.snapshot()), 'state.json') });
    const r = restored.platform;
    expect(r.identities.get(person.id, PRIMARY_ENTITY).statuses.sanctions_verification_status).toBe('APPROVED');
    expect(r.accounts.get(account.id, PRIMARY_ENTITY).profileId).toBe(account.profileId);
    expect(restored.profiles.get(account.profileId!).accountId).toBe(account.id);
    expect(restored.allTransfers().at(-1)).toMatchObject({ status: 'PENDING', secondaryStatus: 'TRAVEL_RULE_INFO_REQUESTED' });
    expect(r.settlements.visible(tx.id, 'cp').legs[0]!.amount.toFixed()).toBe('100');
    expect(
      r.taxForms.revisions(account.id, '2024', PRIMARY_ENTITY, ['FORM_1099_B'], undefined, restored.now()).map((l) => l.revision),
    ).toEqual([1, 2]);
    clock.advance(5_000);
    restored.now();
    expect(r.fiatAccounts.get(fiat.id, PRIMARY_ENTITY).status).toBe('APPROVED');
    expect(r.conversions.get(conv.id, PRIMARY_ENTITY).status).toBe('SETTLED');
    expect(restored.accounts.balance('default', 'USDP').available.toFixed()).toBe('50');
  });
});
