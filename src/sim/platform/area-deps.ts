import { type Dec } from '../../core/decimal.js';
import { type SimAccountStore } from './accounts.js';
import { type TransactGate } from './compliance.js';
import { type IdentityStore } from './identities.js';
import { type IdSource } from '../ids.js';
import { type Ledger } from '../exchange/ledger.js';
import { type ProfileStore } from '../exchange/profiles.js';
import { type TransferLimits } from './transfer-limit-rules.js';
import { type TransferStore } from './transfers.js';

/** Settings of the platform areas beyond trading (all times on the sim clock). */
export interface PlatformSettings {
  /** Automated review of a created or updated fiat account (default 5 000 ms). */
  readonly fiatReviewMs: number;
  /** PENDING → COMPLETED of fiat and crypto withdrawals and resumed deposits (default 3 000 ms). */
  readonly withdrawalSettleMs: number;
  /** Fee of a fiat withdrawal per network, USD (default wire 5, others 0). */
  readonly fiatWithdrawalFees: Readonly<Record<string, string>>;
  /** Flat crypto withdrawal fee per asset (default BTC 0.0001, ETH 0.001, others 1 unit of USD value). */
  readonly cryptoWithdrawalFees: Readonly<Record<string, string>>;
  /** Validity of a guaranteed withdrawal fee (default 60 000 ms). */
  readonly feeValidityMs: number;
  /** Deposits into a deposit address worth at least this many USD wait for originator information (default 3000). */
  readonly travelRuleThresholdUsd: string;
  /** CREATED → SETTLED of a stablecoin conversion (default 2 000 ms). */
  readonly conversionSettleMs: number;
  /** Per-request maximum of a stablecoin conversion, USD (default 10000). */
  readonly conversionMax: string;
  /** Settlement window of a transaction created without an end (default 24 h). */
  readonly settlementWindowMs: number;
  /** Identity documents (a closed beta on the platform): 403 unless enabled. */
  readonly documents: boolean;
  /** Largest document accepted (default 100 MB). */
  readonly maxDocumentBytes: number;
}

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  fiatReviewMs: 5_000,
  withdrawalSettleMs: 3_000,
  fiatWithdrawalFees: { wire: '5', cbit: '0', dbs_act: '0', cubix: '0', scb: '0' },
  cryptoWithdrawalFees: { BTC: '0.0001', ETH: '0.001', BCH: '0.001', LTC: '0.001', SOL: '0.01' },
  feeValidityMs: 60_000,
  travelRuleThresholdUsd: '3000',
  conversionSettleMs: 2_000,
  conversionMax: '10000',
  settlementWindowMs: 86_400_000,
  documents: false,
  maxDocumentBytes: 100 * 1024 * 1024,
};

/** What the platform areas share: ids, balances, profiles, transfers and limits, identities and the gate. */
export interface AreaDeps {
  readonly ids: IdSource;
  readonly ledger: Ledger;
  readonly profiles: ProfileStore;
  readonly transfers: TransferStore;
  readonly limits: TransferLimits;
  readonly identities: IdentityStore;
  readonly accounts: SimAccountStore;
  readonly gate: TransactGate;
  readonly settings: PlatformSettings;
  /** USD value of an amount of an asset now. */
  readonly usdValue: (asset: string, amount: Dec) => Dec;
}
