import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import {
  IDENTITY_STATUSES,
  type IdentityStatus,
  type InstitutionType,
  type TaxDetail,
  checkInstitutionKind,
  institutionDetails,
  memberRoles,
  ownership,
  personDetails,
  taxDetails,
  taxDetailsOnCreate,
} from './identity-rules.js';
import {
  type JsonObject,
  arrayValue,
  enumValue,
  objectValue,
  onlyFields,
  optionalBool,
  optionalObject,
  optionalText,
  optionalTime,
} from './input.js';
import { metadata } from '../exchange/order-rules.js';

export type IdentityKind = 'PERSON' | 'INSTITUTION';
/** The verification facets the sandbox helper sets one by one. */
export const FACETS = [
  'id_verification_status',
  'sanctions_verification_status',
  'document_verification_status',
  'additional_screening_status',
] as const;
export type Facet = (typeof FACETS)[number];

export interface InstitutionMemberRecord {
  readonly id: string;
  readonly identityId: string;
  readonly roles: readonly string[];
  readonly ownership: string | undefined;
  readonly position: string | undefined;
}

/** A person or an institution, with its verification facets; `summary_status` is derived from them. */
export interface SimIdentity {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly type: IdentityKind;
  refId: string | undefined;
  metadata: Readonly<Record<string, string>>;
  details: JsonObject;
  members: InstitutionMemberRecord[];
  taxDetails: TaxDetail[];
  taxDetailsNotRequired: boolean;
  statuses: Record<Facet, IdentityStatus>;
  userDisabled: boolean;
  adminDisabled: boolean;
  customerDueDiligence: JsonObject | undefined;
  isMerchant: boolean | undefined;
  lastKycRefreshDate: number | undefined;
  /** Id verification attempts started with RetryIdVerification. */
  verificationAttempts: number;
  readonly createdAt: number;
  updatedAt: number;
}

/** The derived summary: disabled, then denied, error, approved (the facets the kind needs), pending. */
export function summaryStatus(i: SimIdentity): IdentityStatus {
  const facets = Object.values(i.statuses);
  if (i.userDisabled || i.adminDisabled || facets.includes('DISABLED')) return 'DISABLED';
  if (facets.includes('DENIED')) return 'DENIED';
  if (facets.includes('ERROR')) return 'ERROR';
  return mayTransact(i) ? 'APPROVED' : 'PENDING';
}

/** A person may transact when id and sanctions verification are APPROVED; an institution when sanctions is. */
export function mayTransact(i: SimIdentity): boolean {
  if (i.userDisabled || i.adminDisabled) return false;
  return (
    i.statuses.sanctions_verification_status === 'APPROVED' &&
    (i.type === 'INSTITUTION' || i.statuses.id_verification_status === 'APPROVED')
  );
}

const PERSON_BODY = [
  'person_details',
  'metadata',
  'tax_details',
  'ref_id',
  'tax_details_not_required',
  'customer_due_diligence',
  'is_merchant',
];
const INSTITUTION_BODY = [
  'institution_details',
  'institution_members',
  'metadata',
  'ref_id',
  'tax_details',
  'tax_details_not_required',
  'customer_due_diligence',
  'is_merchant',
];
const UPDATE_BODY = [
  'person_details',
  'institution_details',
  'metadata',
  'set_user_disabled',
  'ref_id',
  'tax_details',
  'set_tax_details_not_required',
  'customer_due_diligence',
  'is_merchant',
  'last_kyc_refresh_date',
];

/**
 * Identities of every entity: creation with the platform's person and institution rules, updates
 * (no person ↔ institution conversion, tax_details replaced whole, ref_id unique per entity),
 * institution members (kept on add, removed by id, never edited), verification facets and the
 * may-transact rule. An entity sees only its own identities (others' are 404).
 */
export class IdentityStore {
  private readonly byId = new Map<string, SimIdentity>();
  private readonly credentials = new Set<string>();

  constructor(private readonly ids: IdSource) {}

