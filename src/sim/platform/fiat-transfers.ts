import { D, type Dec } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { type AreaDeps } from './area-deps.js';
import { SimError } from '../errors.js';
import { type FiatAccountStore, networkInstructions } from './fiat.js';
import { type JsonObject, enumValue, onlyFields, optionalText, requiredText } from './input.js';
import { amount as decimalAmount, metadata } from '../exchange/order-rules.js';
import { type SimTransfer } from './transfers.js';

export const FIAT_NETWORKS = ['WIRE', 'DBS_ACT', 'CUBIX', 'SCB'] as const;
/** Memo characters of fiat withdrawals: letters, digits, space and / ? : ( ) . , & ' + - */
const MEMO_CHARS = /^[A-Za-z0-9 /?:().,&'+-]*$/;
/** Longest memo per network (wire 100, CUBIX 40, DBS 100, SCB 140). */
export const MEMO_MAX: Readonly<Record<string, number>> = { wire: 100, cubix: 40, dbs_act: 100, scb: 140, cbit: 100 };
const DEPOSIT_TYPES: Readonly<Record<string, string>> = {
  wire: 'WIRE_DEPOSIT',
  cubix: 'CUBIX_DEPOSIT',
  cbit: 'CBIT_DEPOSIT',
  dbs_act: 'BANK_DEPOSIT',
  scb: 'BANK_DEPOSIT',
};
const WITHDRAWAL_TYPES: Readonly<Record<string, string>> = {
  wire: 'WIRE_WITHDRAWAL',
  cubix: 'CUBIX_WITHDRAWAL',
  cbit: 'CBIT_WITHDRAWAL',
  dbs_act: 'BANK_WITHDRAWAL',
  scb: 'BANK_WITHDRAWAL',
};

/** Deposit instructions: the memo a depositor writes so the deposit reaches the profile. */
export interface SimDepositInstructions {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly profileId: string;
  readonly identityId: string | undefined;
  readonly accountId: string | undefined;
  readonly refId: string | undefined;
  readonly network: (typeof FIAT_NETWORKS)[number];
  readonly routingNumberType: 'ABA' | 'SWIFT';
  readonly memoId: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAt: number;
}

/** Exactly one of `amount` (excluding the fee) and `total` (including it): both figures, or a 400 naming the field. */
export function amountAndTotal(body: JsonObject, dp: number, fee: Dec): { amount: Dec; total: Dec } {
  const amount = decimalAmount(body.amount, 'amount', dp);
  const total = decimalAmount(body.total, 'total', dp);
  if ((amount === undefined) === (total === undefined))
    throw new InputError(
      amount === undefined ? 'amount' : 'total',
      'give exactly one of amount (excluding the fee) and total (including it)',
    );
  if (amount !== undefined) return { amount, total: amount.plus(fee) };
  const net = total!.minus(fee);
  if (!net.gt(0)) throw new InputError('total', `must exceed the fee of ${fee.toFixed()}`);
  return { amount: net, total: total! };
}

/** identity_id and account_id of a request: each must be the caller's (404 otherwise). */
export function ownedLinks(d: AreaDeps, body: JsonObject, owner: string): { identityId?: string; accountId?: string } {
  const identityId = optionalText(body.identity_id, 'identity_id', 100);
  const accountId = optionalText(body.account_id, 'account_id', 100);
  if (identityId !== undefined) d.identities.get(identityId, owner);
  if (accountId !== undefined) d.accounts.get(accountId, owner);
  return { ...(identityId !== undefined ? { identityId } : {}), ...(accountId !== undefined ? { accountId } : {}) };
}

/**
 * Fiat money in and out: deposit instructions with a memo, the sandbox's simulated deposit by memo
 * (credits USD), and withdrawals to an APPROVED fiat account (exactly one of amount/total, a fee
 * per network, memo charset and length per network, transfer limits), PENDING until
 * `withdrawalSettleMs` later, then COMPLETED.
 */
export class FiatTransfers {
  private readonly instructions = new Map<string, SimDepositInstructions>();

  constructor(
    private readonly d: AreaDeps,
    private readonly accounts: FiatAccountStore,
  ) {}

  createInstructions(body: JsonObject, owner: string, nowMs: number): SimDepositInstructions {
    onlyFields(body, ['ref_id', 'profile_id', 'identity_id', 'account_id', 'fiat_network', 'routing_number_type', 'metadata']);
    const profile = this.d.profiles.owned(requiredText(body.profile_id, 'profile_id', '"default"', 100), owner);
    const network = enumValue(body.fiat_network, 'fiat_network', FIAT_NETWORKS);
    const routingNumberType =
      network === 'WIRE' ? enumValue(body.routing_number_type ?? 'ABA', 'routing_number_type', ['ABA', 'SWIFT'] as const) : 'ABA';
    if (network !== 'WIRE' && body.routing_number_type !== undefined && body.routing_number_type !== null)
      throw new InputError('routing_number_type', `only for WIRE instructions: remove it for ${network}`);
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    const clash = refId === undefined ? undefined : [...this.instructions.values()].find((x) => x.owner === owner && x.refId === refId);
    if (clash !== undefined)
      throw new SimError('already-exists', `deposit instructions with ref_id ${JSON.stringify(refId)} already exist`, undefined, {
        kind: 'deposit-instructions',
        id: clash.id,
      });
    const links = ownedLinks(this.d, body, owner);
    const x: SimDepositInstructions = {
      id: this.d.ids.next('deposit-instructions'),
      seq: this.instructions.size + 1,
      owner,
      profileId: profile.id,
      identityId: links.identityId,
      accountId: links.accountId,
      refId,
      network,
      routingNumberType,
      memoId: this.d.ids.hex('memos', 5).toUpperCase(),
      metadata: metadata(body.metadata),
      createdAt: nowMs,
    };
    this.instructions.set(x.id, x);
    return x;
  }

  getInstructions(id: string, owner: string): SimDepositInstructions {
    const x = this.instructions.get(id);
    if (x === undefined || x.owner !== owner) throw new SimError('not-found', `fiat deposit instructions ${id} not found`);
    return x;
  }

  listInstructions(owner: string): SimDepositInstructions[] {
    return [...this.instructions.values()].filter((x) => x.owner === owner);
  }

  /** Sandbox: a deposit arrives with a memo; USD is credited to the instructions' profile (COMPLETED). */
  sandboxDeposit(body: JsonObject, nowMs: number): SimTransfer {
    onlyFields(body, ['amount', 'asset', 'memo_id', 'fiat_network_instructions', 'fiat_account_owner']);
    if (body.fiat_network_instructions === undefined || body.fiat_network_instructions === null) {
      throw new InputError(
        'fiat_network_instructions',
        'required: the sending bank account, e.g. {"wire": {account_number, fiat_account_owner_address, routing_details}}',
      );
    }
    const { network } = networkInstructions(body.fiat_network_instructions);
    if (body.asset !== 'USD')
      throw new InputError(
        'asset',
        `${body.asset === undefined ? 'required' : JSON.stringify(body.asset) + ' is not accepted'}: fiat deposits are in USD`,
      );
    if (typeof body.amount !== 'string' || !/^[0-9]*\.?[0-9]{1,2}$/.test(body.amount))
      throw new InputError('amount', 'expected digits with at most 2 decimals, e.g. "1000.00"');
    const qty = new D(body.amount);
    if (!qty.gt(0)) throw new InputError('amount', 'must be greater than zero');
    const memo = requiredText(body.memo_id, 'memo_id', '"the memo_id of your deposit instructions"', 100);
    const x = [...this.instructions.values()].find((i) => i.memoId === memo);
    if (x === undefined)
      throw new InputError(
        'memo_id',
        `no deposit instructions carry memo ${JSON.stringify(memo)}: create them with CreateFiatDepositInstructions`,
      );
    if (network.toUpperCase() !== x.network && !(x.network === 'WIRE' && network === 'wire'))
      throw new InputError('fiat_network_instructions', `the instructions with this memo are for ${x.network}, not ${network}`);
    const profile = this.d.profiles.get(x.profileId);
    this.d.ledger.credit(profile.id, 'USD', qty);
    return this.d.transfers.book(
      {
        profileId: profile.id,
        amount: qty,
        total: qty,
        asset: 'USD',
        direction: 'CREDIT',
        type: DEPOSIT_TYPES[network]!,
        status: 'COMPLETED',
        identityId: x.identityId,
        accountId: x.accountId,
        memo,
      },
      nowMs,
    );
  }

  withdraw(body: JsonObject, owner: string, nowMs: number): SimTransfer {
    onlyFields(body, [
      'ref_id',
      'amount',
      'total',
      'asset',
      'fiat_account_id',
      'profile_id',
      'identity_id',
      'account_id',
      'metadata',
      'memo',
    ]);
    if (body.asset !== 'USD')
      throw new InputError(
        'asset',
        `${body.asset === undefined ? 'required' : JSON.stringify(body.asset) + ' is not accepted'}: fiat withdrawals are in USD`,
      );
    const fiat = this.accounts.get(
      requiredText(body.fiat_account_id, 'fiat_account_id', '"the id of an approved fiat account"', 100),
      owner,
    );
    const fee = new D(this.d.settings.fiatWithdrawalFees[fiat.network] ?? '0');
    const { amount, total } = amountAndTotal(body, 2, fee);
    const memo = optionalText(body.memo, 'memo', 500);
    if (memo !== undefined && !MEMO_CHARS.test(memo))
      throw new InputError('memo', "only letters, digits, space and / ? : ( ) . , & ' + - are allowed");
    const maxMemo = MEMO_MAX[fiat.network] ?? 100;
    if (memo !== undefined && memo.length > maxMemo)
      throw new InputError('memo', `at most ${maxMemo} characters for ${fiat.network} withdrawals, got ${memo.length}`);
    const profile = this.d.profiles.owned(requiredText(body.profile_id, 'profile_id', '"default"', 100), owner);
    const links = ownedLinks(this.d, body, owner);
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    this.d.transfers.checkRef(refId);
    if (fiat.status !== 'APPROVED')
      throw new InputError('fiat_account_id', `fiat account ${fiat.id} is ${fiat.status}: withdrawals need an APPROVED account`);
    this.d.gate.check(profile.id, { identityId: links.identityId, accountId: links.accountId ?? fiat.accountId });
    const type = WITHDRAWAL_TYPES[fiat.network]!;
    this.d.ledger.require(profile.id, 'USD', total);
    this.d.limits.admit(type, total, nowMs);
    this.d.ledger.apply([{ profileId: profile.id, asset: 'USD', available: total.neg() }]);
    return this.d.transfers.book(
      {
        profileId: profile.id,
        refId,
        amount,
        total,
        fee,
        asset: 'USD',
        direction: 'DEBIT',
        type,
        status: 'PENDING',
        completeAt: nowMs + this.d.settings.withdrawalSettleMs,
        metadata: metadata(body.metadata),
        identityId: links.identityId ?? fiat.identityId,
        accountId: links.accountId ?? fiat.accountId,
        fiatAccountId: fiat.id,
        memo,
      },
      nowMs,
    );
  }

  saved(): SimDepositInstructions[] {
    return [...this.instructions.values()];
  }

  restore(items: readonly SimDepositInstructions[] | undefined): void {
    for (const x of items ?? []) this.instructions.set(x.id, x);
  }
}
