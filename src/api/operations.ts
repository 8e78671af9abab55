import { A, B, S, cmp, cursor, lookupBy, op, ordering, range, required, resendRefId, type OperationSpec } from './operation-spec.js';

/**
 * Every platform operation the client speaks, as data: the 64 operations the platform spec names
 * (62 in the current API and RetryIdVerification / SetVerifierCredentials from the older one), the
 * ten a bot needs (GetOrder, CancelOrder, ListProfileOrders, ListProfileExecutions, GetIdentity,
 * GetAccount, GetProfileBalance, ListMarkets, DeleteAccountMember, DeleteInstitutionMember) and the
 * 22 other operations of the public OpenAPI file (events, destination addresses, DeleteFiatAccount,
 * statements, API credentials, orchestrations, monitoring addresses, issuer quotes): 96 in all.
 * Paths are relative to the base URL ending in `/v2`; query names are the wire names verbatim.
 */

const TRANSFER_FILTERS = {
  profile_ids: A, identity_ids: A, ref_ids: A, account_ids: A, ids: A, type: A, group_ids: A,
  crypto_tx_hashes: A, statuses: A, secondary_statuses: A,
};

const transfers: OperationSpec[] = [
  op('ListTransfers', 'transfers', 'GET', '/transfer/transfers', {
    scope: 'transfer:read_transfer', paging: 'cursor',
    query: { ...TRANSFER_FILTERS, ...cmp('created_at'), ...cmp('updated_at'), ...cursor(), ...ordering() },
  }),
  op('GetTransfer', 'transfers', 'GET', '/transfer/transfers/{id}', { scope: 'transfer:read_transfer' }),
  op('ListTransferLimits', 'transfers', 'GET', '/transfer/limits/utilizations', {
    scope: 'transfer:read_transfer_limit', query: { transfer_type: required(S) }, response: 'items',
  }),
  op('CreateInternalTransfer', 'transfers', 'POST', '/transfer/internal', {
    scope: 'transfer:write_internal_transfer',
    refId: lookupBy('ListTransfers', 'ref_ids', { match: { type: 'INTERNAL_TRANSFER_DEBIT' } }),
  }),
  op('CreatePaxosTransfer', 'transfers', 'POST', '/transfer/paxos', {
    scope: 'transfer:write_paxos_transfer',
    refId: lookupBy('ListTransfers', 'ref_ids', { match: { type: 'PAXOS_TRANSFER_DEBIT' } }),
  }),
];

const fiat: OperationSpec[] = [
  op('ListFiatAccounts', 'fiat', 'GET', '/transfer/fiat-accounts', {
    scope: 'transfer:read_fiat_account', paging: 'cursor',
    query: { ids: A, ref_ids: A, ...cmp('created_at'), ...cursor(), ...ordering(), include_deleted: B },
  }),
  op('CreateFiatAccount', 'fiat', 'POST', '/transfer/fiat-accounts', {
    scope: 'transfer:write_fiat_account', refId: lookupBy('ListFiatAccounts', 'ref_ids'),
  }),
  op('GetFiatAccount', 'fiat', 'GET', '/transfer/fiat-accounts/{id}', { scope: 'transfer:read_fiat_account', query: { include_deleted: B } }),
  op('UpdateFiatAccount', 'fiat', 'PUT', '/transfer/fiat-accounts/{id}', { scope: 'transfer:write_fiat_account' }),
  op('DeleteFiatAccount', 'fiat', 'DELETE', '/transfer/fiat-accounts/{id}', { scope: 'transfer:write_fiat_account', response: 'empty' }),
  op('ListFiatDepositInstructions', 'fiat', 'GET', '/transfer/fiat-deposit-instructions', {
    scope: 'transfer:read_fiat_deposit_instructions', paging: 'cursor',
    query: { ids: A, ref_ids: A, ...cmp('created_at'), ...cursor(), ...ordering(false) },
  }),
  op('CreateFiatDepositInstructions', 'fiat', 'POST', '/transfer/fiat-deposit-instructions', {
    scope: 'transfer:write_fiat_deposit_instructions', refId: lookupBy('ListFiatDepositInstructions', 'ref_ids'),
  }),
  op('GetFiatDepositInstructions', 'fiat', 'GET', '/transfer/fiat-deposit-instructions/{id}', { scope: 'transfer:read_fiat_deposit_instructions' }),
  op('CreateFiatWithdrawal', 'fiat', 'POST', '/transfer/fiat-withdrawals', {
    scope: 'transfer:write_fiat_withdrawal', refId: lookupBy('ListTransfers', 'ref_ids'),
  }),
];

