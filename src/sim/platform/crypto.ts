import { D, type Dec } from '../../core/decimal.js';
import { assetDecimals, isFiat } from '../../core/markets.js';
import { InputError } from '../../core/errors.js';
import { type AreaDeps } from './area-deps.js';
import { KNOWN_ASSETS } from '../market/catalog.js';
import { SimError } from '../errors.js';
import { amountAndTotal, ownedLinks } from './fiat-transfers.js';
import { type JsonObject, enumValue, objectValue, onlyFields, optionalEnum, optionalObject, optionalText, requiredText } from './input.js';
import { metadata } from '../exchange/order-rules.js';
import { CRYPTO_NETWORKS, type SimTransfer } from './transfers.js';

const EVM = ['ETHEREUM', 'POLYGON_POS', 'BASE', 'ARBITRUM_ONE', 'INK', 'XLAYER'];
/** The platform's USD stablecoins: deposits of them may be credited as USD (conversion_target_asset). */
export const USD_STABLECOINS: readonly string[] = ['USDP', 'PYUSD', 'USDG'].filter((a) => KNOWN_ASSETS.includes(a));

export interface SimDepositAddress {
  readonly id: string;
  readonly seq: number;
  readonly owner: string;
  readonly profileId: string;
  readonly identityId: string | undefined;
  readonly accountId: string | undefined;
  readonly refId: string | undefined;
  readonly cryptoNetwork: string;
  readonly address: string;
  readonly conversionTargetAsset: 'NO_CONVERSION' | 'USD';
  readonly compatibleNetworks: readonly string[];
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAt: number;
}

/** A guaranteed withdrawal fee: valid until `expiresAt` for withdrawals of at most `amount`. */
export interface SimWithdrawalFee {
  readonly id: string;
  readonly owner: string;
  readonly asset: string;
  readonly cryptoNetwork: string;
  readonly destinationAddress: string;
  readonly fee: Dec;
  readonly amount: Dec;
  readonly total: Dec;
  readonly expiresAt: number;
}

/**
 * Crypto money in and out: deposit addresses (create-type networks only), deposits arriving at them
 * (metadata copied, USD stablecoins credited as USD when asked, deposits at or above the travel-rule
 * threshold waiting in NEEDS_INFO for originator information, which the owner supplies or rejects),
 * guaranteed fees and withdrawals (exactly one of amount/total, never above a guaranteed fee's amount).
 */
export class CryptoTransfers {
  private readonly addresses = new Map<string, SimDepositAddress>();
  private readonly fees = new Map<string, SimWithdrawalFee>();

  constructor(private readonly d: AreaDeps) {}

  createAddress(body: JsonObject, owner: string, nowMs: number): SimDepositAddress {
    onlyFields(body, ['profile_id', 'crypto_network', 'identity_id', 'ref_id', 'metadata', 'account_id', 'conversion_target_asset']);
    const profile = this.d.profiles.owned(requiredText(body.profile_id, 'profile_id', '"default"', 100), owner);
    const network = enumValue(body.crypto_network, 'crypto_network', CRYPTO_NETWORKS);
    const target =
      optionalEnum(body.conversion_target_asset, 'conversion_target_asset', ['NO_CONVERSION', 'USD'] as const) ?? 'NO_CONVERSION';
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    const clash = refId === undefined ? undefined : this.listAddresses(owner).find((a) => a.refId === refId);
    if (clash !== undefined)
      throw new SimError('already-exists', `a deposit address with ref_id ${JSON.stringify(refId)} already exists`, undefined, {
        kind: 'deposit-address',
        id: clash.id,
      });
    const links = ownedLinks(this.d, body, owner);
    const a: SimDepositAddress = {
      id: this.d.ids.next('deposit-addresses'),
      seq: this.addresses.size + 1,
      owner,
      profileId: profile.id,
      identityId: links.identityId,
      accountId: links.accountId ?? profile.accountId,
      refId,
      cryptoNetwork: network,
      address: this.newAddress(network),
      conversionTargetAsset: target,
      compatibleNetworks: EVM.includes(network) ? EVM : [network],
      metadata: metadata(body.metadata),
      createdAt: nowMs,
    };
    this.addresses.set(a.id, a);
    return a;
  }