  create(body: JsonObject, owner: string, nowMs: number): SimIdentity {
    const kind = identityKind(body);
    onlyFields(body, kind === 'PERSON' ? PERSON_BODY : INSTITUTION_BODY);
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    this.checkRefId(owner, refId, undefined);
    const details = kind === 'PERSON' ? personDetails(body.person_details, true) : institutionDetails(body.institution_details, true);
    if (kind === 'PERSON' && details.verifier_type === 'JUMIO' && !this.credentials.has(owner)) {
      throw new InputError(
        'person_details.verifier_type',
        'JUMIO identities need the provider credentials first: call SetVerifierCredentials with verifier_type JUMIO',
      );
    }
    this.checkCipId(owner, details, undefined);
    // allowed for non-US institutions only: taxDetailsOnCreate answers the rule's 400 otherwise
    const notRequired = optionalBool(body.tax_details_not_required, 'tax_details_not_required') ?? false;
    const tax = taxDetailsOnCreate(taxDetails(body.tax_details), details, kind, notRequired);
    const cdd = optionalObject(body.customer_due_diligence, 'customer_due_diligence', 'the customer due diligence object');
    const merchant = optionalBool(body.is_merchant, 'is_merchant');
    const members =
      kind === 'INSTITUTION'
        ? this.newMembers(body.institution_members, details.institution_type as InstitutionType, owner, 'institution_members', false)
        : [];
    const identity: SimIdentity = {
      id: this.ids.next('identities'),
      seq: this.byId.size + 1,
      owner,
      type: kind,
      refId,
      metadata: metadata(body.metadata),
      details,
      members,
      taxDetails: tax,
      taxDetailsNotRequired: notRequired,
      statuses: initialStatuses(details),
      userDisabled: false,
      adminDisabled: false,
      customerDueDiligence: cdd,
      isMerchant: merchant,
      lastKycRefreshDate: undefined,
      verificationAttempts: 0,
      createdAt: nowMs,
      updatedAt: nowMs,
    };
    this.byId.set(identity.id, identity);
    return identity;
  }

  update(id: string, body: JsonObject, owner: string, nowMs: number): SimIdentity {
    const i = this.get(id, owner);
    onlyFields(body, UPDATE_BODY);
    if (i.type === 'PERSON' && body.institution_details !== undefined && body.institution_details !== null)
      throw new InputError('institution_details', 'identity is a person: conversion between person and institution is not allowed');
    if (i.type === 'INSTITUTION' && body.person_details !== undefined && body.person_details !== null)
      throw new InputError('person_details', 'identity is an institution: conversion between person and institution is not allowed');
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    if (refId !== undefined) this.checkRefId(owner, refId, i.id);
    const patch =
      i.type === 'PERSON'
        ? optionalObject(body.person_details, 'person_details', 'fields to change')
        : optionalObject(body.institution_details, 'institution_details', 'fields to change');
    const details =
      patch === undefined
        ? i.details
        : { ...i.details, ...(i.type === 'PERSON' ? personDetails(patch, false) : institutionDetails(patch, false)) };
    if (i.type === 'INSTITUTION' && patch !== undefined) checkInstitutionKind(details);
    if (patch !== undefined) this.checkCipId(owner, details, i.id);
    const tax = body.tax_details === undefined ? undefined : taxDetails(body.tax_details);
    const cdd = optionalObject(body.customer_due_diligence, 'customer_due_diligence', 'the customer due diligence object');
    const refresh = optionalTime(body.last_kyc_refresh_date, 'last_kyc_refresh_date');
    const disable = optionalBool(body.set_user_disabled, 'set_user_disabled');
    const notRequired = optionalBool(body.set_tax_details_not_required, 'set_tax_details_not_required');
    const merchant = optionalBool(body.is_merchant, 'is_merchant');
    i.details = details;
    if (refId !== undefined) i.refId = refId;
    if (body.metadata !== undefined) i.metadata = metadata(body.metadata);
    if (tax !== undefined) i.taxDetails = tax;
    if (cdd !== undefined) i.customerDueDiligence = cdd;
    if (refresh !== undefined) i.lastKycRefreshDate = refresh;
    if (disable !== undefined) i.userDisabled = disable;
    if (notRequired !== undefined) i.taxDetailsNotRequired = notRequired;
    if (merchant !== undefined) i.isMerchant = merchant;
    i.updatedAt = nowMs;
    return i;
  }

