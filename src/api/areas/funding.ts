import type { CallOptions } from '../http/executor.js';
import type { Empty, Items, Page } from '../types/common.js';
import type {
  CreateCryptoWithdrawalFeeRequest, CreateCryptoWithdrawalRequest, CreateDepositAddressRequest, CreateFiatAccountRequest,
  CreateFiatDepositInstructionsRequest, CreateFiatWithdrawalRequest, CreateSandboxDepositRequest,
  CryptoWithdrawalFee, DepositAddress, FiatAccount, FiatDepositInstructions,
  InitiateSandboxFiatDepositRequest, InternalTransferRequest, ListDepositAddressesQuery, ListFiatAccountsQuery,
  ListFiatDepositInstructionsQuery, ListProfilesQuery, ListTransfersQuery, Profile,
  ProfileBalance, RejectCryptoDepositRequest, Transfer, TransferLimit, UpdateCryptoDepositRequest,
  UpdateFiatAccountRequest,
} from '../types/funding.js';
import type { TransferType } from '../types/common.js';
import type { CreateStablecoinConversionRequest, ListStablecoinConversionsQuery, StablecoinConversion } from '../types/conversions.js';
import type { Caller } from './caller.js';

/**
 * Typed methods of profiles and balances, sandbox helpers, transfers and limits, fiat accounts,
 * deposit instructions and withdrawals, crypto deposit addresses, deposits and withdrawals, fees
 * and stablecoin conversions.
 */