const crypto: OperationSpec[] = [
  op('ListDepositAddresses', 'crypto', 'GET', '/transfer/deposit-addresses', {
    scope: 'transfer:read_deposit_address', paging: 'cursor',
    query: { profile_ids: A, identity_ids: A, ids: A, ref_ids: A, account_ids: A, ...cmp('created_at'), ...cursor(), ...ordering() },
  }),
  op('CreateDepositAddress', 'crypto', 'POST', '/transfer/deposit-addresses', {
    scope: 'transfer:write_deposit_address', refId: lookupBy('ListDepositAddresses', 'ref_ids'),
  }),
  op('RejectCryptoDeposit', 'crypto', 'POST', '/transfer/crypto-deposits/{id}/reject', { scope: 'transfer:reject_crypto_deposit' }),
  op('UpdateCryptoDeposit', 'crypto', 'POST', '/transfer/crypto-deposits/{id}/update', { scope: 'transfer:update_crypto_deposit' }),
  op('CreateCryptoWithdrawal', 'crypto', 'POST', '/transfer/crypto-withdrawals', {
    scope: 'transfer:write_crypto_withdrawal', refId: lookupBy('ListTransfers', 'ref_ids'),
  }),
  op('CreateCryptoWithdrawalFee', 'crypto', 'POST', '/transfer/fees/crypto-withdrawal', { scope: 'fee:write_crypto_withdrawal_fee' }),
  op('ListCryptoDestinationAddresses', 'crypto', 'GET', '/transfer/crypto-destination-addresses', {
    scope: 'transfer:read_crypto_destination_address',
    query: { ids: A, crypto_networks: A, addresses: A, nicknames: A, bookmarked_status: B, ...cmp('created_at'), ...cursor(), ...ordering() },
  }),
  op('PutCryptoDestinationAddress', 'crypto', 'PUT', '/transfer/crypto-destination-address', { scope: 'transfer:write_crypto_destination_address' }),
];

const identity: OperationSpec[] = [
  op('ListIdentities', 'identity', 'GET', '/identity/identities', {
    scope: 'identity:read_identity', paging: 'cursor',
    query: { summary_status: S, identity_type: S, ...cmp('created_at'), ...cmp('updated_at'), ...cursor(), ...ordering() },
  }),
  op('CreateIdentity', 'identity', 'POST', '/identity/identities', { scope: 'identity:write_identity', refId: resendRefId() }),
  op('GetIdentity', 'identity', 'GET', '/identity/identities/{id}', {
    scope: 'identity:read_identity', query: { include_details: B, include_institution_members: B },
  }),
  op('UpdateIdentity', 'identity', 'PUT', '/identity/identities/{id}', { scope: 'identity:write_identity' }),
  op('RetryIdVerification', 'identity', 'POST', '/identity/identities/{id}/retry-id-verification', {
    scope: 'identity:write_identity', body: 'optional', legacy: true,
  }),
  op('SetVerifierCredentials', 'identity', 'POST', '/identity/verifier-credentials', {
    scope: 'identity:write_verifier_credentials', legacy: true,
  }),
  op('AddInstitutionMembers', 'identity', 'POST', '/identity/institution-members', { scope: 'identity:write_identity' }),
  op('DeleteInstitutionMember', 'identity', 'DELETE', '/identity/institution-members/{id}', { scope: 'identity:write_identity' }),
  op('DocumentUpload', 'identity', 'PUT', '/identity/identities/{identity_id}/documents', { scope: 'identity:write_identity' }),
  op('ListIdentityDocuments', 'identity', 'GET', '/identity/identities/{identity_id}/documents', {
    scope: 'identity:read_identity', query: { include_pending_docs: B },
  }),
];

const accounts: OperationSpec[] = [
  op('ListAccounts', 'accounts', 'GET', '/identity/accounts', {
    scope: 'identity:read_account', paging: 'cursor',
    query: { identity_id: S, ...cmp('created_at'), ...cmp('updated_at'), ...cursor(), ...ordering() },
  }),
  op('CreateAccount', 'accounts', 'POST', '/identity/accounts', { scope: 'identity:write_account', refId: resendRefId('account.ref_id') }),
  op('GetAccount', 'accounts', 'GET', '/identity/accounts/{id}', { scope: 'identity:read_account' }),
  op('UpdateAccount', 'accounts', 'PUT', '/identity/accounts', { scope: 'identity:write_account' }),
  op('AddAccountMembers', 'accounts', 'POST', '/identity/account-members', { scope: 'identity:write_account' }),
  op('DeleteAccountMember', 'accounts', 'DELETE', '/identity/account-members/{id}', { scope: 'identity:write_account' }),
];

