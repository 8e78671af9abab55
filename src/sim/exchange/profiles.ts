import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { type Ledger } from './ledger.js';
import { PRIMARY_ENTITY, ownerOf } from '../owners.js';

export type ProfileType = 'DEFAULT' | 'NORMAL';

export interface Profile {
  readonly id: string;
  readonly nickname: string;
  readonly description: string | undefined;
  readonly type: ProfileType;
  readonly active: boolean;
  readonly createdAt: number;
  readonly seq: number;
  /** The entity (customer) that owns it; absent = the primary entity (see `owners.ts`). */
  readonly owner?: string;
  /** The account it was created for (CreateAccount with create_profile); never changed afterwards. */
  readonly accountId?: string;
}

/** The alias the platform accepts for the default profile in paths. */
export const DEFAULT_PROFILE_ALIAS = 'default';
const MAX_NICKNAME = 100;

/**
 * Profiles (balance containers): one DEFAULT profile made by the system plus NORMAL ones created
 * through the API. Nicknames are unique among active profiles (case-insensitive); deactivation
 * needs zero balances and is refused for the default profile.
 */
export class ProfileStore {
  private readonly byId = new Map<string, Profile>();
  private seq = 0;
  private defaultProfileId: string;

  constructor(
    private readonly newId: () => string,
    nowMs: number,
  ) {
    this.defaultProfileId = this.insert({ nickname: DEFAULT_PROFILE_ALIAS, description: undefined, type: 'DEFAULT', createdAt: nowMs }).id;
  }

  /** The id of the system-made DEFAULT profile (what the `default` alias names). */
  get defaultId(): string {
    return this.defaultProfileId;
  }

  /** Every profile (deactivated ones too) and the counters, for a snapshot. */
  saved(): { defaultId: string; seq: number; items: Profile[] } {
    return { defaultId: this.defaultProfileId, seq: this.seq, items: this.list(true) };
  }

  /** Replaces every profile with a snapshot's. */
  restore(saved: { readonly defaultId: string; readonly seq: number; readonly items: readonly Profile[] }): void {
    this.byId.clear();
    for (const p of saved.items) this.byId.set(p.id, p);
    this.seq = saved.seq;
    this.defaultProfileId = saved.defaultId;
  }

  /** Resolves an id or the `default` alias; deactivated profiles only when asked. */
  get(idOrAlias: string, includeDeactivated = false): Profile {
    const id = idOrAlias === DEFAULT_PROFILE_ALIAS ? this.defaultId : idOrAlias;
    const p = this.byId.get(id);
    if (p === undefined || (!p.active && !includeDeactivated)) throw new SimError('not-found', `profile ${idOrAlias} not found`);
    return p;
  }

  /** Profiles in creation order (active only unless asked). */
  list(includeDeactivated = false): Profile[] {
    return [...this.byId.values()].filter((p) => includeDeactivated || p.active);
  }

  create(nickname: unknown, description: unknown, nowMs: number, owner?: string, accountId?: string): Profile {
    const nick = this.checkNickname(nickname, undefined);
    return this.insert({
      nickname: nick,
      description: optionalText(description, 'description'),
      type: 'NORMAL',
      createdAt: nowMs,
      ...(owner !== undefined && owner !== PRIMARY_ENTITY ? { owner } : {}),
      ...(accountId !== undefined ? { accountId } : {}),
    });
  }

  /** Resolves a profile the caller's entity acts on: 404 when unknown, 403 when another entity owns it. */
  owned(idOrAlias: string, owner: string, field = 'profile_id'): Profile {
    const p = this.get(idOrAlias);
    if (ownerOf(p) !== owner)
      throw new SimError(
        'forbidden',
        `${field}: profile ${idOrAlias} belongs to another entity: act only on profiles your credential owns`,
        { profile_id: p.id },
      );
    return p;
  }

  update(idOrAlias: string, nickname: unknown, description: unknown): Profile {
    const p = this.get(idOrAlias);
    const nick = this.checkNickname(nickname, p.id);
    const updated: Profile = {
      ...p,
      nickname: nick,
      description: description === undefined ? p.description : optionalText(description, 'description'),
    };
    this.byId.set(p.id, updated);
    return updated;
  }

  deactivate(idOrAlias: string, ledger: Ledger): void {
    const p = this.get(idOrAlias);
    if (p.type === 'DEFAULT') throw new SimError('forbidden', 'the default profile cannot be deactivated');
    if (!ledger.isEmpty(p.id))
      throw new SimError(
        'forbidden',
        `profile ${p.id} still holds balances: move or withdraw every asset (available and trading must be zero) before deactivating it`,
      );
    this.byId.set(p.id, { ...p, active: false });
  }

  private insert(fields: Pick<Profile, 'nickname' | 'description' | 'type' | 'createdAt' | 'owner' | 'accountId'>): Profile {
    const p: Profile = { id: this.newId(), active: true, seq: ++this.seq, ...fields };
    this.byId.set(p.id, p);
    return p;
  }

  private checkNickname(nickname: unknown, selfId: string | undefined): string {
    if (typeof nickname !== 'string' || nickname.trim() === '')
      throw new InputError('nickname', 'required: a non-empty display name such as "grid-bot"');
    if (nickname.length > MAX_NICKNAME) throw new InputError('nickname', `at most ${MAX_NICKNAME} characters`);
    const clash = this.list().find((p) => p.id !== selfId && p.nickname.toLowerCase() === nickname.toLowerCase());
    if (clash !== undefined)
      throw new SimError('already-exists', `a profile with nickname ${JSON.stringify(nickname)} already exists`, undefined, {
        kind: 'profile',
        id: clash.id,
      });
    return nickname;
  }
}

function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InputError(field, 'expected a string');
  return value;
}