  listAddresses(owner: string): SimDepositAddress[] {
    return [...this.addresses.values()].filter((a) => a.owner === owner);
  }

  /** The deposit address `address` on a network compatible with `network`, if the sandbox issued it. */
  /** The deposit address with this text on `network` (any of its networks when undefined). */
  findAddress(address: string, network: string | undefined): SimDepositAddress | undefined {
    return [...this.addresses.values()].find(
      (a) => a.address === address && (network === undefined || a.compatibleNetworks.includes(network)),
    );
  }

  /** A crypto deposit arriving at a deposit address: credited at once, or held for originator information. */
  depositTo(a: SimDepositAddress, asset: string, qty: Dec, network: string, nowMs: number): SimTransfer {
    const credited = a.conversionTargetAsset === 'USD' && USD_STABLECOINS.includes(asset) ? 'USD' : asset;
    const needsInfo = this.d.usdValue(asset, qty).gte(this.d.settings.travelRuleThresholdUsd);
    if (!needsInfo) this.d.ledger.credit(a.profileId, credited, qty);
    return this.d.transfers.book(
      {
        profileId: a.profileId,
        amount: qty,
        total: qty,
        asset,
        balanceAsset: credited,
        direction: 'CREDIT',
        type: 'CRYPTO_DEPOSIT',
        status: needsInfo ? 'PENDING' : 'COMPLETED',
        secondaryStatus: needsInfo ? 'TRAVEL_RULE_INFO_REQUESTED' : undefined,
        cryptoNetwork: network,
        destinationAddress: a.address,
        cryptoTxHash: this.d.ids.hex('tx-hashes', 32),
        metadata: a.metadata,
        identityId: a.identityId,
        accountId: a.accountId,
        depositAddressId: a.id,
      },
      nowMs,
    );
  }

  /** UpdateCryptoDeposit: originator information for a deposit in NEEDS_INFO; processing resumes. */
  updateDeposit(id: string, body: JsonObject, owner: string, nowMs: number): void {
    onlyFields(body, ['identity_id', 'originator_address_info']);
    const t = this.waitingDeposit(id, body, owner, 'update');
    originator(body.originator_address_info);
    this.d.transfers.resume(t, nowMs, this.d.settings.withdrawalSettleMs);
  }

  /** RejectCryptoDeposit: the owner refuses a deposit in NEEDS_INFO; it fails and its funds never arrive. */
  rejectDeposit(id: string, body: JsonObject, owner: string, nowMs: number): void {
    onlyFields(body, ['identity_id']);
    this.d.transfers.fail(this.waitingDeposit(id, body, owner, 'reject'), nowMs, 'CUSTOMER_REJECTED');
  }

  createFee(body: JsonObject, owner: string, nowMs: number): SimWithdrawalFee {
    onlyFields(body, ['asset', 'destination_address', 'crypto_network', 'amount', 'total']);
    const { asset, network, address, fee } = this.route(body);
    const { amount, total } = amountAndTotal(body, assetDecimals(asset), fee);
    const f: SimWithdrawalFee = {
      id: this.d.ids.next('withdrawal-fees'),
      owner,
      asset,
      cryptoNetwork: network,
      destinationAddress: address,
      fee,
      amount,
      total,
      expiresAt: nowMs + this.d.settings.feeValidityMs,
    };
    this.fees.set(f.id, f);
    return f;
  }

