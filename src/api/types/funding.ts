import type {
  CreatedAtQuery, CryptoNetwork, CursorQuery, DecimalString, FiatNetwork, Metadata, OrderingQuery, ProfileType,
  SecondaryStatusName, Timestamp, TransferDirection, TransferStatus, TransferType, UpdatedAtQuery,
} from './common.js';

/** Wire types of profiles, balances, sandbox helpers, transfers, fiat, crypto and conversions. */

export interface Profile {
  readonly id: string;
  readonly nickname: string;
  readonly type: ProfileType;
  readonly description?: string;
  readonly account_id?: string;
}

export interface ListProfilesQuery extends CursorQuery, OrderingQuery, CreatedAtQuery {
  readonly nickname?: string;
  readonly ids?: readonly string[];
}

export interface ProfileBalance {
  readonly asset: string;
  /** Usable for new debits. */
  readonly available: DecimalString;
  /** Committed to open orders. */
  readonly trading: DecimalString;
}

export interface CreateSandboxDepositRequest {
  readonly asset: string;
  readonly amount: DecimalString;
  readonly crypto_network?: CryptoNetwork;
  readonly crypto_address?: string;
}

export interface Transfer {
  readonly id: string;
  readonly customer_id: string;
  readonly profile_id: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly ref_id?: string;
  readonly amount: DecimalString;
  readonly total: DecimalString;
  readonly fee: DecimalString;
  readonly asset: string;
  readonly balance_asset?: string;
  readonly direction: TransferDirection;
  readonly type: TransferType;
  readonly status: TransferStatus;
  readonly secondary_status?: { readonly name?: SecondaryStatusName; readonly detail?: string };
  readonly status_details?: Readonly<Record<string, unknown>>;
  readonly created_at: Timestamp;
  readonly updated_at: Timestamp;
  readonly metadata?: Metadata;
  readonly destination_address?: string;
  readonly crypto_network?: CryptoNetwork;
  readonly crypto_tx_hash?: string;
  readonly crypto_tx_index?: string;
  readonly auto_conversion?: { readonly from_transfer_id?: string; readonly to_transfer_id?: string };
  readonly group_id?: string;
  readonly fiat_account_id?: string;
  readonly notional_value?: DecimalString;
  readonly memo?: string;
}

export interface ListTransfersQuery extends CursorQuery, OrderingQuery, CreatedAtQuery, UpdatedAtQuery {
  readonly profile_ids?: readonly string[];
  readonly identity_ids?: readonly string[];
  readonly ref_ids?: readonly string[];
  readonly account_ids?: readonly string[];
  readonly ids?: readonly string[];
  /** Transfer types (the wire name is singular). */
  readonly type?: readonly TransferType[];
  readonly group_ids?: readonly string[];
  readonly crypto_tx_hashes?: readonly string[];
  readonly statuses?: readonly TransferStatus[];
  readonly secondary_statuses?: readonly SecondaryStatusName[];
}

export interface TransferLimit {
  readonly id?: string;
  readonly rule_id?: string;
  readonly transfer_types?: readonly TransferType[];
  /** "0" = a per-transaction limit. */
  readonly period_seconds?: string;
  readonly limit?: DecimalString;
  readonly remaining?: DecimalString;
  readonly limit_asset?: string;
}

export interface InternalTransferRequest {
  readonly ref_id?: string;
  readonly from_profile_id: string;
  readonly to_profile_id: string;
  readonly amount: DecimalString;
  readonly asset: string;
  readonly metadata?: Metadata;
  readonly recipient_metadata?: Metadata;
  readonly from_identity_id?: string;
  readonly from_account_id?: string;
  readonly to_identity_id?: string;
  readonly to_account_id?: string;
}

/** The owner of a fiat account; lists withhold it (`{}`, or `null` details as the spec's list example). */
export interface FiatAccountOwner {
  readonly person_details?: { readonly first_name: string; readonly last_name: string } | null;
  readonly institution_details?: { readonly name: string } | null;
}

/** Network instructions (wire, cubix, dbs_act, scb …) are kept open: shapes differ per network. */
export type FiatNetworkInstructions = Readonly<Record<string, unknown>>;

export interface FiatAccount {
  readonly id: string;
  readonly ref_id?: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly status?: string;
  readonly fiat_account_owner?: FiatAccountOwner;
  readonly fiat_network_instructions?: FiatNetworkInstructions;
  readonly metadata?: Metadata;
  readonly created_at?: Timestamp;
  readonly updated_at?: Timestamp;
  /** Set on an account DeleteFiatAccount removed (listed only with `include_deleted`). */
  readonly deleted_at?: Timestamp;
}