const profiles: OperationSpec[] = [
  op('ListProfiles', 'profiles', 'GET', '/profiles', {
    scope: 'funding:read_profile', paging: 'cursor',
    query: { nickname: S, ids: A, ...cmp('created_at'), ...cursor(), ...ordering() },
  }),
  op('CreateProfile', 'profiles', 'POST', '/profiles', { scope: 'funding:write_profile' }),
  op('GetProfile', 'profiles', 'GET', '/profiles/{profile_id}', { scope: 'funding:read_profile', query: { include_deactivated: B } }),
  op('UpdateProfile', 'profiles', 'PUT', '/profiles/{profile_id}', { scope: 'funding:write_profile' }),
  op('DeactivateProfile', 'profiles', 'PUT', '/profiles/{profile_id}/deactivate', { scope: 'funding:write_profile', body: 'none' }),
  op('ListProfileBalances', 'profiles', 'GET', '/profiles/{profile_id}/balances', {
    scope: 'funding:read_profile', query: { assets: A }, response: 'items',
  }),
  op('GetProfileBalance', 'profiles', 'GET', '/profiles/{profile_id}/balances/{asset}', { scope: 'funding:read_profile' }),
];

const sandbox: OperationSpec[] = [
  op('CreateSandboxDeposit', 'sandbox', 'POST', '/sandbox/profiles/{profile_id}/deposit', { scope: 'funding:read_profile', sandboxOnly: true }),
  op('SandboxSetIdentityStatus', 'sandbox', 'PUT', '/identity/identities/{id}/sandbox-status', { scope: 'identity:write_identity', sandboxOnly: true }),
  op('InitiateSandboxFiatDeposit', 'sandbox', 'POST', '/sandbox/fiat-deposits', { scope: 'transfer:write_sandbox_fiat_deposit', sandboxOnly: true }),
];

const settlements: OperationSpec[] = [
  op('ListTransactions', 'settlements', 'GET', '/settlement/transactions', {
    scope: 'settlement:read_transaction', paging: 'cursor',
    query: { statuses: A, source_profile_id: S, target_profile_id: S, ...cursor() },
  }),
  op('CreateTransaction', 'settlements', 'POST', '/settlement/transactions', { scope: 'settlement:write_transaction', refId: resendRefId() }),
  op('GetTransaction', 'settlements', 'GET', '/settlement/transactions/{transaction_id}', { scope: 'settlement:read_transaction' }),
  op('CancelTransaction', 'settlements', 'DELETE', '/settlement/transactions/{transaction_id}', { scope: 'settlement:write_transaction' }),
  op('AffirmTransaction', 'settlements', 'PUT', '/settlement/transactions/{transaction_id}/affirm', { scope: 'settlement:write_transaction', body: 'none' }),
];

const conversions: OperationSpec[] = [
  op('ListStablecoinConversions', 'conversions', 'GET', '/conversion/stablecoins', {
    scope: 'conversion:read_conversion_stablecoin', paging: 'cursor',
    query: { profile_id: S, ref_id: S, ...range('created_at'), ...range('updated_at'), ...cursor(), ...ordering(false) },
  }),
  op('CreateStablecoinConversion', 'conversions', 'POST', '/conversion/stablecoins', {
    scope: 'conversion:write_conversion_stablecoin', refId: lookupBy('ListStablecoinConversions', 'ref_id'),
  }),
  op('GetStablecoinConversion', 'conversions', 'GET', '/conversion/stablecoins/{id}', { scope: 'conversion:read_conversion_stablecoin' }),
  op('CancelStablecoinConversion', 'conversions', 'DELETE', '/conversion/stablecoins/{id}', { scope: 'conversion:write_conversion_stablecoin' }),
];

const tax: OperationSpec[] = [
  op('ListTaxFormRevisions', 'tax', 'GET', '/tax/tax-form-revisions', {
    scope: 'tax:read_tax_form', query: { account_id: required(S), tax_year: required(S), form_types: A, revision: S },
  }),
  op('ListTaxForms', 'tax', 'GET', '/tax/tax-forms', {
    scope: 'tax:read_tax_form', query: { account_ids: { kind: 'array', maxItems: 50, required: true }, tax_year: required(S), form_types: A },
  }),
];