  /** One identity of the entity (404 for unknown ids and for other entities'). */
  get(id: string, owner: string): SimIdentity {
    const i = this.byId.get(id);
    if (i === undefined || i.owner !== owner) throw new SimError('not-found', `identity ${id} not found`);
    return i;
  }

  /** Any identity by id, whoever owns it (the may-transact gate). */
  find(id: string): SimIdentity | undefined {
    return this.byId.get(id);
  }

  /** The entity's identities in creation order. */
  list(owner: string): SimIdentity[] {
    return [...this.byId.values()].filter((i) => i.owner === owner);
  }

  /** Adds members to an institution (existing ones are kept); returns the new member records. */
  addMembers(body: JsonObject, owner: string, nowMs: number): { institution: SimIdentity; added: InstitutionMemberRecord[] } {
    onlyFields(body, ['institution_id', 'members']);
    if (typeof body.institution_id !== 'string' || body.institution_id === '')
      throw new InputError('institution_id', 'required: the id of an institution identity');
    const institution = this.get(body.institution_id, owner);
    if (institution.type !== 'INSTITUTION')
      throw new InputError('institution_id', `identity ${institution.id} is a person: members belong to institutions`);
    const added = this.newMembers(body.members, institution.details.institution_type as InstitutionType, owner, 'members', true);
    for (const m of added) {
      if (institution.members.some((e) => e.identityId === m.identityId)) {
        throw new SimError(
          'already-exists',
          `identity ${m.identityId} is already a member of ${institution.id}: members cannot be edited, remove and re-add it`,
        );
      }
    }
    institution.members.push(...added);
    institution.updatedAt = nowMs;
    return { institution, added };
  }

  /** Removes one institution member by its member id. */
  removeMember(memberId: string, owner: string, nowMs: number): void {
    for (const i of this.list(owner)) {
      const at = i.members.findIndex((m) => m.id === memberId);
      if (at < 0) continue;
      i.members.splice(at, 1);
      i.updatedAt = nowMs;
      return;
    }
    throw new SimError('not-found', `institution member ${memberId} not found`);
  }

  /** Sandbox helper: sets the given facets and disable flags. */
  setStatus(id: string, body: JsonObject, owner: string, nowMs: number): SimIdentity {
    const i = this.get(id, owner);
    onlyFields(body, [...FACETS, 'user_disabled', 'admin_disabled']);
    const next = { ...i.statuses };
    for (const f of FACETS) if (body[f] !== undefined && body[f] !== null) next[f] = enumValue(body[f], f, IDENTITY_STATUSES);
    const flag = (name: string): boolean | undefined => {
      const o = optionalObject(body[name], name, '{"disabled": true}');
      return o === undefined ? undefined : (optionalBool(o.disabled, `${name}.disabled`) ?? false);
    };
    const user = flag('user_disabled');
    const admin = flag('admin_disabled');
    i.statuses = next;
    if (user !== undefined) i.userDisabled = user;
    if (admin !== undefined) i.adminDisabled = admin;
    i.updatedAt = nowMs;
    return i;
  }

  /** RetryIdVerification: identities verified by the platform (verifier_type PAXOS) only; id verification goes back to PENDING. */
  retryIdVerification(id: string, owner: string, nowMs: number): SimIdentity {
    const i = this.get(id, owner);
    if (i.type !== 'PERSON' || i.details.verifier_type !== 'PAXOS') {
      throw new InputError(
        'id',
        `identity ${id} is not verified by the platform (verifier_type PAXOS): only those can retry id verification`,
      );
    }
    i.statuses = { ...i.statuses, id_verification_status: 'PENDING' };
    i.verificationAttempts += 1;
    i.updatedAt = nowMs;
    return i;
  }