  withdraw(body: JsonObject, owner: string, nowMs: number): SimTransfer {
    onlyFields(body, [
      'ref_id',
      'profile_id',
      'identity_id',
      'destination_address',
      'asset',
      'balance_asset',
      'metadata',
      'account_id',
      'fee_id',
      'crypto_network',
      'amount',
      'total',
      'beneficiary',
      'memo',
    ]);
    const { asset, network, address, fee: listFee } = this.route(body);
    const guaranteed = this.guaranteedFee(body.fee_id, owner, nowMs);
    const { amount, total } = amountAndTotal(body, assetDecimals(asset), guaranteed?.fee ?? listFee);
    if (guaranteed !== undefined) checkAgainstFee(guaranteed, asset, network, address, amount);
    const balanceAsset = optionalText(body.balance_asset, 'balance_asset', 10) ?? asset;
    if (balanceAsset !== asset && !(balanceAsset === 'USD' && USD_STABLECOINS.includes(asset)))
      throw new InputError('balance_asset', `must be ${asset}${USD_STABLECOINS.includes(asset) ? ' or USD' : ''}`);
    optionalObject(body.beneficiary, 'beneficiary', '{"person_details": {first_name, last_name}} or {"institution_details": {name}}');
    const profile = this.d.profiles.owned(requiredText(body.profile_id, 'profile_id', '"default"', 100), owner);
    const links = ownedLinks(this.d, body, owner);
    const refId = optionalText(body.ref_id, 'ref_id', 100);
    this.d.transfers.checkRef(refId);
    this.d.gate.check(profile.id, links);
    this.d.ledger.require(profile.id, balanceAsset, total);
    this.d.limits.admit('CRYPTO_WITHDRAWAL', this.d.usdValue(asset, total), nowMs);
    this.d.ledger.apply([{ profileId: profile.id, asset: balanceAsset, available: total.neg() }]);
    return this.d.transfers.book(
      {
        profileId: profile.id,
        refId,
        amount,
        total,
        fee: guaranteed?.fee ?? listFee,
        asset,
        balanceAsset,
        direction: 'DEBIT',
        type: 'CRYPTO_WITHDRAWAL',
        status: 'PENDING',
        completeAt: nowMs + this.d.settings.withdrawalSettleMs,
        cryptoNetwork: network,
        destinationAddress: address,
        cryptoTxHash: this.d.ids.hex('tx-hashes', 32),
        metadata: metadata(body.metadata),
        identityId: links.identityId,
        accountId: links.accountId ?? profile.accountId,
        memo: optionalText(body.memo, 'memo', 100),
      },
      nowMs,
    );
  }

  saved(): {
    addresses: SimDepositAddress[];
    fees: Array<Omit<SimWithdrawalFee, 'fee' | 'amount' | 'total'> & { fee: string; amount: string; total: string }>;
  } {
    return {
      addresses: [...this.addresses.values()],
      fees: [...this.fees.values()].map((f) => ({ ...f, fee: f.fee.toFixed(), amount: f.amount.toFixed(), total: f.total.toFixed() })),
    };
  }

  restore(
    saved: { readonly addresses?: readonly SimDepositAddress[]; readonly fees?: ReadonlyArray<Record<string, unknown>> } | undefined,
  ): void {
    for (const a of saved?.addresses ?? []) this.addresses.set(a.id, a);
    for (const f of saved?.fees ?? [])
      this.fees.set(String(f.id), {
        ...(f as unknown as SimWithdrawalFee),
        fee: new D(String(f.fee)),
        amount: new D(String(f.amount)),
        total: new D(String(f.total)),
      });
  }

  /** Asset, network, destination and the list fee of a withdrawal or fee request. */
  private route(body: JsonObject): { asset: string; network: string; address: string; fee: Dec } {
    const asset = requiredText(body.asset, 'asset', '"BTC"', 10);
    if (!KNOWN_ASSETS.includes(asset) || isFiat(asset))
      throw new InputError('asset', `${JSON.stringify(asset)} is not a crypto asset of the sandbox`);
    const network = enumValue(body.crypto_network, 'crypto_network', CRYPTO_NETWORKS);
    const address = requiredText(body.destination_address, 'destination_address', '"0x…"', 200);
    if (EVM.includes(network) && !/^0x[0-9a-fA-F]{40}$/.test(address))
      throw new InputError('destination_address', `not a ${network} address: expected 0x and 40 hex digits`);
    const fee = new D(this.d.settings.cryptoWithdrawalFees[asset] ?? (USD_STABLECOINS.includes(asset) ? '1' : '0.001'));
    return { asset, network, address, fee };
  }