const ORDER_FILTERS = { market: S, status: S, ...range('order_time'), ref_ids: A, ...cursor() };
const EXECUTION_FILTERS = { order_id: S, since_execution_id: S, ...range('range') };

const orders: OperationSpec[] = [
  op('CreateOrder', 'orders', 'POST', '/profiles/{profile_id}/orders', {
    scope: 'exchange:write_order', priority: 'high',
    refId: lookupBy('ListOrders', 'ref_ids', { scopeBy: { profile_id: 'profile_id' } }),
  }),
  op('GetOrder', 'orders', 'GET', '/profiles/{profile_id}/orders/{id}', { scope: 'exchange:read_order', priority: 'high' }),
  op('CancelOrder', 'orders', 'DELETE', '/profiles/{profile_id}/orders/{id}', { scope: 'exchange:write_order', priority: 'high', response: 'empty' }),
  op('ListOrders', 'orders', 'GET', '/orders', {
    scope: 'exchange:read_order', paging: 'cursor', query: { profile_id: S, account_id: S, ...ORDER_FILTERS },
  }),
  op('ListProfileOrders', 'orders', 'GET', '/profiles/{profile_id}/orders', { scope: 'exchange:read_order', paging: 'cursor', query: ORDER_FILTERS }),
  op('ListExecutions', 'orders', 'GET', '/executions', {
    scope: 'exchange:read_order', paging: 'cursor', query: { profile_id: S, account_id: S, ...EXECUTION_FILTERS, ...cursor() },
  }),
  op('ListProfileExecutions', 'orders', 'GET', '/profiles/{profile_id}/executions', {
    scope: 'exchange:read_order', paging: 'cursor', query: { ...EXECUTION_FILTERS, ...cursor(500) },
  }),
];

const quotes: OperationSpec[] = [
  op('ListQuotes', 'quotes', 'GET', '/quotes', { scope: 'exchange:read_quote', query: { markets: required(A) }, response: 'items' }),
  op('CreateQuoteExecution', 'quotes', 'POST', '/profiles/{profile_id}/quote-executions', {
    scope: 'exchange:write_quote_execution', priority: 'high', refId: resendRefId(),
  }),
  op('ListQuoteExecutions', 'quotes', 'GET', '/profiles/{profile_id}/quote-executions', {
    scope: 'exchange:read_quote_execution', paging: 'cursor',
    query: { side: S, market: S, status: S, ...range('created_at'), ...cursor(), ...ordering() },
  }),
  op('GetQuoteExecution', 'quotes', 'GET', '/profiles/{profile_id}/quote-executions/{id}', { scope: 'exchange:read_quote_execution', priority: 'high' }),
];

const marketData: OperationSpec[] = [
  op('GetOrderBook', 'market-data', 'GET', '/markets/{market}/order-book', { priority: 'low' }),
  op('ListRecentExecutions', 'market-data', 'GET', '/markets/{market}/recent-executions', { priority: 'low', response: 'items' }),
  op('GetTicker', 'market-data', 'GET', '/markets/{market}/ticker', { priority: 'low' }),
  op('ListMarkets', 'market-data', 'GET', '/markets', { priority: 'low' }),
  op('ListTickers', 'market-data', 'GET', '/all-markets/ticker', { priority: 'low', response: 'tickers' }),
  op('ListPrices', 'market-data', 'GET', '/all-markets/prices', { priority: 'low', query: { markets: required(A) }, response: 'prices' }),
  op('ListHistoricalPrices', 'market-data', 'GET', '/markets/{market}/historical-prices', {
    scope: 'exchange:historical_prices', priority: 'low', paging: 'offset', response: 'historical-prices',
    query: {
      increment: S, max_data_points: { kind: 'int', min: 1 }, ...range('range'),
      'pagination.limit': { kind: 'int', min: 1, max: 1000 }, 'pagination.offset': { kind: 'int', min: 0 },
    },
  }),
];

/**
 * Operations of the public API beyond the platform spec: the event feed, statements and payments,
 * API credentials, orchestrations and their rules, rewards monitoring addresses and issuer quotes.
 * Their lists name their items after the resource (`events`, `statements` …), so they are read as
 * plain objects.
 */
