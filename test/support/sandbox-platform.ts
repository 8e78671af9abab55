import { type ApiClient, type CreateIdentityRequest, allScopes, createApiClient } from '../../src/api/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/environment.js';
import { type SandboxOptions } from '../../src/sandbox/index.js';
import { type TestSandbox, startTestSandbox } from './sandbox-fixture.js';

/** The second entity's credential (a counterparty: its own profiles, identities and accounts). */
export const COUNTERPARTY = { clientId: 'counterparty', clientSecret: 'counterparty-secret', entity: 'counterparty' } as const;

export interface PlatformSandbox extends TestSandbox {
  /** The typed client of the primary entity (every scope). */
  readonly api: ApiClient;
  /** The typed client of the counterparty entity. */
  readonly other: ApiClient;
}

/**
 * A sandbox on 127.0.0.1 port 0 with a TestClock and two entities (the primary credential and a
 * counterparty), each with a typed client holding every scope: what the platform flow tests use.
 */
export async function startPlatformSandbox(options: Partial<SandboxOptions> = {}): Promise<PlatformSandbox> {
  const sb = await startTestSandbox({
    clients: [{ clientId: LOCAL_CLIENT_ID, clientSecret: LOCAL_CLIENT_SECRET }, COUNTERPARTY],
    ...options,
  });
  let seq = 0;
  const client = (clientId: string, clientSecret: string): ApiClient =>
    createApiClient({
      apiUrl: sb.handle.apiUrl,
      tokenUrl: sb.handle.tokenUrl,
      clientId,
      clientSecret,
      scopes: allScopes(),
      makeRefId: () => `auto-${++seq}`,
      maxRetries: 0,
    });
  const api = client(LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET);
  const other = client(COUNTERPARTY.clientId, COUNTERPARTY.clientSecret);
  return {
    ...sb,
    api,
    other,
    close: async () => {
      await Promise.all([api.close(), other.close()]);
      await sb.close();
    },
  };
}

export const ADDRESS = { country: 'USA', address1: '1 Main St', city: 'New York', province: 'NY', zip_code: '10001' } as const;

/** A person verified by the customer's own verifier (PASSTHROUGH): US, so tax details fill in. */
export function passthroughPerson(overrides: Record<string, unknown> = {}, ref?: string): CreateIdentityRequest {
  return {
    ...(ref !== undefined ? { ref_id: ref } : {}),
    person_details: {
      verifier_type: 'PASSTHROUGH',
      passthrough_verifier_type: 'PERSONA',
      passthrough_verified_at: '2025-03-01T00:00:00Z',
      passthrough_verification_status: 'APPROVED',
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      cip_id: `${100_000_000 + Math.floor(Math.abs(hash(ref ?? JSON.stringify(overrides))) % 899_999_999)}`,
      cip_id_type: 'SSN',
      cip_id_country: 'USA',
      nationality: 'USA',
      address: ADDRESS,
      ...overrides,
    },
  };
}

/** A corporation with every field "other institutions" require. */
export function corporation(
  overrides: Record<string, unknown> = {},
  members: CreateIdentityRequest['institution_members'] = [],
): CreateIdentityRequest {
  return {
    institution_details: {
      name: 'Acme Corp',
      cip_id: '12-3456789',
      cip_id_type: 'EIN',
      cip_id_country: 'USA',
      institution_type: 'CORPORATION',
      institution_sub_type: 'BLOCKCHAIN',
      business_address: ADDRESS,
      incorporation_address: ADDRESS,
      govt_registration_date: '2015-06-01T00:00:00Z',
      regulation_status: 'NON_REGULATED',
      trading_type: 'PRIVATE',
      ...overrides,
    },
    institution_members: members,
  };
}

/** Creates a person and approves its id and sanctions verification: it may transact. */
export async function approvedPerson(api: ApiClient, ref: string): Promise<string> {
  const created = await api.createIdentity(passthroughPerson({}, ref));
  await api.sandboxSetIdentityStatus(created.id, { id_verification_status: 'APPROVED', sanctions_verification_status: 'APPROVED' });
  return created.id;
}

/** US wire instructions for a fiat account with the given account number. */
export function wireAccount(accountNumber: string): Record<string, unknown> {
  return {
    wire: {
      account_number: accountNumber,
      fiat_account_owner_address: ADDRESS,
      routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'First Bank', bank_address: ADDRESS },
    },
  };
}

function hash(text: string): number {
  let h = 7;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

/** The typed error a call fails with (fails the test when the call succeeds). */
export async function refusal(call: Promise<unknown>): Promise<{
  status: number | undefined;
  slug: string | undefined;
  detail: string;
  meta: Readonly<Record<string, unknown>> | undefined;
  error: Error;
}> {
  try {
    await call;
  } catch (error) {
    const e = error as {
      status?: number;
      slug?: string;
      problem?: { detail?: string; meta?: Readonly<Record<string, unknown>> };
      message: string;
    };
    return { status: e.status, slug: e.slug, detail: e.problem?.detail ?? e.message, meta: e.problem?.meta, error: error as Error };
  }
  throw new Error('expected the call to be refused, it succeeded');
}
