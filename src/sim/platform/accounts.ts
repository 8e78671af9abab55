import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { type IdentityStore } from './identities.js';
import { type IdSource } from '../ids.js';
import { type JsonObject, arrayValue, enumValue, objectValue, onlyFields, optionalBool, optionalEnum, optionalText } from './input.js';
import { metadata } from '../exchange/order-rules.js';
import { type ProfileStore } from '../exchange/profiles.js';

export const ACCOUNT_ROLES = ['BENEFICIAL_OWNER', 'FINANCIAL_ADVISOR', 'AUTHORIZED_USER'] as const;
/** The only roles that can be added to or removed from an existing account. */
export const MUTABLE_ROLES: readonly string[] = ['FINANCIAL_ADVISOR', 'AUTHORIZED_USER'];

export interface AccountMemberRecord {
  readonly id: string;
  readonly identityId: string;
  readonly roles: readonly string[];
}

/** An account owned by an identity (its primary owner, a beneficial owner for tax purposes). */
export interface SimAccount {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly identityId: string;
  description: string | undefined;
  metadata: Readonly<Record<string, string>>;
  refId: string | undefined;
  members: AccountMemberRecord[];
  readonly type: AccountType;
  adminDisabled: boolean;
  userDisabled: boolean;
  /** Set at creation with create_profile; an account cannot be linked to a profile afterwards. */
  readonly profileId: string | undefined;
  readonly createdAt: number;
  updatedAt: number;
}

