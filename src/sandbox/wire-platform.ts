import { type ExistingRecord } from '../sim/errors.js';
import {
  type SimAccount,
  type SimConversion,
  type SimDepositAddress,
  type SimWithdrawalFee,
  type SimFiatAccount,
  type SimDestinationAddress,
  type SimDepositInstructions,
  type SimIdentity,
  summaryStatus,
  type SimDocument,
  type SimSettlement,
  type TaxFormLink,
} from '../sim/index.js';
import { type SimPlatform } from '../sim/sim.js';
import { isoTime } from '../sim/time.js';

type Json = Record<string, unknown>;

const opt = (key: string, value: unknown): Json => (value === undefined ? {} : { [key]: value });
const time = (key: string, ms: number | undefined): Json => (ms === undefined ? {} : { [key]: isoTime(ms) });

/** The wire Identity; details and institution members only when asked (GetIdentity's include_* flags). */
export function wireIdentity(sim: SimPlatform, i: SimIdentity, include: { details: boolean; members: boolean }): Json {
  const s = i.statuses;
  const details =
    i.type === 'PERSON'
      ? {
          person_details: {
            ...i.details,
            id_verification_status: s.id_verification_status,
            sanctions_verification_status: s.sanctions_verification_status,
            additional_screening_status: s.additional_screening_status,
          },
        }
      : {
          institution_details: {
            ...i.details,
            sanctions_verification_status: s.sanctions_verification_status,
            document_verification_status: s.document_verification_status,
            additional_screening_status: s.additional_screening_status,
          },
        };
  const tin = i.taxDetails.map((t) => t.tin_verification_status);
  return {
    id: i.id,
    type: i.type,
    ...opt('ref_id', i.refId),
    summary_status: summaryStatus(i),
    metadata: { ...i.metadata },
    user_disabled: i.userDisabled,
    admin_disabled: i.adminDisabled,
    created_at: isoTime(i.createdAt),
    updated_at: isoTime(i.updatedAt),
    ...(include.details ? details : {}),
    ...(include.members && i.type === 'INSTITUTION' ? { institution_members: i.members.map((m) => wireMember(sim, m)) } : {}),
    tax_details: i.taxDetails.map((t) => ({ ...t })),
    tax_details_not_required: i.taxDetailsNotRequired,
    ...(tin.length > 0
      ? {
          summary_tin_verification_status: tin.includes('TIN_VERIFICATION_ERROR')
            ? 'TIN_VERIFICATION_ERROR'
            : tin.every((t) => t === 'TIN_VERIFICATION_VALID')
              ? 'TIN_VERIFICATION_VALID'
              : 'TIN_VERIFICATION_PENDING',
        }
      : {}),
    ...opt('customer_due_diligence', i.customerDueDiligence),
    ...opt('is_merchant', i.isMerchant),
    ...time('last_kyc_refresh_date', i.lastKycRefreshDate),
  };
}

export function wireMember(sim: SimPlatform, m: SimIdentity['members'][number]): Json {
  const member = sim.platform.identities.find(m.identityId);
  const name =
    member === undefined
      ? undefined
      : member.type === 'PERSON'
        ? [member.details.first_name, member.details.last_name].filter(Boolean).join(' ') || undefined
        : member.details.name;
  return {
    id: m.id,
    identity_id: m.identityId,
    roles: [...m.roles],
    ...opt('ownership', m.ownership),
    ...opt('position', m.position),
    ...opt('name', name),
    ...(member ? { summary_status: summaryStatus(member) } : {}),
  };
}

export function wireDocument(d: SimDocument): Json {
  return {
    file_id: d.fileId,
    name: d.name,
    document_types: [...d.documentTypes],
    created_at: isoTime(d.uploadedAt ?? d.requestedAt),
    ...time('archived_at', d.archivedAt),
  };
}