  private guaranteedFee(value: unknown, owner: string, nowMs: number): SimWithdrawalFee | undefined {
    const id = optionalText(value, 'fee_id', 100);
    if (id === undefined) return undefined;
    const f = this.fees.get(id);
    if (f === undefined || f.owner !== owner) throw new SimError('not-found', `fee_id: guaranteed fee ${id} not found`);
    if (f.expiresAt <= nowMs)
      throw new SimError('expired', `guaranteed fee ${id} expired at ${new Date(f.expiresAt).toISOString()}: request a new one`, {
        expired_at: new Date(f.expiresAt).toISOString(),
      });
    return f;
  }

  private waitingDeposit(id: string, body: JsonObject, owner: string, what: string): SimTransfer {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new InputError('id', `${JSON.stringify(id)} is not a deposit id (a UUID)`);
    const identityId = requiredText(body.identity_id, 'identity_id', '"the identity acting on the deposit"', 100);
    const t = this.d.transfers.transfers.find((x) => x.id === id && x.type === 'CRYPTO_DEPOSIT');
    if (t === undefined) throw new SimError('not-found', `crypto deposit ${id} not found`);
    const address = t.depositAddressId === undefined ? undefined : this.addresses.get(t.depositAddressId);
    if (address === undefined || address.owner !== owner) throw new SimError('forbidden', `only the owner of the deposit may ${what} it`);
    this.d.identities.get(identityId, owner);
    if (t.status !== 'PENDING' || t.secondaryStatus !== 'TRAVEL_RULE_INFO_REQUESTED') {
      throw new SimError(
        'conflict',
        `crypto deposit ${id} is not in NEEDS_INFO (status ${t.status}${t.secondaryStatus ? `, ${t.secondaryStatus}` : ''}): only deposits waiting for originator information can be updated or rejected`,
      );
    }
    return t;
  }

  private newAddress(network: string): string {
    const hex = this.d.ids.hex('addresses', 20);
    if (EVM.includes(network)) return `0x${hex}`;
    if (network === 'BITCOIN') return `bc1q${hex.slice(0, 38)}`;
    if (network === 'LITECOIN') return `ltc1q${hex.slice(0, 38)}`;
    if (network === 'BITCOIN_CASH') return `bitcoincash:q${hex.slice(0, 40)}`;
    return hex.replace(/0/g, 'z').replace(/l/g, 'L');
  }
}

function checkAgainstFee(f: SimWithdrawalFee, asset: string, network: string, address: string, amount: Dec): void {
  if (f.asset !== asset || f.cryptoNetwork !== network || f.destinationAddress !== address) {
    throw new InputError(
      'fee_id',
      `the guaranteed fee is for ${f.asset} on ${f.cryptoNetwork} to ${f.destinationAddress}: asset, network and destination must match`,
    );
  }
  if (amount.gt(f.amount))
    throw new InputError(
      'amount',
      `${amount.toFixed()} exceeds the guaranteed fee's amount ${f.amount.toFixed()}: withdraw at most that, or request a new fee`,
    );
}

/** Originator information: first and last name for a person, the name for an institution (either wire form). */
function originator(value: unknown): void {
  const o = objectValue(
    value,
    'originator_address_info',
    '{"first_name", "last_name"} for a person or {"institution_name"} for an institution',
  );
  const person = (o.individual_info as JsonObject | undefined) ?? o;
  const institution = (o.institution_info as JsonObject | undefined) ?? o;
  const hasInstitution = typeof institution.institution_name === 'string' && institution.institution_name !== '';
  if (hasInstitution) return;
  requiredText(person.first_name, 'originator_address_info.first_name', '"Ada" (or institution_name for an institution)', 100);
  requiredText(person.last_name, 'originator_address_info.last_name', '"Lovelace"', 100);
}
