/**
 * Client-side validation rules per operation, as data: the platform's documented limits that are
 * cheap to check before a request is made (required fields, decimal strings and their precision,
 * exactly-one-of pairs, lengths). The server stays the authority; these rules turn the common
 * mistakes into a ValidationError naming the field, with no request sent.
 */

/** Maximum decimal places of a field: a number, `fiat-by-asset` (2 when `asset` is fiat), or any. */
export type DecimalRule = number | 'fiat-by-asset' | 'any';

export interface BodyRules {
  /** Dotted paths that must be present and non-empty. */
  readonly required?: readonly string[];
  readonly decimals?: Readonly<Record<string, DecimalRule>>;
  /** Exactly one of the two fields must be given. */
  readonly exactlyOne?: ReadonlyArray<readonly [string, string]>;
  /** Both or neither of the two fields. */
  readonly together?: ReadonlyArray<readonly [string, string]>;
  readonly maxLength?: Readonly<Record<string, number>>;
  readonly nonEmptyArrays?: readonly string[];
  /** Fields restricted to the wire memo charset (letters, digits, space and / ? : ( ) . , & ' + -). */
  readonly memo?: Readonly<Record<string, number>>;
  readonly ints?: Readonly<Record<string, { readonly min: number; readonly max: number }>>;
  /** Fields that must be digit strings (epoch milliseconds on the wire). */
  readonly digits?: readonly string[];
}

/** Rules for query parameters beyond their kinds (which the operations table carries). */
export interface QueryRules {
  readonly exactlyOne?: ReadonlyArray<readonly [string, string]>;
}

const TRANSFER_BETWEEN_PROFILES: BodyRules = {
  required: ['from_profile_id', 'to_profile_id', 'amount', 'asset'],
  decimals: { amount: 'fiat-by-asset' },
};

export const BODY_RULES: Readonly<Record<string, BodyRules>> = {
  CreateOrder: {
    required: ['side', 'market', 'type'],
    decimals: { base_amount: 'any', quote_amount: 'any', price: 'any', stop_price: 'any' },
    together: [['identity_id', 'identity_account_id']],
    maxLength: { self_match_prevention_id: 36 },
    ints: { await_fill_millis: { min: 0, max: 10_000 } },
    digits: ['expiration_date'],
  },
  CreateQuoteExecution: {
    required: ['quote_id'],
    decimals: { base_amount: 8, quote_amount: 2 },
    exactlyOne: [['base_amount', 'quote_amount']],
  },
  CreateInternalTransfer: TRANSFER_BETWEEN_PROFILES,
  CreatePaxosTransfer: TRANSFER_BETWEEN_PROFILES,
  CreateFiatWithdrawal: {
    required: ['asset', 'fiat_account_id', 'profile_id'],
    decimals: { amount: 2, total: 2 },
    exactlyOne: [['amount', 'total']],
    memo: { memo: 100 },
  },
  CreateCryptoWithdrawal: {
    required: ['profile_id', 'asset', 'destination_address', 'crypto_network'],
    decimals: { amount: 'any', total: 'any' },
    exactlyOne: [['amount', 'total']],
  },
  CreateCryptoWithdrawalFee: {
    required: ['asset', 'destination_address', 'crypto_network'],
    decimals: { amount: 'any', total: 'any' },
    exactlyOne: [['amount', 'total']],
  },
  CreateSandboxDeposit: { required: ['asset', 'amount'], decimals: { amount: 'fiat-by-asset' } },
  InitiateSandboxFiatDeposit: {
    required: ['amount', 'asset', 'memo_id', 'fiat_network_instructions'],
    decimals: { amount: 2 },
  },
  CreateStablecoinConversion: { required: ['profile_id', 'amount', 'source_asset', 'target_asset'], decimals: { amount: 'any' } },
  CreateDepositAddress: { required: ['profile_id', 'crypto_network'] },
  CreateFiatDepositInstructions: { required: ['profile_id', 'fiat_network'] },
  CreateFiatAccount: { required: ['fiat_account_owner', 'fiat_network_instructions'] },
  CreateProfile: { required: ['nickname'] },
  UpdateProfile: { required: ['nickname'] },
  AddInstitutionMembers: { required: ['institution_id'], nonEmptyArrays: ['members'] },
  AddAccountMembers: { required: ['account_id'], nonEmptyArrays: ['members'] },
  CreateAccount: { required: ['account.identity_id'] },
  UpdateAccount: { required: ['account.id'] },
  RejectCryptoDeposit: { required: ['identity_id'] },
  UpdateCryptoDeposit: { required: ['identity_id', 'originator_address_info'] },
  DocumentUpload: { required: ['name'], maxLength: { name: 260 } },
};

export const QUERY_RULES: Readonly<Record<string, QueryRules>> = {
  ListHistoricalPrices: { exactlyOne: [['increment', 'max_data_points']] },
};

/** Metadata maps checked in every body: ≤ 6 pairs, keys and values ≤ 100 characters. */
export const METADATA_FIELDS = ['metadata', 'recipient_metadata', 'account.metadata'] as const;
export const METADATA_MAX_PAIRS = 6;
export const METADATA_MAX_CHARS = 100;