/** The wire Account: summary_status is the owner identity's, or DISABLED for a disabled account. */
export function wireAccount(sim: SimPlatform, a: SimAccount): Json {
  const identity = sim.platform.identities.find(a.identityId);
  const summary = a.userDisabled || a.adminDisabled ? 'DISABLED' : identity === undefined ? 'PENDING' : summaryStatus(identity);
  return {
    id: a.id,
    identity_id: a.identityId,
    ...opt('description', a.description),
    admin_disabled: a.adminDisabled,
    user_disabled: a.userDisabled,
    metadata: { ...a.metadata },
    ...opt('ref_id', a.refId),
    members: a.members.map((m) => ({ id: m.id, identity_id: m.identityId, roles: [...m.roles] })),
    created_at: isoTime(a.createdAt),
    updated_at: isoTime(a.updatedAt),
    summary_status: summary,
    ...opt('profile_id', a.profileId),
    type: a.type,
  };
}

/**
 * The wire FiatAccount: full, or the list view (`withheld` set): account numbers masked to
 * `XXXX` and the last four, the owner's name and address withheld but their keys kept (the
 * schema requires them): the owner `{}` and the address but for its country (valid against the
 * schema), or `null` as the spec's list example sends them.
 */
export function wireFiatAccount(a: SimFiatAccount, withheld?: 'empty' | 'null'): Json {
  const instructions: Json = { ...a.instructions };
  let owner: unknown = a.holder;
  if (withheld !== undefined) {
    if ('fiat_account_owner_address' in instructions)
      instructions.fiat_account_owner_address = withheld === 'null' ? null : maskedAddress(instructions.fiat_account_owner_address);
    // the spec's list example also sends the bank's address as null
    if (withheld === 'null' && instructions.routing_details !== null && typeof instructions.routing_details === 'object')
      instructions.routing_details = { ...(instructions.routing_details as Json), bank_address: null };
    for (const k of ['account_number', 'account_id', 'wallet_address'])
      if (typeof instructions[k] === 'string') instructions[k] = `XXXX${(instructions[k] as string).slice(-4)}`;
    owner = withheld === 'null' ? Object.fromEntries(Object.keys(a.holder).map((k) => [k, null])) : {};
  }
  return {
    id: a.id,
    ...opt('ref_id', a.refId),
    ...opt('identity_id', a.identityId),
    ...opt('account_id', a.accountId),
    fiat_account_owner: owner,
    fiat_network_instructions: { [a.network]: instructions },
    status: a.status,
    metadata: { ...a.metadata },
    created_at: isoTime(a.createdAt),
    updated_at: isoTime(a.updatedAt),
    ...(a.deletedAt !== undefined ? { deleted_at: isoTime(a.deletedAt) } : {}),
  };
}

/** A crypto destination address: APPROVED at once (the sandbox screens nothing). */
export function wireDestinationAddress(a: SimDestinationAddress): Json {
  return {
    id: a.id,
    crypto_network: a.cryptoNetwork,
    address: a.address,
    nickname: a.nickname,
    status: 'APPROVED',
    created_at: isoTime(a.createdAt),
    bookmarked: a.bookmarked,
    ...(a.travelruleMetadata !== undefined ? { travelrule_metadata: a.travelruleMetadata } : {}),
  };
}

/** A postal address withheld but for its country (the one field the schema requires). */
function maskedAddress(value: unknown): Json {
  const a = (value ?? {}) as Json;
  return a.country === undefined ? {} : { country: a.country };
}

const PLATFORM_BANK_ADDRESS = { country: 'USA', address1: '1 Sandbox Plaza', city: 'New York', province: 'NY', zip_code: '10001' };

/** Deposit instructions: the platform's receiving account for the network, and the memo to quote. */
export function wireDepositInstructions(x: SimDepositInstructions): Json {
  const wire = {
    account_number: '000123456789',
    fiat_account_owner_address: PLATFORM_BANK_ADDRESS,
    routing_details: {
      routing_number_type: x.routingNumberType,
      routing_number: x.routingNumberType === 'ABA' ? '123456789' : 'TLSBUS33XXX',
      bank_name: 'Tradeloop Sandbox Bank',
      bank_address: PLATFORM_BANK_ADDRESS,
    },
  };
  const byNetwork: Json = {
    WIRE: { wire },
    CUBIX: { cubix: { account_id: 'tradeloop-sandbox' } },
    DBS_ACT: { dbs_act: { account_number: '0721234567' } },
    SCB: { scb: { account_number: '01234567890' } },
  };
  return {
    id: x.id,
    profile_id: x.profileId,
    identity_id: x.identityId ?? '',
    ...opt('account_id', x.accountId),
    ...opt('ref_id', x.refId),
    status: 'VALID',
    memo_id: x.memoId,
    fiat_network_instructions: byNetwork[x.network],
    fiat_account_owner: { institution_details: { name: 'Tradeloop Sandbox Trust' } },
    metadata: { ...x.metadata },
    created_at: isoTime(x.createdAt),
  };
}

