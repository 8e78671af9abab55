import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type PlatformSandbox,
  ADDRESS,
  corporation,
  passthroughPerson,
  refusal,
  startPlatformSandbox,
} from '../support/sandbox-platform.js';

describe('sandbox identities through the typed client', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox();
  });
  afterEach(() => sb.close());

  it('derives summary_status from the facets: PENDING → APPROVED → DENIED → DISABLED', async () => {
    const { api } = sb;
    const p = await api.createIdentity(passthroughPerson({}, 'p-1'));
    expect(p).toMatchObject({ type: 'PERSON', ref_id: 'p-1', summary_status: 'PENDING' });
    expect(p.person_details).toMatchObject({
      verifier_type: 'PASSTHROUGH',
      id_verification_status: 'APPROVED',
      sanctions_verification_status: 'PENDING',
    });
    expect(p.tax_details).toEqual([
      {
        tax_payer_id: (p.person_details as { cip_id: string }).cip_id,
        tax_payer_country: 'USA',
        tin_verification_status: 'TIN_VERIFICATION_PENDING',
      },
    ]);
    await api.sandboxSetIdentityStatus(p.id, { sanctions_verification_status: 'APPROVED' });
    expect((await api.getIdentity(p.id)).summary_status).toBe('APPROVED');
    await api.sandboxSetIdentityStatus(p.id, { additional_screening_status: 'DENIED' });
    expect((await api.getIdentity(p.id)).summary_status).toBe('DENIED');
    await api.sandboxSetIdentityStatus(p.id, { additional_screening_status: 'APPROVED', user_disabled: { disabled: true } });
    expect((await api.getIdentity(p.id)).summary_status).toBe('DISABLED');
    const bad = await refusal(api.sandboxSetIdentityStatus(p.id, { id_verification_status: 'MAYBE' }));
    expect([bad.status, bad.meta?.field]).toEqual([400, 'id_verification_status']);
  });

  it('accepts JUMIO and PASSTHROUGH persons with their required fields and refuses PAXOS and MANUAL', async () => {
    const { api } = sb;
    for (const verifier of ['PAXOS', 'MANUAL']) {
      const r = await refusal(api.createIdentity(passthroughPerson({ verifier_type: verifier })));
      expect([r.status, r.meta?.field]).toEqual([400, 'person_details.verifier_type']);
    }
    const noDate = await refusal(api.createIdentity(passthroughPerson({ passthrough_verified_at: undefined })));
    expect(noDate.meta?.field).toBe('person_details.passthrough_verified_at');
    const withVerifierId = await refusal(api.createIdentity(passthroughPerson({ verifier_id: 'v-1' })));
    expect(withVerifierId.meta?.field).toBe('person_details.verifier_id');
    const noAddress = await refusal(api.createIdentity(passthroughPerson({ address: undefined })));
    expect(noAddress.meta?.field).toBe('person_details.address');
    const jumio = {
      verifier_type: 'JUMIO',
      verifier_id: 'jumio-123',
      passthrough_verifier_type: undefined,
      passthrough_verified_at: undefined,
      passthrough_verification_status: undefined,
    };
    const noCredentials = await refusal(api.createIdentity(passthroughPerson(jumio, 'j-1')));
    expect(noCredentials.detail).toMatch(/SetVerifierCredentials/);
    expect(
      (await refusal(api.setVerifierCredentials({ verifier_type: 'PASSTHROUGH', auth_token: 't', auth_secret: 's' }))).meta?.field,
    ).toBe('verifier_type');
    await api.setVerifierCredentials({ verifier_type: 'JUMIO', auth_token: 'token', auth_secret: 'secret' });
    const noId = await refusal(api.createIdentity(passthroughPerson({ ...jumio, verifier_id: undefined })));
    expect(noId.meta?.field).toBe('person_details.verifier_id');
    const created = await api.createIdentity(passthroughPerson(jumio, 'j-1'));
    expect(created.person_details).toMatchObject({ verifier_type: 'JUMIO', id_verification_status: 'PENDING' });
  });

  it('requires tax_details for international persons and fills them for US ones', async () => {
    const { api } = sb;
    const intl = await refusal(api.createIdentity(passthroughPerson({ cip_id_country: 'FRA', nationality: 'FRA' })));
    expect([intl.status, intl.meta?.field]).toEqual([400, 'tax_details']);
    const body = passthroughPerson({ cip_id_country: 'FRA' });
    const ok = await api.createIdentity({ ...body, tax_details: [{ tax_payer_id: 'FR123', tax_payer_country: 'FRA' }] });
    expect(ok.tax_details).toEqual([
      { tax_payer_id: 'FR123', tax_payer_country: 'FRA', tin_verification_status: 'TIN_VERIFICATION_PENDING' },
    ]);
    const sameCip = await refusal(api.createIdentity({ ...body, tax_details: [{ tax_payer_id: 'FR999', tax_payer_country: 'FRA' }] }));
    expect([sameCip.status, sameCip.detail]).toEqual([409, expect.stringMatching(/cip_id/)]);
    const other = passthroughPerson({ cip_id_country: 'FRA', cip_id: 'FR-2' });
    const tooLong = await refusal(
      api.createIdentity({ ...other, tax_details: [{ tax_payer_id: 'X'.repeat(36), tax_payer_country: 'FRA' }] }),
    );
    expect(tooLong.meta?.field).toBe('tax_details[0].tax_payer_id');
  });

  it('checks institution types, sub-types, prohibited activities, required fields, member roles and ownership', async () => {
    const { api } = sb;
    const person = await api.createIdentity(passthroughPerson({}, 'owner'));
    expect((await refusal(api.createIdentity(corporation({ institution_sub_type: 'INVESTMENT' })))).meta?.field).toBe(
      'institution_details.institution_sub_type',
    );
    const prohibited = await refusal(api.createIdentity(corporation({ institution_sub_type: 'WEAPONS' })));
    expect([prohibited.status, prohibited.detail]).toEqual([403, expect.stringMatching(/barred/)]);
    expect((await refusal(api.createIdentity(corporation({ regulation_status: undefined })))).meta?.field).toBe(
      'institution_details.regulation_status',
    );
    const trust = {
      institution_type: 'TRUST',
      institution_sub_type: 'INVESTMENT',
      cip_id_type: 'EIN',
      incorporation_address: undefined,
      regulation_status: undefined,
      trading_type: undefined,
    };
    expect((await refusal(api.createIdentity(corporation(trust)))).meta?.field).toBe('institution_details.incorporation_address');
    const ssnTrust = await api.createIdentity(
      corporation({ ...trust, cip_id_type: 'SSN', cip_id: '987654321' }, [
        { identity_id: person.id, roles: ['TRUSTEE'], ownership: '100' },
      ]),
    );
    expect(ssnTrust.institution_members).toEqual([
      expect.objectContaining({ identity_id: person.id, roles: ['TRUSTEE'], ownership: '100', name: 'Ada Lovelace' }),
    ]);
    expect((await refusal(api.createIdentity(corporation({}, [{ identity_id: person.id, roles: ['TRUSTEE'] }])))).meta?.field).toBe(
      'institution_members[0].roles[0]',
    );
    expect(
      (await refusal(api.createIdentity(corporation({}, [{ identity_id: person.id, roles: ['BENEFICIAL_OWNER'], ownership: '101' }])))).meta
        ?.field,
    ).toBe('institution_members[0].ownership');
    const corp = await api.createIdentity(corporation({}, [{ identity_id: person.id, roles: ['BENEFICIAL_OWNER'], ownership: '60' }]));
    expect(corp).toMatchObject({ type: 'INSTITUTION', summary_status: 'PENDING' });
    await api.sandboxSetIdentityStatus(corp.id, { sanctions_verification_status: 'APPROVED' });
    expect((await api.getIdentity(corp.id)).summary_status).toBe('APPROVED');
  });

  it('updates without person ↔ institution conversion, replaces tax_details whole and keeps ref_id unique', async () => {
    const { api } = sb;
    const a = await api.createIdentity(passthroughPerson({}, 'u-a'));
    await api.createIdentity(passthroughPerson({}, 'u-b'));
    const convert = await refusal(api.updateIdentity(a.id, { institution_details: { name: 'Now a company' } }));
    expect([convert.status, convert.detail]).toEqual([400, expect.stringMatching(/conversion between person and institution/)]);
    const updated = await api.updateIdentity(a.id, {
      tax_details: [{ tax_payer_id: 'NEW-1', tax_payer_country: 'USA' }],
      person_details: { profession: 'engineer' },
      metadata: { tier: 'gold' },
    });
    expect(updated.tax_details).toEqual([
      { tax_payer_id: 'NEW-1', tax_payer_country: 'USA', tin_verification_status: 'TIN_VERIFICATION_PENDING' },
    ]);
    expect(updated.person_details).toMatchObject({ profession: 'engineer', first_name: 'Ada' });
    expect((await api.updateIdentity(a.id, { tax_details: [] })).tax_details).toEqual([]);
    const clash = await refusal(api.updateIdentity(a.id, { ref_id: 'u-b' }));
    expect(clash.status).toBe(409);
    const disabled = await api.updateIdentity(a.id, { set_user_disabled: true });
    expect(disabled.summary_status).toBe('DISABLED');
  });

  it('adds institution members keeping the existing ones, refuses a duplicate and removes by member id', async () => {
    const { api } = sb;
    const p1 = await api.createIdentity(passthroughPerson({}, 'm-1'));
    const p2 = await api.createIdentity(passthroughPerson({}, 'm-2'));
    const corp = await api.createIdentity(corporation({}, [{ identity_id: p1.id, roles: ['ACCOUNT_OPENER'] }]));
    const added = (await api.addInstitutionMembers({
      institution_id: corp.id,
      members: [{ identity_id: p2.id, roles: ['AUTHORIZED_USER'], position: 'CFO' }],
    })) as unknown as { institution_id: string; members: Array<{ id: string; identity_id: string }> };
    expect(added).toMatchObject({
      institution_id: corp.id,
      members: [expect.objectContaining({ identity_id: p2.id, id: expect.any(String) })],
    });
    const withMembers = await api.getIdentity(corp.id, { include_institution_members: true });
    expect(withMembers.institution_members?.map((m) => m.identity_id)).toEqual([p1.id, p2.id]);
    expect(
      (
        await refusal(
          api.addInstitutionMembers({ institution_id: corp.id, members: [{ identity_id: p2.id, roles: ['BENEFICIAL_OWNER'] }] }),
        )
      ).status,
    ).toBe(409);
    expect(
      (await refusal(api.addInstitutionMembers({ institution_id: p1.id, members: [{ identity_id: p2.id, roles: ['BENEFICIAL_OWNER'] }] })))
        .meta?.field,
    ).toBe('institution_id');
    await api.deleteInstitutionMember(added.members[0]!.id);
    expect((await api.getIdentity(corp.id, { include_institution_members: true })).institution_members?.map((m) => m.identity_id)).toEqual([
      p1.id,
    ]);
    expect((await refusal(api.deleteInstitutionMember(added.members[0]!.id))).status).toBe(404);
  });

  it("lists with filters and cursor paging, hides details unless asked and other entities' identities", async () => {
    const { api, other } = sb;
    for (let i = 0; i < 3; i++) {
      await api.createIdentity(passthroughPerson({}, `l-${i}`));
      sb.advance(1000);
    }
    const corp = await api.createIdentity(corporation());
    const page1 = await api.listIdentities({ identity_type: 'PERSON', limit: 2 });
    expect(page1.items.map((i) => i.ref_id)).toEqual(['l-2', 'l-1']);
    expect(page1.items[0]!.person_details).toBeUndefined();
    const page2 = await api.listIdentities({ identity_type: 'PERSON', limit: 2, page_cursor: page1.next_page_cursor });
    expect(page2.items.map((i) => i.ref_id)).toEqual(['l-0']);
    expect((await api.listIdentities({ identity_type: 'INSTITUTION' })).items.map((i) => i.id)).toEqual([corp.id]);
    expect((await api.listIdentities({ summary_status: 'APPROVED' })).items).toEqual([]);
    expect((await api.getIdentity(corp.id, { include_details: true })).institution_details).toMatchObject({ name: 'Acme Corp' });
    expect((await refusal(other.getIdentity(corp.id))).status).toBe(404);
    expect((await other.listIdentities()).items).toEqual([]);
  });

  it('retries id verification only for platform-verified identities', async () => {
    const { api } = sb;
    const p = await api.createIdentity(passthroughPerson({}, 'r-1'));
    expect((await refusal(api.retryIdVerification(p.id))).status).toBe(400);
    await api.updateIdentity(p.id, { person_details: { verifier_type: 'PAXOS' } });
    const retried = (await api.retryIdVerification(p.id)) as unknown as { url: string };
    expect(retried.url).toMatch(new RegExp(`/identity/verifications/${p.id}/1$`));
    expect((await api.getIdentity(p.id, { include_details: true })).person_details).toMatchObject({ id_verification_status: 'PENDING' });
  });

  it('answers 403 for identity documents outside the beta', async () => {
    const p = await sb.api.createIdentity(passthroughPerson({}, 'd-1'));
    const r = await refusal(sb.api.documentUpload(p.id, { name: 'passport.pdf', document_types: ['IDENTITY_VERIFICATION'] }));
    expect([r.status, r.detail]).toEqual([403, expect.stringMatching(/document storage not enabled/)]);
    expect((await refusal(sb.api.listIdentityDocuments(p.id))).status).toBe(403);
    expect(ADDRESS.country).toBe('USA');
  });
});

