import { type Dec } from '../../core/decimal.js';
import { SimAccountStore, type SimAccount } from './accounts.js';
import { type AreaDeps, DEFAULT_PLATFORM_SETTINGS, type PlatformSettings } from './area-deps.js';
import { TransactGate } from './compliance.js';
import { ConversionStore } from './conversions.js';
import { CryptoTransfers } from './crypto.js';
import { DestinationAddressBook, type SimDestinationAddress } from './destination-addresses.js';
import { SimError } from '../errors.js';
import { FiatAccountStore, type SimFiatAccount } from './fiat.js';
import { FiatTransfers, type SimDepositInstructions } from './fiat-transfers.js';
import { IdentityStore } from './identities.js';
import { DocumentStore, type SimDocument } from './identity-documents.js';
import { type IdSource } from '../ids.js';
import { type Ledger } from '../exchange/ledger.js';
import { customerIdOf, ownerOf } from '../owners.js';
import { type ProfileStore } from '../exchange/profiles.js';
import { SettlementTransactions } from './settlement-transactions.js';
import { TaxForms } from './tax-forms.js';
import { type TransferLimits } from './transfer-limit-rules.js';
import { type InternalTransferCommand, type SimTransfer, type TransferStore } from './transfers.js';

/** The saved state of every platform area (snapshot field `platform`); every part is optional for older files. */
export interface PlatformSnapshot {
  readonly identities?: ReturnType<IdentityStore['saved']>;
  readonly documents?: readonly SimDocument[];
  readonly accounts?: readonly SimAccount[];
  readonly fiatAccounts?: readonly SimFiatAccount[];
  readonly depositInstructions?: readonly SimDepositInstructions[];
  readonly crypto?: ReturnType<CryptoTransfers['saved']>;
  readonly settlements?: ReadonlyArray<Record<string, unknown>>;
  readonly conversions?: ReadonlyArray<Record<string, unknown>>;
  readonly taxCorrections?: ReadonlyArray<readonly [string, number]>;
  readonly destinationAddresses?: readonly SimDestinationAddress[];
}

export interface PlatformServicesDeps {
  readonly ids: IdSource;
  readonly ledger: Ledger;
  readonly profiles: ProfileStore;
  readonly transfers: TransferStore;
  readonly limits: TransferLimits;
  readonly seed: number;
  readonly settings?: Partial<PlatformSettings>;
  readonly usdValue: (asset: string, amount: Dec) => Dec;
}

/**
 * Every area of the platform beyond trading, built over the sim's shared ledger, profiles,
 * transfers and limits: identities (and their documents), accounts, fiat accounts and transfers,
 * crypto addresses, deposits and withdrawals, settlements, stablecoin conversions and tax forms,
 * plus the may-transact gate. Time-driven moves happen in `advance` (the sim calls it as time passes).
 */
export class PlatformServices {
  readonly settings: PlatformSettings;
  readonly identities: IdentityStore;
  readonly documents: DocumentStore;
  readonly accounts: SimAccountStore;
  readonly gate: TransactGate;
  readonly fiatAccounts: FiatAccountStore;
  readonly fiat: FiatTransfers;
  readonly crypto: CryptoTransfers;
  readonly settlements: SettlementTransactions;
  readonly conversions: ConversionStore;
  readonly taxForms: TaxForms;
  /** Crypto destination addresses (the address book of PutCryptoDestinationAddress). */
  readonly destinations: DestinationAddressBook;
  private readonly deps: AreaDeps;