export function wireDepositAddress(sim: SimPlatform, a: SimDepositAddress): Json {
  return {
    id: a.id,
    profile_id: a.profileId,
    customer_id: sim.platform.customerId(a.owner),
    ...opt('identity_id', a.identityId),
    ...opt('account_id', a.accountId),
    ...opt('ref_id', a.refId),
    crypto_network: a.cryptoNetwork,
    address: a.address,
    conversion_target_asset: a.conversionTargetAsset,
    compatible_crypto_networks: [...a.compatibleNetworks],
    metadata: { ...a.metadata },
    created_at: isoTime(a.createdAt),
  };
}

export function wireWithdrawalFee(f: SimWithdrawalFee): Json {
  return {
    id: f.id,
    fee: f.fee.toFixed(),
    asset: f.asset,
    amount: f.amount.toFixed(),
    total: f.total.toFixed(),
    expires_at: isoTime(f.expiresAt),
    destination_address: f.destinationAddress,
    crypto_network: f.cryptoNetwork,
  };
}

export function wireSettlement(s: SimSettlement): Json {
  return {
    id: s.id,
    ref_id: s.refId,
    settlement_window_start: isoTime(s.windowStart),
    settlement_window_end: isoTime(s.windowEnd),
    source_profile_id: s.sourceProfileId,
    target_profile_id: s.targetProfileId,
    legs: s.legs.map((l) => ({ id: l.id, direction: l.direction, asset: l.asset, amount: l.amount.toFixed() })),
    status: s.status,
    created_at: isoTime(s.createdAt),
    updated_at: isoTime(s.updatedAt),
  };
}

export function wireConversion(c: SimConversion): Json {
  return {
    id: c.id,
    profile_id: c.profileId,
    amount: c.amount.toFixed(2),
    source_asset: c.sourceAsset,
    target_asset: c.targetAsset,
    status: c.status,
    ...opt('ref_id', c.refId),
    ...opt('identity_id', c.identityId),
    ...opt('account_id', c.accountId),
    created_at: isoTime(c.createdAt),
    updated_at: isoTime(c.updatedAt),
    ...time('settled_at', c.settledAt),
    ...time('cancelled_at', c.cancelledAt),
    metadata: { ...c.metadata },
    ...opt('recipient_profile_id', c.recipientProfileId),
  };
}

export function wireTaxFormLink(baseUrl: string, l: TaxFormLink): Json {
  return { account_id: l.accountId, type: l.type, tax_year: l.taxYear, revision: String(l.revision), url: `${baseUrl}${l.path}` };
}

/** `meta.existing` of a 409 for the platform areas' records. */
export function renderPlatformRecord(sim: SimPlatform, e: ExistingRecord): unknown {
  const p = sim.platform;
  switch (e.kind) {
    case 'identity': {
      const i = p.identities.find(e.id);
      return i === undefined ? undefined : wireIdentity(sim, i, { details: true, members: true });
    }
    case 'account': {
      const a = p.accounts.find(e.id);
      return a === undefined ? undefined : wireAccount(sim, a);
    }
    case 'fiat-account': {
      const a = p.fiatAccounts.saved().find((x) => x.id === e.id);
      return a === undefined ? undefined : wireFiatAccount(a);
    }
    case 'deposit-instructions': {
      const x = p.fiat.saved().find((r) => r.id === e.id);
      return x === undefined ? undefined : wireDepositInstructions(x);
    }
    case 'deposit-address': {
      const a = p.crypto.saved().addresses.find((r) => r.id === e.id);
      return a === undefined ? undefined : wireDepositAddress(sim, a);
    }
    case 'settlement': {
      const s = p.settlements.find(e.id);
      return s === undefined ? undefined : wireSettlement(s);
    }
    case 'conversion': {
      const c = p.conversions.find(e.id);
      return c === undefined ? undefined : wireConversion(c);
    }
    default:
      return undefined;
  }
}