  /** SetVerifierCredentials: the provider (JUMIO) is the one supported; the secret itself is not kept. */
  setVerifierCredentials(body: JsonObject, owner: string): void {
    onlyFields(body, ['verifier_type', 'auth_token', 'auth_secret']);
    const type = enumValue(body.verifier_type, 'verifier_type', ['JUMIO', 'PAXOS', 'PASSTHROUGH', 'MANUAL']);
    if (type !== 'JUMIO')
      throw new InputError('verifier_type', `credentials are supported for the identity provider only: use JUMIO, not ${type}`);
    for (const f of ['auth_token', 'auth_secret'])
      if (typeof body[f] !== 'string' || body[f] === '') throw new InputError(f, 'required: the credential the provider issued you');
    this.credentials.add(owner);
  }

  saved(): { identities: SimIdentity[]; credentialOwners: string[] } {
    return { identities: [...this.byId.values()], credentialOwners: [...this.credentials] };
  }

  restore(saved: { readonly identities?: readonly SimIdentity[]; readonly credentialOwners?: readonly string[] }): void {
    for (const i of saved.identities ?? []) this.byId.set(i.id, i);
    for (const o of saved.credentialOwners ?? []) this.credentials.add(o);
  }

  private newMembers(value: unknown, type: InstitutionType, owner: string, field: string, required: boolean): InstitutionMemberRecord[] {
    const list = arrayValue(value, field, 100);
    if (required && list.length === 0) throw new InputError(field, 'required: at least one member {identity_id, roles}');
    return list.map((raw, k) => {
      const m = objectValue(raw, `${field}[${k}]`, '{identity_id, roles, ownership, position}');
      // name, summary_status and id are the member record's own: accepted and ignored
      onlyFields(m, ['identity_id', 'roles', 'ownership', 'position', 'name', 'summary_status', 'id'], `${field}[${k}].`);
      if (typeof m.identity_id !== 'string' || m.identity_id === '')
        throw new InputError(`${field}[${k}].identity_id`, 'required: the id of an identity you created');
      const member = this.byId.get(m.identity_id);
      if (member === undefined || member.owner !== owner)
        throw new SimError('not-found', `${field}[${k}].identity_id: identity ${m.identity_id} not found`);
      return {
        id: this.ids.next('institution-members'),
        identityId: member.id,
        roles: memberRoles(m.roles, `${field}[${k}].roles`, type),
        ownership: ownership(m.ownership, `${field}[${k}].ownership`),
        position: optionalText(m.position, `${field}[${k}].position`, 100),
      };
    });
  }

  private checkRefId(owner: string, refId: string | undefined, self: string | undefined): void {
    if (refId === undefined) return;
    const clash = this.list(owner).find((i) => i.refId === refId && i.id !== self);
    if (clash !== undefined)
      throw new SimError('already-exists', `an identity with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'identity',
        id: clash.id,
      });
  }

  private checkCipId(owner: string, d: JsonObject, self: string | undefined): void {
    if (typeof d.cip_id !== 'string') return;
    const clash = this.list(owner).find(
      (i) => i.id !== self && i.details.cip_id === d.cip_id && i.details.cip_id_country === d.cip_id_country,
    );
    // No meta.existing here: that names the record of a reused ref_id, and this is another identity's cip_id.
    if (clash !== undefined)
      throw new SimError('already-exists', `an identity with this cip_id and cip_id_country already exists (${clash.id})`);
  }
}

function identityKind(body: JsonObject): IdentityKind {
  const person = body.person_details !== undefined && body.person_details !== null;
  const institution = body.institution_details !== undefined && body.institution_details !== null;
  if (person === institution)
    throw new InputError(
      person ? 'institution_details' : 'person_details',
      'send exactly one of person_details (a person) and institution_details (an institution)',
    );
  return person ? 'PERSON' : 'INSTITUTION';
}

function initialStatuses(details: JsonObject): Record<Facet, IdentityStatus> {
  const passthrough = details.passthrough_verification_status;
  const id: IdentityStatus = passthrough === 'APPROVED' || passthrough === 'DENIED' ? passthrough : 'PENDING';
  return {
    id_verification_status: id,
    sanctions_verification_status: 'PENDING',
    document_verification_status: 'PENDING',
    additional_screening_status: 'PENDING',
  };
}