  constructor(d: PlatformServicesDeps) {
    this.settings = { ...DEFAULT_PLATFORM_SETTINGS, ...d.settings };
    this.identities = new IdentityStore(d.ids);
    this.documents = new DocumentStore(d.ids);
    this.accounts = new SimAccountStore(d.ids, this.identities, d.profiles);
    this.gate = new TransactGate(d.profiles, this.identities, this.accounts);
    this.deps = {
      ids: d.ids,
      ledger: d.ledger,
      profiles: d.profiles,
      transfers: d.transfers,
      limits: d.limits,
      identities: this.identities,
      accounts: this.accounts,
      gate: this.gate,
      settings: this.settings,
      usdValue: d.usdValue,
    };
    this.fiatAccounts = new FiatAccountStore(d.ids, this.settings.fiatReviewMs);
    this.fiat = new FiatTransfers(this.deps, this.fiatAccounts);
    this.crypto = new CryptoTransfers(this.deps);
    this.settlements = new SettlementTransactions(this.deps);
    this.conversions = new ConversionStore(this.deps);
    this.taxForms = new TaxForms(this.accounts, d.seed);
    this.destinations = new DestinationAddressBook(d.ids);
  }

  /** The wire customer_id of an entity. */
  customerId(owner: string): string {
    return customerIdOf(this.deps.ids, owner);
  }

  /** Moves every area to `atMs`: fiat reviews, conversions settling, settlements settling or expiring. */
  advance(atMs: number): void {
    this.fiatAccounts.reviewDue(atMs);
    this.conversions.advance(atMs);
    this.settlements.advance(atMs);
  }

  /** Internal transfer for an entity: both profiles must be its own (403 otherwise); the sender may transact. */
  internalTransfer(cmd: InternalTransferCommand, owner: string, nowMs: number): SimTransfer {
    const from = this.ownedIfGiven(cmd.fromProfileId, owner, 'from_profile_id');
    const to = this.ownedIfGiven(cmd.toProfileId, owner, 'to_profile_id');
    if (from !== undefined) this.gate.check(from, { identityId: cmd.fromIdentityId, accountId: cmd.fromAccountId });
    if (to !== undefined) this.gate.check(to, { identityId: cmd.toIdentityId, accountId: cmd.toAccountId });
    return this.deps.transfers.internal(cmd, nowMs, 'INTERNAL');
  }

  /** Platform transfer: from the caller's profile to an existing profile of another entity. */
  platformTransfer(cmd: InternalTransferCommand, owner: string, nowMs: number): SimTransfer {
    const from = this.ownedIfGiven(cmd.fromProfileId, owner, 'from_profile_id');
    if (typeof cmd.toProfileId === 'string' && cmd.toProfileId !== '') {
      const to = this.deps.profiles.get(cmd.toProfileId);
      if (ownerOf(to) === owner)
        throw new SimError(
          'bad-request',
          'to_profile_id: the destination belongs to your own entity: a platform transfer moves assets between entities; use CreateInternalTransfer',
          { field: 'to_profile_id' },
        );
    }
    if (from !== undefined) this.gate.check(from, { identityId: cmd.fromIdentityId, accountId: cmd.fromAccountId });
    return this.deps.transfers.internal(cmd, nowMs, 'PAXOS');
  }

  saved(): PlatformSnapshot {
    return {
      identities: this.identities.saved(),
      documents: this.documents.saved(),
      accounts: this.accounts.saved(),
      fiatAccounts: this.fiatAccounts.saved(),
      depositInstructions: this.fiat.saved(),
      crypto: this.crypto.saved(),
      settlements: this.settlements.saved(),
      conversions: this.conversions.saved(),
      taxCorrections: this.taxForms.saved(),
      destinationAddresses: this.destinations.saved(),
    };
  }

  restore(s: PlatformSnapshot | undefined): void {
    if (s === undefined) return;
    if (s.identities !== undefined) this.identities.restore(s.identities);
    this.documents.restore(s.documents);
    this.accounts.restore(s.accounts);
    this.fiatAccounts.restore(s.fiatAccounts);
    this.fiat.restore(s.depositInstructions);
    this.crypto.restore(s.crypto);
    this.settlements.restore(s.settlements);
    this.conversions.restore(s.conversions);
    this.taxForms.restore(s.taxCorrections);
    this.destinations.restore(s.destinationAddresses);
  }

  private ownedIfGiven(value: unknown, owner: string, field: string): string | undefined {
    if (typeof value !== 'string' || value === '') return undefined;
    return this.deps.profiles.owned(value, owner, field).id;
  }
}
