import { type Dec } from '../../core/decimal.js';
import { assetDecimals, isFiat } from '../../core/markets.js';
import { InputError } from '../../core/errors.js';
import { KNOWN_ASSETS } from '../market/catalog.js';
import { SimError } from '../errors.js';
import { type IdSource } from '../ids.js';
import { type Balances, type Ledger } from '../exchange/ledger.js';
import { amount, metadata, optionalString } from '../exchange/order-rules.js';
import { type ProfileStore } from '../exchange/profiles.js';
import { type TransferLimits } from './transfer-limit-rules.js';

/** The crypto networks a deposit may name (the spec's 10-value CryptoNetwork). */
export const CRYPTO_NETWORKS = [
  'BITCOIN',
  'ETHEREUM',
  'BITCOIN_CASH',
  'LITECOIN',
  'SOLANA',
  'POLYGON_POS',
  'BASE',
  'ARBITRUM_ONE',
  'INK',
  'XLAYER',
] as const;

export type TransferStatus = 'PENDING' | 'COMPLETED' | 'FAILED';

/** A movement into, out of or between profiles. Pending records complete at `completeAt`. */
export interface SimTransfer {
  readonly id: string;
  readonly seq: number;
  readonly activityId: string;
  readonly customerId: string;
  readonly profileId: string;
  readonly refId: string | undefined;
  readonly amount: Dec;
  readonly total: Dec;
  readonly fee: Dec;
  readonly asset: string;
  readonly balanceAsset: string;
  readonly direction: 'CREDIT' | 'DEBIT';
  readonly type: string;
  status: TransferStatus;
  readonly createdAt: number;
  updatedAt: number;
  /** Position in update order (creation and every status change), the key of UPDATED_AT paging. */
  updateSeq: number;
  /** When a PENDING transfer completes; undefined while it waits (e.g. for travel-rule information). */
  completeAt: number | undefined;
  readonly groupId: string | undefined;
  readonly identityId: string | undefined;
  readonly accountId: string | undefined;
  readonly cryptoNetwork: string | undefined;
  readonly destinationAddress: string | undefined;
  readonly cryptoTxHash: string | undefined;
  readonly metadata: Readonly<Record<string, string>>;
  /** Travel-rule and customer states beside `status` (TRAVEL_RULE_INFO_REQUESTED, CUSTOMER_REJECTED …). */
  secondaryStatus?: string | undefined;
  readonly fiatAccountId?: string | undefined;
  readonly memo?: string | undefined;
  /** The address a crypto deposit arrived at (deposits into deposit addresses). */
  readonly depositAddressId?: string | undefined;
}

export interface DepositCommand {
  readonly profileId: string;
  readonly asset: unknown;
  readonly amount: unknown;
  readonly cryptoNetwork?: unknown;
  readonly cryptoAddress?: unknown;
}

/** A CreateInternalTransfer request as it arrives (wire values; validated here). */
export interface InternalTransferCommand {
  readonly fromProfileId: unknown;
  readonly toProfileId: unknown;
  readonly asset: unknown;
  readonly amount: unknown;
  readonly refId?: unknown;
  readonly metadata?: unknown;
  readonly recipientMetadata?: unknown;
  readonly fromIdentityId?: unknown;
  readonly fromAccountId?: unknown;
  readonly toIdentityId?: unknown;
  readonly toAccountId?: unknown;
}

export interface TransferDeps {
  readonly ledger: Ledger;
  readonly profiles: ProfileStore;
  readonly ids: IdSource;
  readonly limits: TransferLimits;
  readonly customerId: string;
  /** Delay from PENDING to COMPLETED of an internal transfer. */
  readonly settleDelayMs: number;
  /** USD value of an amount of an asset now (for the limits). */
  readonly usdValue: (asset: string, amount: Dec) => Dec;
  /** The wire customer_id of a profile's owner (default: `customerId` for all). */
  readonly customerOf?: (profileId: string) => string;
}

/** Which kind of movement between two profiles: same customer (internal) or across entities (platform). */
export type BetweenProfiles = 'INTERNAL' | 'PAXOS';

type Fields = Omit<SimTransfer, 'id' | 'seq' | 'activityId' | 'customerId' | 'updatedAt' | 'updateSeq'>;