/** The account types of the platform (`account.type`); BROKERAGE when none is given. */
export const ACCOUNT_TYPES = ['BROKERAGE', 'TRADITIONAL_IRA', 'ROTH_IRA', 'SEP_IRA', 'FINANCIAL_ADVISOR'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
/** Fields of the account record a request may echo back: accepted and ignored (the platform sets them). */
const ACCOUNT_READ_ONLY = ['admin_disabled', 'user_disabled', 'created_at', 'updated_at', 'summary_status', 'profile_id'];
const CREATE_FIELDS = ['identity_id', 'description', 'metadata', 'ref_id', 'members', 'type', 'id', ...ACCOUNT_READ_ONLY];
const UPDATE_FIELDS = ['id', 'description', 'ref_id', 'metadata', 'members', 'type', 'identity_id', ...ACCOUNT_READ_ONLY];

/**
 * Accounts of each entity: creation (optionally with a profile of their own), updates whose member
 * changes may only add or remove FINANCIAL_ADVISOR and AUTHORIZED_USER members, members added (kept,
 * never edited) and removed by id, set_user_disabled. Other entities' accounts are 404.
 */
export class SimAccountStore {
  private readonly byId = new Map<string, SimAccount>();

  constructor(
    private readonly ids: IdSource,
    private readonly identities: IdentityStore,
    private readonly profiles: ProfileStore,
  ) {}

  create(body: JsonObject, owner: string, nowMs: number): SimAccount {
    onlyFields(body, ['account', 'create_profile']);
    const a = objectValue(body.account, 'account', '{identity_id, description, metadata, ref_id, members}');
    onlyFields(a, CREATE_FIELDS, 'account.');
    if (typeof a.identity_id !== 'string' || a.identity_id === '')
      throw new InputError('account.identity_id', 'required: the identity that owns the account');
    const identity = this.identities.get(a.identity_id, owner);
    const refId = optionalText(a.ref_id, 'account.ref_id', 100);
    const clash = refId === undefined ? undefined : this.list(owner).find((x) => x.refId === refId);
    if (clash !== undefined)
      throw new SimError('already-exists', `an account with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'account',
        id: clash.id,
      });
    const members = this.members(a.members, 'account.members', owner, ACCOUNT_ROLES);
    const description = optionalText(a.description, 'account.description', 500);
    const meta = metadata(a.metadata);
    const withProfile = optionalBool(body.create_profile, 'create_profile') ?? false;
    const type = optionalEnum(a.type, 'account.type', ACCOUNT_TYPES) ?? 'BROKERAGE';
    const id = this.ids.next('accounts');
    const profileId = withProfile
      ? this.profiles.create(`account-${id.slice(0, 8)}`, `profile of account ${id}`, nowMs, owner, id).id
      : undefined;
    const account: SimAccount = {
      id,
      seq: this.byId.size + 1,
      owner,
      identityId: identity.id,
      description,
      metadata: meta,
      refId,
      members,
      type,
      adminDisabled: false,
      userDisabled: false,
      profileId,
      createdAt: nowMs,
      updatedAt: nowMs,
    };
    this.byId.set(id, account);
    return account;
  }

  update(body: JsonObject, owner: string, nowMs: number): SimAccount {
    onlyFields(body, ['account', 'set_user_disabled']);
    const a = objectValue(body.account, 'account', '{id, description, ref_id, metadata, members}');
    onlyFields(a, UPDATE_FIELDS, 'account.');
    if (typeof a.id !== 'string' || a.id === '') throw new InputError('account.id', 'required: the id of the account to update');
    const account = this.get(a.id, owner);
    const type = optionalEnum(a.type, 'account.type', ACCOUNT_TYPES);
    if (type !== undefined && type !== account.type)
      throw new InputError('account.type', `an account's type is fixed when it is created: this account is ${account.type}`);
    if (typeof a.identity_id === 'string' && a.identity_id !== '' && a.identity_id !== account.identityId)
      throw new InputError(
        'account.identity_id',
        `an account's identity cannot change: this account belongs to identity ${account.identityId}`,
      );
    const refId = optionalText(a.ref_id, 'account.ref_id', 100);
    if (refId !== undefined && this.list(owner).some((x) => x.refId === refId && x.id !== account.id))
      throw new SimError('already-exists', `an account with ref_id ${JSON.stringify(refId)} already exists`);
    const next = a.members === undefined ? undefined : this.replaceMembers(account, a.members, owner);
    const description = optionalText(a.description, 'account.description', 500);
    const meta = a.metadata === undefined ? undefined : metadata(a.metadata);
    const disable = optionalBool(body.set_user_disabled, 'set_user_disabled');
    if (next !== undefined) account.members = next;
    if (description !== undefined) account.description = description;
    if (refId !== undefined) account.refId = refId;
    if (meta !== undefined) account.metadata = meta;
    if (disable !== undefined) account.userDisabled = disable;
    account.updatedAt = nowMs;
    return account;
  }

  addMembers(body: JsonObject, owner: string, nowMs: number): { account: SimAccount; added: AccountMemberRecord[] } {
    onlyFields(body, ['account_id', 'members']);
    if (typeof body.account_id !== 'string' || body.account_id === '')
      throw new InputError('account_id', 'required: the account to add members to');
    const account = this.get(body.account_id, owner);
    const added = this.members(body.members, 'members', owner, MUTABLE_ROLES);
    if (added.length === 0) throw new InputError('members', 'required: at least one member {identity_id, roles}');
    for (const m of added) {
      if (account.members.some((e) => memberKey(e) === memberKey(m)))
        throw new SimError(
          'already-exists',
          `identity ${m.identityId} is already a member with roles ${m.roles.join(', ')}: members are immutable, remove and re-add to change one`,
        );
    }
    account.members.push(...added);
    account.updatedAt = nowMs;
    return { account, added };
  }

  removeMember(memberId: string, owner: string, nowMs: number): void {
    for (const account of this.list(owner)) {
      const m = account.members.find((x) => x.id === memberId);
      if (m === undefined) continue;
      checkMutable(m, 'id');
      account.members = account.members.filter((x) => x !== m);
      account.updatedAt = nowMs;
      return;
    }
    throw new SimError('not-found', `account member ${memberId} not found`);
  }

  get(id: string, owner: string): SimAccount {
    const a = this.byId.get(id);
    if (a === undefined || a.owner !== owner) throw new SimError('not-found', `account ${id} not found`);
    return a;
  }

  find(id: string): SimAccount | undefined {
    return this.byId.get(id);
  }

  list(owner: string): SimAccount[] {
    return [...this.byId.values()].filter((a) => a.owner === owner);
  }

  saved(): SimAccount[] {
    return [...this.byId.values()];
  }

  restore(accounts: readonly SimAccount[] | undefined): void {
    for (const a of accounts ?? []) this.byId.set(a.id, a);
  }

  /** The full member list of an update: what it adds or removes must be FINANCIAL_ADVISOR or AUTHORIZED_USER. */
  private replaceMembers(account: SimAccount, value: unknown, owner: string): AccountMemberRecord[] {
    const given = this.members(value, 'account.members', owner, ACCOUNT_ROLES);
    if (given.length === 0) throw new InputError('account.members', 'when given, the full member list with at least one element');
    const current = new Map(account.members.map((m) => [memberKey(m), m]));
    const wanted = new Set(given.map(memberKey));
    for (const m of account.members) if (!wanted.has(memberKey(m))) checkMutable(m, 'account.members');
    const next: AccountMemberRecord[] = [];
    for (const m of given) {
      const kept = current.get(memberKey(m));
      if (kept === undefined) checkMutable(m, 'account.members');
      next.push(kept ?? m);
    }
    return next;
  }

  private members(value: unknown, field: string, owner: string, roles: readonly string[]): AccountMemberRecord[] {
    return arrayValue(value, field, 100).map((raw, k) => {
      const m = objectValue(raw, `${field}[${k}]`, '{identity_id, roles}');
      onlyFields(m, ['identity_id', 'roles', 'type', 'id'], `${field}[${k}].`);
      if (typeof m.identity_id !== 'string' || m.identity_id === '')
        throw new InputError(`${field}[${k}].identity_id`, 'required: the member identity');
      const identity = this.identities.get(m.identity_id, owner);
      const list = arrayValue(m.roles, `${field}[${k}].roles`, 3);
      if (list.length === 0) throw new InputError(`${field}[${k}].roles`, `required: at least one of ${roles.join(', ')}`);
      const checked = list.map((r, i) => enumValue(r, `${field}[${k}].roles[${i}]`, roles));
      return { id: this.ids.next('account-members'), identityId: identity.id, roles: [...new Set(checked)].sort() };
    });
  }
}

function memberKey(m: Pick<AccountMemberRecord, 'identityId' | 'roles'>): string {
  return `${m.identityId}:${[...m.roles].sort().join(',')}`;
}

function checkMutable(m: AccountMemberRecord, field: string): void {
  const fixed = m.roles.filter((r) => !MUTABLE_ROLES.includes(r));
  if (fixed.length > 0)
    throw new SimError(
      'forbidden',
      `${field}: member ${m.identityId} has role ${fixed.join(', ')}: only FINANCIAL_ADVISOR and AUTHORIZED_USER members can be added or removed`,
      { field },
    );
}