export function fundingMethods(call: Caller) {
  return {
    listProfiles: (query: ListProfilesQuery = {}, opts?: CallOptions) => call<Page<Profile>>('ListProfiles', { query }, opts),
    createProfile: (body: { nickname: string; description?: string }, opts?: CallOptions) => call<Profile>('CreateProfile', { body }, opts),
    /** GetProfile; `profileId` may be the alias `default`. */
    getProfile: (profileId: string, query: { include_deactivated?: boolean } = {}, opts?: CallOptions) =>
      call<Profile>('GetProfile', { path: { profile_id: profileId }, query }, opts),
    updateProfile: (profileId: string, body: { nickname: string }, opts?: CallOptions) =>
      call<Profile>('UpdateProfile', { path: { profile_id: profileId }, body }, opts),
    deactivateProfile: (profileId: string, opts?: CallOptions) => call<Empty>('DeactivateProfile', { path: { profile_id: profileId } }, opts),
    /** ListProfileBalances; omit `assets` for all. */
    listProfileBalances: (profileId: string, assets?: readonly string[], opts?: CallOptions) =>
      call<Items<ProfileBalance>>('ListProfileBalances', { path: { profile_id: profileId }, query: { assets } }, opts),
    getProfileBalance: (profileId: string, asset: string, opts?: CallOptions) =>
      call<ProfileBalance>('GetProfileBalance', { path: { profile_id: profileId, asset } }, opts),
    /** Sandbox only. */
    createSandboxDeposit: (profileId: string, body: CreateSandboxDepositRequest, opts?: CallOptions) =>
      call<{ readonly activity_id?: string }>('CreateSandboxDeposit', { path: { profile_id: profileId }, body }, opts),
    /** Sandbox only. */
    initiateSandboxFiatDeposit: (body: InitiateSandboxFiatDepositRequest, opts?: CallOptions) =>
      call<Empty>('InitiateSandboxFiatDeposit', { body }, opts),
    listTransfers: (query: ListTransfersQuery = {}, opts?: CallOptions) => call<Page<Transfer>>('ListTransfers', { query }, opts),
    getTransfer: (id: string, opts?: CallOptions) => call<Transfer>('GetTransfer', { path: { id } }, opts),
    listTransferLimits: (transferType: TransferType, opts?: CallOptions) =>
      call<Items<TransferLimit>>('ListTransferLimits', { query: { transfer_type: transferType } }, opts),
    /** CreateInternalTransfer: returns the debit leg; resolved by ref_id on unknown outcomes. */
    createInternalTransfer: (body: InternalTransferRequest, opts?: CallOptions) => call<Transfer>('CreateInternalTransfer', { body }, opts),
    /** CreatePaxosTransfer (the platform spec's "platform transfer"). */
    createPaxosTransfer: (body: InternalTransferRequest, opts?: CallOptions) => call<Transfer>('CreatePaxosTransfer', { body }, opts),
    listFiatAccounts: (query: ListFiatAccountsQuery = {}, opts?: CallOptions) => call<Page<FiatAccount>>('ListFiatAccounts', { query }, opts),
    /** DeleteFiatAccount: the account can no longer be used; `include_deleted` still lists it. */
    deleteFiatAccount: (id: string, opts?: CallOptions) => call<Empty>('DeleteFiatAccount', { path: { id } }, opts),
    createFiatAccount: (body: CreateFiatAccountRequest, opts?: CallOptions) => call<FiatAccount>('CreateFiatAccount', { body }, opts),
    getFiatAccount: (id: string, query: { include_deleted?: boolean } = {}, opts?: CallOptions) =>
      call<FiatAccount>('GetFiatAccount', { path: { id }, query }, opts),
    updateFiatAccount: (id: string, body: UpdateFiatAccountRequest, opts?: CallOptions) =>
      call<FiatAccount>('UpdateFiatAccount', { path: { id }, body }, opts),
    listFiatDepositInstructions: (query: ListFiatDepositInstructionsQuery = {}, opts?: CallOptions) =>
      call<Page<FiatDepositInstructions>>('ListFiatDepositInstructions', { query }, opts),
    createFiatDepositInstructions: (body: CreateFiatDepositInstructionsRequest, opts?: CallOptions) =>
      call<FiatDepositInstructions>('CreateFiatDepositInstructions', { body }, opts),
    getFiatDepositInstructions: (id: string, opts?: CallOptions) => call<FiatDepositInstructions>('GetFiatDepositInstructions', { path: { id } }, opts),
    createFiatWithdrawal: (body: CreateFiatWithdrawalRequest, opts?: CallOptions) => call<Transfer>('CreateFiatWithdrawal', { body }, opts),
    listDepositAddresses: (query: ListDepositAddressesQuery = {}, opts?: CallOptions) =>
      call<Page<DepositAddress>>('ListDepositAddresses', { query }, opts),
    createDepositAddress: (body: CreateDepositAddressRequest, opts?: CallOptions) => call<DepositAddress>('CreateDepositAddress', { body }, opts),
    rejectCryptoDeposit: (id: string, body: RejectCryptoDepositRequest, opts?: CallOptions) =>
      call<Empty>('RejectCryptoDeposit', { path: { id }, body }, opts),
    updateCryptoDeposit: (id: string, body: UpdateCryptoDepositRequest, opts?: CallOptions) =>
      call<Empty>('UpdateCryptoDeposit', { path: { id }, body }, opts),
    createCryptoWithdrawal: (body: CreateCryptoWithdrawalRequest, opts?: CallOptions) => call<Transfer>('CreateCryptoWithdrawal', { body }, opts),
    createCryptoWithdrawalFee: (body: CreateCryptoWithdrawalFeeRequest, opts?: CallOptions) =>
      call<CryptoWithdrawalFee>('CreateCryptoWithdrawalFee', { body }, opts),
    listStablecoinConversions: (query: ListStablecoinConversionsQuery = {}, opts?: CallOptions) =>
      call<Page<StablecoinConversion>>('ListStablecoinConversions', { query }, opts),
    createStablecoinConversion: (body: CreateStablecoinConversionRequest, opts?: CallOptions) =>
      call<StablecoinConversion>('CreateStablecoinConversion', { body }, opts),
    getStablecoinConversion: (id: string, opts?: CallOptions) => call<StablecoinConversion>('GetStablecoinConversion', { path: { id } }, opts),
    cancelStablecoinConversion: (id: string, opts?: CallOptions) => call<StablecoinConversion>('CancelStablecoinConversion', { path: { id } }, opts),
  };
}

export type FundingApi = ReturnType<typeof fundingMethods>;