/**
 * The transfer records of the sim: sandbox deposits (credited at once, COMPLETED) and internal
 * transfers between profiles (a DEBIT and a CREDIT leg sharing a group_id: the sender is debited at
 * once, both legs are PENDING until `settleDelayMs` later, when the recipient is credited).
 */
export class TransferStore {
  readonly transfers: SimTransfer[] = [];
  private readonly byId = new Map<string, SimTransfer>();
  private readonly byRef = new Map<string, SimTransfer>();
  private pending: SimTransfer[] = [];
  private updates = 0;

  constructor(private readonly d: TransferDeps) {}

  get customerId(): string {
    return this.d.customerId;
  }

  /** Checks a sandbox deposit's asset, amount and network (crypto assets need a network, fiat ones none). */
  parseDeposit(cmd: DepositCommand): { asset: string; amount: Dec; network: string } {
    const asset = knownAsset(cmd.asset);
    const qty = amount(cmd.amount, 'amount', assetDecimals(asset));
    if (qty === undefined) throw new InputError('amount', 'required: the amount to deposit as a decimal string, e.g. "1000"');
    return { asset, amount: qty, network: depositNetwork(asset, cmd.cryptoNetwork) ?? '' };
  }

  deposit(cmd: DepositCommand, nowMs: number): SimTransfer {
    const { asset, amount: qty, network: net } = this.parseDeposit(cmd);
    const network = net === '' ? undefined : net;
    if (cmd.cryptoAddress !== undefined && typeof cmd.cryptoAddress !== 'string')
      throw new InputError('crypto_address', 'expected a string');
    const crypto = network !== undefined;
    const type = crypto ? 'CRYPTO_DEPOSIT' : 'WIRE_DEPOSIT';
    this.d.limits.admit(type, this.d.usdValue(asset, qty), nowMs);
    this.d.ledger.credit(cmd.profileId, asset, qty);
    return this.insert(
      {
        ...leg(cmd.profileId, undefined, qty, asset, 'CREDIT', type, 'COMPLETED', nowMs, {}),
        cryptoNetwork: network,
        destinationAddress: crypto ? ((cmd.cryptoAddress as string | undefined) ?? `0x${this.d.ids.hex('addresses', 20)}`) : undefined,
        cryptoTxHash: crypto ? this.d.ids.hex('tx-hashes', 32) : undefined,
      },
      nowMs,
    );
  }

  /** Creates an internal (or, with kind PAXOS, a platform) transfer; returns its DEBIT leg (PENDING). */
  internal(cmd: InternalTransferCommand, nowMs: number, kind: BetweenProfiles = 'INTERNAL'): SimTransfer {
    const { fromId, toId, asset, amount: qty, refId } = checkBetweenProfiles(cmd);
    const senderMeta = metadata(cmd.metadata);
    const recipientMeta = metadata(cmd.recipientMetadata);
    const from = this.d.profiles.get(fromId);
    const to = this.d.profiles.get(toId);
    if (from.id === to.id) throw sameProfileError();
    this.checkRef(refId);
    const prefix = kind === 'INTERNAL' ? 'INTERNAL_TRANSFER' : 'PAXOS_TRANSFER';
    admitDebit(this.d.limits, this.d.ledger, `${prefix}_DEBIT`, from.id, asset, qty, this.d.usdValue(asset, qty), nowMs);
    this.d.ledger.apply([{ profileId: from.id, asset, available: qty.neg() }]);
    const groupId = this.d.ids.next('transfer-groups');
    const completeAt = nowMs + this.d.settleDelayMs;
    const ids = (i: unknown, a: unknown, side: string) => ({
      identityId: optionalString(i, `${side}_identity_id`, 100),
      accountId: optionalString(a, `${side}_account_id`, 100),
    });
    this.insert(
      {
        ...leg(to.id, refId, qty, asset, 'CREDIT', `${prefix}_CREDIT`, 'PENDING', nowMs, recipientMeta),
        groupId,
        completeAt,
        ...ids(cmd.toIdentityId, cmd.toAccountId, 'to'),
      },
      nowMs,
    );
    return this.insert(
      {
        ...leg(from.id, refId, qty, asset, 'DEBIT', `${prefix}_DEBIT`, 'PENDING', nowMs, senderMeta),
        groupId,
        completeAt,
        ...ids(cmd.fromIdentityId, cmd.fromAccountId, 'from'),
      },
      nowMs,
    );
  }