const LIST = { ...cursor(), order: S };
const beyond: OperationSpec[] = [
  op('ListEvents', 'events', 'GET', '/events', { scope: 'events:read_event', query: { ...cmp('created_at'), limit: { kind: 'int', min: 1, max: 100 }, type: S, is_test: B } }),
  op('GetEvent', 'events', 'GET', '/events/{id}', { scope: 'events:read_event', query: { is_test: B } }),
  op('ListStatements', 'statements', 'GET', '/statements', { scope: 'statements:read_statement', query: { customer_id: S, ref_ids: A, statement_ids: A, statuses: A, ...LIST } }),
  op('ListPayments', 'statements', 'GET', '/statements/payments', {
    scope: 'statements:read_payment', query: { ref_ids: A, payment_ids: A, customer_id: S, product: S, payment_status: S, ...LIST },
  }),
  op('ListApiCredentials', 'api-credentials', 'GET', '/api-creds/credentials', {
    scope: 'api_creds:read_credentials', query: { ...LIST, order_by: S, statuses: A, ids: A, client_ids: A },
  }),
  op('DeleteApiCredentials', 'api-credentials', 'DELETE', '/api-creds/credentials/{client_id}', { scope: 'api_creds:delete_credentials' }),
  op('ListOrchestrations', 'orchestrations', 'GET', '/orchestration/orchestrations', {
    scope: 'orchestration:read_orchestration',
    query: { orchestration_rule_id: A, source_asset: A, destination_asset: A, status: A, ...cmp('created_at'), ...LIST, orchestration_id: A, profile_id: A },
  }),
  op('CreateOrchestration', 'orchestrations', 'POST', '/orchestration/orchestrations', { scope: 'orchestration:write_orchestration' }),
  op('GetOrchestration', 'orchestrations', 'GET', '/orchestration/orchestrations/{id}', { scope: 'orchestration:read_orchestration' }),
  op('ListOrchestrationRules', 'orchestrations', 'GET', '/orchestration/rules', {
    scope: 'orchestration:read_orchestration_rule', query: { profile_id: S, status: A, source_asset: S, destination_asset: S, ids: A, ...LIST },
  }),
  op('CreateOrchestrationRule', 'orchestrations', 'POST', '/orchestration/rules', { scope: 'orchestration:write_orchestration_rule' }),
  op('DeleteOrchestrationRule', 'orchestrations', 'DELETE', '/orchestration/rules/{id}', { scope: 'orchestration:write_orchestration_rule' }),
  op('ListMonitoringAddress', 'rewards', 'GET', '/rewards/monitor/address', { scope: 'rewards:read_monitoring_address', query: { address: S, crypto_network: S, ...LIST } }),
  op('CreateMonitoringAddress', 'rewards', 'POST', '/rewards/monitor/address', { scope: 'rewards:write_monitoring_address' }),
  op('GetMonitoringAddress', 'rewards', 'GET', '/rewards/monitor/address/{id}', { scope: 'rewards:read_monitoring_address' }),
  op('UpdateMonitoringAddress', 'rewards', 'PUT', '/rewards/monitor/address/{id}', { scope: 'rewards:write_monitoring_address' }),
  op('ListIssuerQuoteExecutions', 'issuer-quotes', 'GET', '/issuer-quotes', {
    scope: 'exchange:read_issuer_quote_execution', query: { profile_id: S, status: A, ...range('created_range'), ...LIST },
  }),
  op('CreateIssuerQuote', 'issuer-quotes', 'POST', '/issuer-quote', { scope: 'exchange:write_issuer_quote' }),
  op('CreateIssuerQuoteExecution', 'issuer-quotes', 'POST', '/issuer-quote/{quote_id}', { scope: 'exchange:write_issuer_quote_execution' }),
];

/** The whole table, in the order of the platform spec's areas, then the operations beyond it. */
export const OPERATIONS: readonly OperationSpec[] = Object.freeze([
  ...transfers, ...fiat, ...crypto, ...identity, ...accounts, ...profiles, ...sandbox, ...settlements,
  ...conversions, ...tax, ...orders, ...quotes, ...marketData, ...beyond,
]);

/** The operation with this id, or undefined. */
export function findOperation(id: string): OperationSpec | undefined {
  return OPERATIONS.find((o) => o.id === id);
}

/** Every scope some operation needs (request these for a credential that may call anything). */
export function allScopes(): string[] {
  return [...new Set(OPERATIONS.map((o) => o.scope).filter((s): s is string => s !== undefined))];
}
