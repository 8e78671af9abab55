import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import { type JsonObject, objectValue, onlyFields, optionalText, postalAddress, requiredText } from './input.js';
import { metadata } from '../exchange/order-rules.js';

export const FIAT_ACCOUNT_NETWORKS = ['wire', 'cbit', 'dbs_act', 'cubix', 'scb'] as const;
export type FiatAccountNetwork = (typeof FIAT_ACCOUNT_NETWORKS)[number];
export type FiatAccountStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

/** An external bank destination for withdrawals, reviewed after every create and update. */
export interface SimFiatAccount {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly refId: string | undefined;
  readonly identityId: string | undefined;
  readonly accountId: string | undefined;
  holder: JsonObject;
  readonly network: FiatAccountNetwork;
  instructions: JsonObject;
  status: FiatAccountStatus;
  metadata: Readonly<Record<string, string>>;
  readonly createdAt: number;
  updatedAt: number;
  /** When the automated review decides (undefined once decided). */
  reviewAt: number | undefined;
  /** When DeleteFiatAccount removed it: then hidden unless `include_deleted`, and no withdrawals go to it. */
  deletedAt?: number;
}

/** Account numbers (or wallet / CUBIX ids) ending in this are rejected by the sandbox's automated review. */
export const REJECTED_SUFFIX = '0000';

/**
 * Fiat accounts: created PENDING, decided APPROVED or REJECTED by an automated review `reviewMs`
 * later on the sim clock (rejected when the account number ends in 0000); an update returns the
 * account to PENDING and restarts the review. The owner type (person or institution) is immutable,
 * and only wire data (owner address, bank name and address) can change.
 */
export class FiatAccountStore {
  private readonly byId = new Map<string, SimFiatAccount>();

  constructor(
    private readonly ids: IdSource,
    private readonly reviewMs: number,
  ) {}