  /** Refuses a ref_id an earlier transfer (its debit leg, or a deposit or withdrawal) carries: 409 with it. */
  checkRef(refId: string | undefined): void {
    const existing = refId === undefined ? undefined : this.byRef.get(refId);
    if (existing !== undefined)
      throw new SimError('already-exists', `a transfer with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'transfer',
        id: existing.id,
      });
  }

  /**
   * Records a transfer built by another area (fiat and crypto withdrawals, fiat deposits, deposits
   * into deposit addresses); the caller has moved the money that moves at creation. A PENDING
   * transfer completes at `completeAt` (credits are paid then) or waits when it has none.
   */
  book(
    fields: Partial<Fields> & Pick<Fields, 'profileId' | 'amount' | 'asset' | 'direction' | 'type' | 'status'>,
    nowMs: number,
  ): SimTransfer {
    const base = leg(
      fields.profileId,
      fields.refId,
      fields.amount,
      fields.asset,
      fields.direction,
      fields.type,
      fields.status,
      nowMs,
      fields.metadata ?? {},
    );
    return this.insert({ ...base, ...fields, createdAt: nowMs }, nowMs);
  }

  /** A waiting transfer resumes: it completes `delayMs` from now (a credit pays then). */
  resume(t: SimTransfer, nowMs: number, delayMs: number): void {
    t.completeAt = nowMs + delayMs;
    t.secondaryStatus = undefined;
    this.touch(t, nowMs);
    this.pending.push(t);
  }

  /** A waiting transfer fails (nothing is credited). */
  fail(t: SimTransfer, nowMs: number, secondaryStatus: string): void {
    t.status = 'FAILED';
    t.secondaryStatus = secondaryStatus;
    this.touch(t, nowMs);
  }

  /** Completes every pending transfer due at or before `atMs`: credit legs pay the recipient. */
  completeDue(atMs: number): void {
    if (this.pending.length === 0) return;
    const due = this.pending.filter((t) => t.completeAt! <= atMs).sort((a, b) => a.completeAt! - b.completeAt! || a.seq - b.seq);
    if (due.length === 0) return;
    this.pending = this.pending.filter((t) => t.completeAt! > atMs);
    for (const t of due) {
      if (t.direction === 'CREDIT') this.d.ledger.credit(t.profileId, t.asset, t.amount);
      t.status = 'COMPLETED';
      t.updatedAt = t.completeAt!;
      t.updateSeq = ++this.updates;
    }
  }

  /** One transfer by id (any profile of the customer). */
  get(id: string): SimTransfer {
    const t = this.byId.get(id);
    if (t === undefined) throw new SimError('not-found', `transfer ${id} not found`);
    return t;
  }

  /** Re-inserts transfers from a snapshot (in creation order). */
  restore(transfers: readonly SimTransfer[]): void {
    for (const t of transfers) {
      this.transfers.push(t);
      this.byId.set(t.id, t);
      if (t.refId !== undefined && !t.type.endsWith('_CREDIT')) this.byRef.set(t.refId, t);
      if (t.status === 'PENDING' && t.completeAt !== undefined) this.pending.push(t);
      this.updates = Math.max(this.updates, t.updateSeq);
    }
  }

  private insert(fields: Fields, nowMs: number): SimTransfer {
    const customerId = this.d.customerOf?.(fields.profileId) ?? this.d.customerId;
    const t: SimTransfer = {
      ...fields,
      id: this.d.ids.next('transfers'),
      seq: this.transfers.length + 1,
      activityId: this.d.ids.next('activities'),
      customerId,
      updatedAt: nowMs,
      updateSeq: ++this.updates,
    };
    this.transfers.push(t);
    this.byId.set(t.id, t);
    if (t.status === 'PENDING' && t.completeAt !== undefined) this.pending.push(t);
    if (t.refId !== undefined && !t.type.endsWith('_CREDIT')) this.byRef.set(t.refId, t);
    return t;
  }

  private touch(t: SimTransfer, nowMs: number): void {
    t.updatedAt = nowMs;
    t.updateSeq = ++this.updates;
  }
}

/** The fields of a transfer between two profiles, checked (wire names in the refusals). */
export interface CheckedBetweenProfiles {
  readonly fromId: string;
  readonly toId: string;
  readonly asset: string;
  readonly amount: Dec;
  readonly refId: string | undefined;
}

/**
 * Checks the profiles, asset, amount and ref_id of an internal transfer as the platform does, in the
 * same order and words: the sandbox and point replay refuse the same malformed request alike.
 */
export function checkBetweenProfiles(
  cmd: Pick<InternalTransferCommand, 'fromProfileId' | 'toProfileId' | 'asset' | 'amount' | 'refId'>,
): CheckedBetweenProfiles {
  const fromId = requiredString(cmd.fromProfileId, 'from_profile_id');
  const toId = requiredString(cmd.toProfileId, 'to_profile_id');
  const asset = knownAsset(cmd.asset);
  const qty = amount(cmd.amount, 'amount', assetDecimals(asset));
  if (qty === undefined) throw new InputError('amount', 'required: the amount to move as a decimal string, e.g. "250.00"');
  return { fromId, toId, asset, amount: qty, refId: optionalString(cmd.refId, 'ref_id', 100) };
}

/**
 * The platform's admission of a debit between profiles (`type`, valued at `usd` for the limits), in
 * its order: the transfer limits, then the funds of `from`; the limits count the transfer only once
 * both passed. Throws the refusal (403 limit, insufficient funds); moves no money. The sandbox and
 * the fill models (src/fills/rules/transfers.ts) admit every internal transfer through it.
 */
export function admitDebit(
  limits: TransferLimits,
  ledger: Balances,
  type: string,
  from: string,
  asset: string,
  amount: Dec,
  usd: Dec,
  nowMs: number,
): void {
  limits.check(type, usd, nowMs);
  ledger.require(from, asset, amount);
  limits.record(type, usd, nowMs);
}

/** The refusal of a transfer from a profile to itself (after resolving the `default` alias). */
export function sameProfileError(): InputError {
  return new InputError('to_profile_id', 'must differ from from_profile_id: an internal transfer moves funds between two profiles');
}

function leg(
  profileId: string,
  refId: string | undefined,
  qty: Dec,
  asset: string,
  direction: 'CREDIT' | 'DEBIT',
  type: string,
  status: TransferStatus,
  nowMs: number,
  meta: Readonly<Record<string, string>>,
): Fields {
  return {
    profileId,
    refId,
    amount: qty,
    total: qty,
    fee: qty.minus(qty),
    asset,
    balanceAsset: asset,
    direction,
    type,
    status,
    createdAt: nowMs,
    completeAt: undefined,
    groupId: undefined,
    identityId: undefined,
    accountId: undefined,
    cryptoNetwork: undefined,
    destinationAddress: undefined,
    cryptoTxHash: undefined,
    metadata: meta,
  };
}

function requiredString(value: unknown, field: string): string {
  const s = optionalString(value, field, 100);
  if (s === undefined) throw new InputError(field, 'required: a profile id (or "default")');
  return s;
}

function knownAsset(value: unknown): string {
  if (typeof value === 'string' && KNOWN_ASSETS.includes(value)) return value;
  throw new InputError(
    'asset',
    `${value === undefined ? 'required' : JSON.stringify(value) + ' is not an asset of the sandbox'}: use one of ${KNOWN_ASSETS.join(', ')}`,
  );
}

function depositNetwork(asset: string, value: unknown): string | undefined {
  if (isFiat(asset)) {
    if (value !== undefined && value !== '') throw new InputError('crypto_network', `not allowed for the fiat asset ${asset}: remove it`);
    return undefined;
  }
  // optional on the wire (the spec requires only asset and amount): the asset's usual network
  if (value === undefined || value === '') return networkFor(asset);
  if (typeof value === 'string' && (CRYPTO_NETWORKS as readonly string[]).includes(value)) return value;
  throw new InputError(
    'crypto_network',
    `${JSON.stringify(value)} is not valid for a ${asset} deposit: use one of ${CRYPTO_NETWORKS.join(', ')}, or leave it out for the asset's usual network`,
  );
}

/** The network a funding deposit of `asset` arrives on (undefined for fiat): crypto deposits need one. */
export function networkFor(asset: string): string | undefined {
  const networks: Record<string, string> = { BTC: 'BITCOIN', BCH: 'BITCOIN_CASH', LTC: 'LITECOIN', SOL: 'SOLANA' };
  return ['USD', 'EUR', 'SGD', 'BRL', 'GBP', 'MXN'].includes(asset) ? undefined : (networks[asset] ?? 'ETHEREUM');
}
