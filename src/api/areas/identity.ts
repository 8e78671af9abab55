import type { CallOptions } from '../http/executor.js';
import type { Empty, Page } from '../types/common.js';
import type {
  Account, AddAccountMembersRequest, AddInstitutionMembersRequest, CreateAccountRequest, CreateIdentityRequest,
  CreateSettlementTransactionRequest, DocumentUploadRequest, GetIdentityQuery, Identity, IdentityDocuments,
  ListAccountsQuery, ListIdentitiesQuery, ListTaxFormRevisionsQuery, ListTaxFormsQuery, ListTransactionsQuery,
  SettlementTransaction, TaxForms, UpdateAccountRequest, UpdateIdentityRequest,
} from '../types/identity.js';
import type { Caller } from './caller.js';

/** Typed methods of identities, institution members, documents, accounts, settlements and tax forms. */
export function identityMethods(call: Caller) {
  return {
    listIdentities: (query: ListIdentitiesQuery = {}, opts?: CallOptions) => call<Page<Identity>>('ListIdentities', { query }, opts),
    createIdentity: (body: CreateIdentityRequest, opts?: CallOptions) => call<Identity>('CreateIdentity', { body }, opts),
    getIdentity: (id: string, query: GetIdentityQuery = {}, opts?: CallOptions) => call<Identity>('GetIdentity', { path: { id }, query }, opts),
    updateIdentity: (id: string, body: UpdateIdentityRequest, opts?: CallOptions) => call<Identity>('UpdateIdentity', { path: { id }, body }, opts),
    /** Older API version only; current servers answer 404. */
    retryIdVerification: (id: string, opts?: CallOptions) => call<Identity>('RetryIdVerification', { path: { id }, body: {} }, opts),
    /** Older API version only; current servers answer 404. */
    setVerifierCredentials: (body: Readonly<Record<string, unknown>>, opts?: CallOptions) => call<Empty>('SetVerifierCredentials', { body }, opts),
    /** Sandbox only: force verification statuses of an identity. */
    sandboxSetIdentityStatus: (id: string, body: Readonly<Record<string, unknown>>, opts?: CallOptions) =>
      call<Empty>('SandboxSetIdentityStatus', { path: { id }, body }, opts),
    addInstitutionMembers: (body: AddInstitutionMembersRequest, opts?: CallOptions) => call<Identity>('AddInstitutionMembers', { body }, opts),
    deleteInstitutionMember: (id: string, opts?: CallOptions) => call<Empty>('DeleteInstitutionMember', { path: { id } }, opts),
    /** DocumentUpload step 1: returns an upload URL for the file bytes. */
    documentUpload: (identityId: string, body: DocumentUploadRequest, opts?: CallOptions) =>
      call<Readonly<Record<string, unknown>>>('DocumentUpload', { path: { identity_id: identityId }, body }, opts),
    listIdentityDocuments: (identityId: string, query: { include_pending_docs?: boolean } = {}, opts?: CallOptions) =>
      call<IdentityDocuments>('ListIdentityDocuments', { path: { identity_id: identityId }, query }, opts),
    listAccounts: (query: ListAccountsQuery = {}, opts?: CallOptions) => call<Page<Account>>('ListAccounts', { query }, opts),
    createAccount: (body: CreateAccountRequest, opts?: CallOptions) => call<Account>('CreateAccount', { body }, opts),
    getAccount: (id: string, opts?: CallOptions) => call<Account>('GetAccount', { path: { id } }, opts),
    updateAccount: (body: UpdateAccountRequest, opts?: CallOptions) => call<Account>('UpdateAccount', { body }, opts),
    addAccountMembers: (body: AddAccountMembersRequest, opts?: CallOptions) => call<Account>('AddAccountMembers', { body }, opts),
    deleteAccountMember: (id: string, opts?: CallOptions) => call<Empty>('DeleteAccountMember', { path: { id } }, opts),
    listTransactions: (query: ListTransactionsQuery = {}, opts?: CallOptions) =>
      call<Page<SettlementTransaction>>('ListTransactions', { query }, opts),
    createTransaction: (body: CreateSettlementTransactionRequest, opts?: CallOptions) =>
      call<SettlementTransaction>('CreateTransaction', { body }, opts),
    getTransaction: (transactionId: string, opts?: CallOptions) =>
      call<SettlementTransaction>('GetTransaction', { path: { transaction_id: transactionId } }, opts),
    cancelTransaction: (transactionId: string, opts?: CallOptions) =>
      call<SettlementTransaction>('CancelTransaction', { path: { transaction_id: transactionId } }, opts),
    affirmTransaction: (transactionId: string, opts?: CallOptions) =>
      call<SettlementTransaction>('AffirmTransaction', { path: { transaction_id: transactionId } }, opts),
    listTaxFormRevisions: (query: ListTaxFormRevisionsQuery, opts?: CallOptions) => call<TaxForms>('ListTaxFormRevisions', { query }, opts),
    listTaxForms: (query: ListTaxFormsQuery, opts?: CallOptions) => call<TaxForms>('ListTaxForms', { query }, opts),
  };
}

export type IdentityApi = ReturnType<typeof identityMethods>;