export interface CreateFiatAccountRequest {
  readonly ref_id?: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly fiat_account_owner: FiatAccountOwner;
  readonly fiat_network_instructions: FiatNetworkInstructions;
  readonly metadata?: Metadata;
}

export type UpdateFiatAccountRequest = Partial<Omit<CreateFiatAccountRequest, 'ref_id' | 'identity_id' | 'account_id'>>;

export interface ListFiatAccountsQuery extends CursorQuery, OrderingQuery, CreatedAtQuery {
  readonly ids?: readonly string[];
  readonly ref_ids?: readonly string[];
  readonly include_deleted?: boolean;
}

export interface FiatDepositInstructions {
  readonly id: string;
  readonly profile_id?: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly ref_id?: string;
  readonly status?: string;
  readonly memo_id?: string;
  readonly fiat_network_instructions?: FiatNetworkInstructions;
  readonly fiat_account_owner?: FiatAccountOwner;
  readonly metadata?: Metadata;
  readonly created_at?: Timestamp;
}

export interface CreateFiatDepositInstructionsRequest {
  readonly ref_id?: string;
  readonly profile_id: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly fiat_network: FiatNetwork;
  readonly routing_number_type?: string;
  readonly metadata?: Metadata;
}

export interface ListFiatDepositInstructionsQuery extends CursorQuery, CreatedAtQuery {
  readonly ids?: readonly string[];
  readonly ref_ids?: readonly string[];
  readonly order?: OrderingQuery['order'];
}

/** Exactly one of amount / total (≤ 2 decimals); memo ≤ 100 wire characters. */
export interface CreateFiatWithdrawalRequest {
  readonly ref_id?: string;
  readonly amount?: DecimalString;
  readonly total?: DecimalString;
  readonly asset: string;
  readonly fiat_account_id: string;
  readonly profile_id: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly metadata?: Metadata;
  readonly memo?: string;
}

export interface DepositAddress {
  readonly id: string;
  readonly profile_id?: string;
  readonly customer_id?: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly ref_id?: string;
  readonly crypto_network?: CryptoNetwork;
  readonly address?: string;
  readonly conversion_target_asset?: string;
  readonly compatible_crypto_networks?: readonly CryptoNetwork[];
  readonly metadata?: Metadata;
  readonly created_at?: Timestamp;
}

export interface CreateDepositAddressRequest {
  readonly profile_id: string;
  readonly crypto_network: CryptoNetwork;
  readonly identity_id?: string;
  readonly ref_id?: string;
  readonly metadata?: Metadata;
  readonly account_id?: string;
  readonly conversion_target_asset?: string;
}

export interface ListDepositAddressesQuery extends CursorQuery, OrderingQuery, CreatedAtQuery {
  readonly profile_ids?: readonly string[];
  readonly identity_ids?: readonly string[];
  readonly ids?: readonly string[];
  readonly ref_ids?: readonly string[];
  readonly account_ids?: readonly string[];
}

export interface RejectCryptoDepositRequest {
  readonly identity_id: string;
}

export interface UpdateCryptoDepositRequest {
  readonly identity_id: string;
  readonly originator_address_info: Readonly<Record<string, unknown>>;
}

/** Exactly one of amount / total. */
export interface CreateCryptoWithdrawalRequest {
  readonly ref_id?: string;
  readonly profile_id: string;
  readonly identity_id?: string;
  readonly account_id?: string;
  readonly destination_address: string;
  readonly asset: string;
  readonly balance_asset?: string;
  readonly crypto_network: CryptoNetwork;
  readonly amount?: DecimalString;
  readonly total?: DecimalString;
  readonly fee_id?: string;
  readonly metadata?: Metadata;
  readonly beneficiary?: Readonly<Record<string, unknown>>;
  readonly memo?: string;
}

export interface CreateCryptoWithdrawalFeeRequest {
  readonly asset: string;
  readonly destination_address: string;
  readonly crypto_network: CryptoNetwork;
  readonly amount?: DecimalString;
  readonly total?: DecimalString;
}

export interface CryptoWithdrawalFee {
  readonly id?: string;
  readonly asset?: string;
  readonly amount?: DecimalString;
  readonly total?: DecimalString;
  readonly fee?: DecimalString;
  readonly expires_at?: Timestamp;
  readonly [key: string]: unknown;
}

export interface InitiateSandboxFiatDepositRequest {
  readonly amount: DecimalString;
  readonly asset: string;
  readonly memo_id: string;
  readonly fiat_network_instructions: FiatNetworkInstructions;
  readonly fiat_account_owner?: FiatAccountOwner;
}