describe('sandbox identity documents when enabled', () => {
  let sb: PlatformSandbox;
  beforeEach(async () => {
    sb = await startPlatformSandbox({ sim: { platform: { documents: true, maxDocumentBytes: 1024 } } });
  });
  afterEach(() => sb.close());

  const upload = (url: string, bytes: Buffer, method = 'PUT'): Promise<Response> => fetch(url, { method, body: bytes });

  it('hands out an upload address, takes pdf/jpg/png under the size limit and archives an older document of the same type', async () => {
    const { api } = sb;
    const p = await api.createIdentity(passthroughPerson({}, 'doc'));
    const first = (await api.documentUpload(p.id, { name: 'passport.pdf', document_types: ['IDENTITY_VERIFICATION'] })) as {
      file_id: string;
      upload_url: string;
    };
    expect(first.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/identity\/document-uploads\//);
    expect((await api.listIdentityDocuments(p.id, { include_pending_docs: true })).pending_documents).toEqual(['IDENTITY_VERIFICATION']);
    expect((await upload(first.upload_url, Buffer.from('GIF89a not allowed'))).status).toBe(400);
    expect((await upload(first.upload_url, Buffer.concat([Buffer.from('%PDF-1.7'), Buffer.alloc(2000)]))).status).toBe(413);
    expect((await upload(first.upload_url, Buffer.from('%PDF-1.7 small'))).status).toBe(200);
    expect((await refusal(api.documentUpload(p.id, { name: 'passport.pdf', document_types: ['IDENTITY_VERIFICATION'] }))).status).toBe(409);
    const second = (await api.documentUpload(p.id, { name: 'passport-2.png', document_types: ['IDENTITY_VERIFICATION'] })) as {
      upload_url: string;
    };
    sb.advance(1000);
    expect((await upload(second.upload_url, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]), 'POST')).status).toBe(200);
    const docs = await api.listIdentityDocuments(p.id, { include_pending_docs: true });
    expect(docs.documents?.map((d) => [d.name, d.archived_at !== undefined])).toEqual([
      ['passport.pdf', true],
      ['passport-2.png', false],
    ]);
    expect(docs.pending_documents).toEqual([]);
    expect((await refusal(api.documentUpload(p.id, { name: 'x.pdf', document_types: ['SELFIE'] }))).meta?.field).toBe('document_types[0]');
  });
});