  create(body: JsonObject, owner: string, links: { identityId?: string; accountId?: string }, nowMs: number): SimFiatAccount {
    onlyFields(body, ['ref_id', 'identity_id', 'account_id', 'fiat_account_owner', 'fiat_network_instructions', 'metadata']);
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    const clash = refId === undefined ? undefined : this.list(owner).find((a) => a.refId === refId);
    if (clash !== undefined)
      throw new SimError('already-exists', `a fiat account with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'fiat-account',
        id: clash.id,
      });
    const holder = accountHolder(body.fiat_account_owner);
    const { network, instructions } = networkInstructions(body.fiat_network_instructions);
    const a: SimFiatAccount = {
      id: this.ids.next('fiat-accounts'),
      seq: this.byId.size + 1,
      owner,
      refId,
      identityId: links.identityId,
      accountId: links.accountId,
      holder,
      network,
      instructions,
      status: 'PENDING',
      metadata: metadata(body.metadata),
      createdAt: nowMs,
      updatedAt: nowMs,
      reviewAt: nowMs + this.reviewMs,
    };
    this.byId.set(a.id, a);
    return a;
  }

  update(id: string, raw: JsonObject, owner: string, nowMs: number): SimFiatAccount {
    const a = this.get(id, owner);
    const body = withoutEmpty(raw) as JsonObject;
    onlyFields(body, ['fiat_account_owner', 'fiat_network_instructions', 'metadata']);
    let holder = a.holder;
    if (body.fiat_account_owner !== undefined) {
      const given = objectValue(body.fiat_account_owner, 'fiat_account_owner', '{person_details} or {institution_details}');
      const kind = Object.keys(given)[0];
      if (given.person_details !== undefined && a.holder.institution_details !== undefined)
        throw new InputError('fiat_account_owner', 'the owner type cannot change: this account belongs to an institution');
      if (given.institution_details !== undefined && a.holder.person_details !== undefined)
        throw new InputError('fiat_account_owner', 'the owner type cannot change: this account belongs to a person');
      holder = accountHolder({
        [kind ?? 'person_details']: { ...(a.holder[kind ?? ''] as JsonObject | undefined), ...(given[kind ?? ''] as JsonObject) },
      });
    }
    const instructions = body.fiat_network_instructions === undefined ? a.instructions : updatedWire(a, body.fiat_network_instructions);
    const meta = body.metadata === undefined ? a.metadata : metadata(body.metadata);
    a.holder = holder;
    a.instructions = instructions;
    a.metadata = meta;
    a.status = 'PENDING';
    a.updatedAt = nowMs;
    a.reviewAt = nowMs + this.reviewMs;
    return a;
  }

  /** Decides every review due at or before `atMs`. */
  reviewDue(atMs: number): void {
    for (const a of this.byId.values()) {
      if (a.reviewAt === undefined || a.reviewAt > atMs) continue;
      a.status = reference(a).endsWith(REJECTED_SUFFIX) ? 'REJECTED' : 'APPROVED';
      a.updatedAt = a.reviewAt;
      a.reviewAt = undefined;
    }
  }

  /** The owner's account (404 for another entity's, or a deleted one unless `includeDeleted`). */
  get(id: string, owner: string, includeDeleted = false): SimFiatAccount {
    const a = this.byId.get(id);
    if (a === undefined || a.owner !== owner || (a.deletedAt !== undefined && !includeDeleted))
      throw new SimError('not-found', `fiat account ${id} not found`);
    return a;
  }

  list(owner: string, includeDeleted = false): SimFiatAccount[] {
    return [...this.byId.values()].filter((a) => a.owner === owner && (includeDeleted || a.deletedAt === undefined));
  }

  /** DeleteFiatAccount: the record stays (include_deleted shows it) but can no longer be used. */
  remove(id: string, owner: string, nowMs: number): SimFiatAccount {
    const a = this.get(id, owner);
    a.deletedAt = nowMs;
    a.updatedAt = nowMs;
    a.reviewAt = undefined;
    return a;
  }

  saved(): SimFiatAccount[] {
    return [...this.byId.values()];
  }

  restore(items: readonly SimFiatAccount[] | undefined): void {
    for (const a of items ?? []) this.byId.set(a.id, a);
  }
}

/** The account's own number (or wallet address / CUBIX account id). */
export function reference(a: Pick<SimFiatAccount, 'instructions'>): string {
  const i = a.instructions;
  return String(i.account_number ?? i.wallet_address ?? i.account_id ?? '');
}

/** `fiat_account_owner`: exactly one of person_details {first_name, last_name} and institution_details {name}. */
export function accountHolder(value: unknown): JsonObject {
  const o = objectValue(
    value,
    'fiat_account_owner',
    '{"person_details": {"first_name", "last_name"}} or {"institution_details": {"name"}}',
  );
  onlyFields(o, ['person_details', 'institution_details'], 'fiat_account_owner.');
  if ((o.person_details === undefined) === (o.institution_details === undefined))
    throw new InputError('fiat_account_owner', 'give exactly one of person_details and institution_details');
  if (o.person_details !== undefined) {
    const p = objectValue(o.person_details, 'fiat_account_owner.person_details', '{first_name, last_name}');
    onlyFields(p, ['first_name', 'last_name'], 'fiat_account_owner.person_details.');
    return {
      person_details: {
        first_name: requiredText(p.first_name, 'fiat_account_owner.person_details.first_name', '"Ada"', 100),
        last_name: requiredText(p.last_name, 'fiat_account_owner.person_details.last_name', '"Lovelace"', 100),
      },
    };
  }
  const i = objectValue(o.institution_details, 'fiat_account_owner.institution_details', '{name}');
  onlyFields(i, ['name'], 'fiat_account_owner.institution_details.');
  return { institution_details: { name: requiredText(i.name, 'fiat_account_owner.institution_details.name', '"Acme LLC"', 200) } };
}

/** `fiat_network_instructions`: exactly one network member with its required fields. */
export function networkInstructions(value: unknown): { network: FiatAccountNetwork; instructions: JsonObject } {
  const o = objectValue(value, 'fiat_network_instructions', 'one of wire, cbit, dbs_act, cubix, scb');
  onlyFields(o, FIAT_ACCOUNT_NETWORKS, 'fiat_network_instructions.');
  const given = FIAT_ACCOUNT_NETWORKS.filter((n) => o[n] !== undefined && o[n] !== null);
  if (given.length !== 1)
    throw new InputError(
      'fiat_network_instructions',
      `give exactly one network member (${FIAT_ACCOUNT_NETWORKS.join(', ')}), got ${given.length}`,
    );
  const network = given[0]!;
  const field = `fiat_network_instructions.${network}`;
  const m = objectValue(o[network], field, 'the network details');
  switch (network) {
    case 'wire': {
      onlyFields(m, ['account_number', 'fiat_account_owner_address', 'routing_details', 'intermediary_routing_details'], `${field}.`);
      const wire: JsonObject = {
        account_number: requiredText(m.account_number, `${field}.account_number`, '"123456789"', 34),
        fiat_account_owner_address: postalAddress(m.fiat_account_owner_address, `${field}.fiat_account_owner_address`),
        routing_details: routingDetails(m.routing_details, `${field}.routing_details`),
      };
      if (m.intermediary_routing_details !== undefined && m.intermediary_routing_details !== null)
        wire.intermediary_routing_details = routingDetails(m.intermediary_routing_details, `${field}.intermediary_routing_details`);
      return { network, instructions: wire };
    }
    case 'cbit':
      onlyFields(m, ['wallet_address'], `${field}.`);
      return { network, instructions: { wallet_address: requiredText(m.wallet_address, `${field}.wallet_address`, '"0x…"', 100) } };
    case 'cubix':
      onlyFields(m, ['account_id'], `${field}.`);
      return { network, instructions: { account_id: requiredText(m.account_id, `${field}.account_id`, '"the CUBIX account id"', 100) } };
    default:
      onlyFields(m, ['account_number'], `${field}.`);
      return { network, instructions: { account_number: requiredText(m.account_number, `${field}.account_number`, '"123456789"', 34) } };
  }
}

function routingDetails(value: unknown, field: string): JsonObject {
  const r = objectValue(value, field, '{routing_number_type: ABA or SWIFT, routing_number, bank_name, bank_address}');
  onlyFields(r, ['routing_number_type', 'routing_number', 'bank_name', 'bank_address'], `${field}.`);
  const type = r.routing_number_type;
  if (type !== 'ABA' && type !== 'SWIFT')
    throw new InputError(`${field}.routing_number_type`, 'use ABA for US wires, SWIFT for international ones');
  const number = requiredText(r.routing_number, `${field}.routing_number`, type === 'ABA' ? '"021000021"' : '"CHASUS33"', 34);
  if (type === 'ABA' && !/^\d{9}$/.test(number)) throw new InputError(`${field}.routing_number`, 'an ABA routing number has 9 digits');
  if (type === 'SWIFT' && !/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(number))
    throw new InputError(`${field}.routing_number`, 'a SWIFT/BIC code has 8 or 11 letters and digits');
  const out: JsonObject = {
    routing_number_type: type,
    routing_number: number,
    bank_name: requiredText(r.bank_name, `${field}.bank_name`, '"First Bank"', 200),
  };
  if (r.bank_address !== undefined && r.bank_address !== null) out.bank_address = postalAddress(r.bank_address, `${field}.bank_address`);
  return out;
}

/** An update's wire data: owner address and bank name/address only; numbers and the network are fixed. */
function updatedWire(a: SimFiatAccount, value: unknown): JsonObject {
  const o = objectValue(value, 'fiat_network_instructions', '{"wire": {…}}');
  onlyFields(o, ['wire'], 'fiat_network_instructions.');
  if (a.network !== 'wire')
    throw new InputError('fiat_network_instructions', `only wire instructions can be updated; this account uses ${a.network}`);
  const w = objectValue(o.wire, 'fiat_network_instructions.wire', 'the wire fields to change');
  if (w.account_number !== undefined && w.account_number !== a.instructions.account_number)
    throw new InputError(
      'fiat_network_instructions.wire.account_number',
      'cannot change: create a new fiat account for another account number',
    );
  const next: JsonObject = { ...a.instructions };
  if (w.fiat_account_owner_address !== undefined)
    next.fiat_account_owner_address = postalAddress(
      w.fiat_account_owner_address,
      'fiat_network_instructions.wire.fiat_account_owner_address',
    );
  const r =
    w.routing_details === undefined
      ? undefined
      : objectValue(w.routing_details, 'fiat_network_instructions.wire.routing_details', '{bank_name, bank_address}');
  if (r !== undefined) {
    const cur = a.instructions.routing_details as JsonObject;
    for (const k of ['routing_number', 'routing_number_type'])
      if (r[k] !== undefined && r[k] !== cur[k])
        throw new InputError(
          `fiat_network_instructions.wire.routing_details.${k}`,
          'cannot change: only bank_name and bank_address can be updated',
        );
    next.routing_details = routingDetails({ ...cur, ...r }, 'fiat_network_instructions.wire.routing_details');
  }
  return next;
}

/** Drops empty strings and nulls at every level (the platform ignores them on updates). */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== '') out[k] = withoutEmpty(v);
  return out;
}
