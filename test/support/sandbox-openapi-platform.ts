import { type TestSandbox } from './sandbox-fixture.js';
import { type RawResponse, type WireJson } from './sandbox-http.js';
import { COUNTERPARTY, corporation, passthroughPerson, wireAccount } from './sandbox-platform.js';

export { COUNTERPARTY };

/**
 * Calls every operation of identities, accounts, fiat, crypto, platform transfers, settlements,
 * conversions and tax forms once with valid input over raw HTTP, keeping each 200 body by
 * operationId (for the OpenAPI response validation test).
 */
export async function exercisePlatform(sb: TestSandbox, bodies: Map<string, unknown>): Promise<Record<string, string>> {
  const h = sb.http;
  const token = await h.token();
  const theirs = await h.token(undefined, COUNTERPARTY.clientId, COUNTERPARTY.clientSecret);
  const ok = async (op: string, res: Promise<RawResponse>): Promise<WireJson> => {
    const r = await res;
    if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    bodies.set(op, r.body);
    return r.body;
  };
  const person = await ok('CreateIdentity', h.post('/v2/identity/identities', passthroughPerson({}, 'oa-person'), token));
  await ok(
    'SandboxSetIdentityStatus',
    h.put(`/v2/identity/identities/${person.id}/sandbox-status`, { sanctions_verification_status: 'APPROVED' }, token),
  );
  await ok('UpdateIdentity', h.put(`/v2/identity/identities/${person.id}`, { metadata: { k: 'v' } }, token));
  const corp = await h.post('/v2/identity/identities', corporation(), token);
  const members = await ok(
    'AddInstitutionMembers',
    h.post(
      '/v2/identity/institution-members',
      { institution_id: corp.body.id, members: [{ identity_id: person.id, roles: ['BENEFICIAL_OWNER'], ownership: '50' }] },
      token,
    ),
  );
  await ok('GetIdentity', h.get(`/v2/identity/identities/${corp.body.id}?include_details=true&include_institution_members=true`, token));
  await ok('DeleteInstitutionMember', h.del(`/v2/identity/institution-members/${members.members[0].id}`, token));
  await ok('ListIdentities', h.get('/v2/identity/identities?limit=5', token));
  const doc = await ok(
    'DocumentUpload',
    h.put(`/v2/identity/identities/${person.id}/documents`, { name: 'id.pdf', document_types: ['IDENTITY_VERIFICATION'] }, token),
  );
  await fetch(doc.upload_url, { method: 'PUT', body: Buffer.from('%PDF-1.7 tiny') });
  await ok('ListIdentityDocuments', h.get(`/v2/identity/identities/${person.id}/documents?include_pending_docs=true`, token));
  const account = await ok(
    'CreateAccount',
    h.post('/v2/identity/accounts', { account: { identity_id: person.id, ref_id: 'oa-acct' }, create_profile: true }, token),
  );
  await ok('UpdateAccount', h.put('/v2/identity/accounts', { account: { id: account.id, description: 'checked' } }, token));
  const added = await ok(
    'AddAccountMembers',
    h.post(
      '/v2/identity/account-members',
      { account_id: account.id, members: [{ identity_id: person.id, roles: ['AUTHORIZED_USER'] }] },
      token,
    ),
  );
  await ok('DeleteAccountMember', h.del(`/v2/identity/account-members/${added.members[0].id}`, token));
  await ok('GetAccount', h.get(`/v2/identity/accounts/${account.id}`, token));
  await ok('ListAccounts', h.get('/v2/identity/accounts', token));
  const fiat = await ok(
    'CreateFiatAccount',
    h.post(
      '/v2/transfer/fiat-accounts',
      {
        fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
        fiat_network_instructions: wireAccount('123456789'),
      },
      token,
    ),
  );
  const cubix = await h.post(
    '/v2/transfer/fiat-accounts',
    { fiat_account_owner: { institution_details: { name: 'Acme' } }, fiat_network_instructions: { cubix: { account_id: 'cubix-4321' } } },
    token,
  );
  await ok('UpdateFiatAccount', h.put(`/v2/transfer/fiat-accounts/${fiat.id}`, { metadata: { k: 'v' } }, token));
  await ok('ListFiatAccounts', h.get('/v2/transfer/fiat-accounts', token));
  await ok('DeleteFiatAccount', h.del(`/v2/transfer/fiat-accounts/${cubix.body.id}`, token));
  sb.advance(5_000);
  await ok('GetFiatAccount', h.get(`/v2/transfer/fiat-accounts/${fiat.id}`, token));
  const di = await ok(
    'CreateFiatDepositInstructions',
    h.post('/v2/transfer/fiat-deposit-instructions', { profile_id: 'default', fiat_network: 'WIRE', identity_id: person.id }, token),
  );
  await ok('GetFiatDepositInstructions', h.get(`/v2/transfer/fiat-deposit-instructions/${di.id}`, token));
  await ok('ListFiatDepositInstructions', h.get('/v2/transfer/fiat-deposit-instructions', token));
  await ok(
    'InitiateSandboxFiatDeposit',
    h.post(
      '/v2/sandbox/fiat-deposits',
      { amount: '100.00', asset: 'USD', memo_id: di.memo_id, fiat_network_instructions: wireAccount('42') },
      token,
    ),
  );
  await ok(
    'CreateFiatWithdrawal',
    h.post(
      '/v2/transfer/fiat-withdrawals',
      { profile_id: 'default', fiat_account_id: fiat.id, asset: 'USD', amount: '10.00', memo: 'check' },
      token,
    ),
  );
  const addr = await ok(
    'CreateDepositAddress',
    h.post('/v2/transfer/deposit-addresses', { profile_id: 'default', crypto_network: 'ETHEREUM', identity_id: person.id }, token),
  );
  await ok('ListDepositAddresses', h.get('/v2/transfer/deposit-addresses', token));
  await h.post(
    '/v2/sandbox/profiles/default/deposit',
    { asset: 'USDP', amount: '5000', crypto_network: 'ETHEREUM', crypto_address: addr.address },
    token,
  );
  const held = (await h.get('/v2/transfer/transfers?secondary_statuses=TRAVEL_RULE_INFO_REQUESTED', token)).body.items[0];
  await ok(
    'UpdateCryptoDeposit',
    h.post(
      `/v2/transfer/crypto-deposits/${held.id}/update`,
      { identity_id: person.id, originator_address_info: { first_name: 'A', last_name: 'B' } },
      token,
    ),
  );
  await h.post(
    '/v2/sandbox/profiles/default/deposit',
    { asset: 'USDP', amount: '5000', crypto_network: 'ETHEREUM', crypto_address: addr.address },
    token,
  );
  const held2 = (await h.get('/v2/transfer/transfers?secondary_statuses=TRAVEL_RULE_INFO_REQUESTED', token)).body.items[0];
  await ok('RejectCryptoDeposit', h.post(`/v2/transfer/crypto-deposits/${held2.id}/reject`, { identity_id: person.id }, token));
  const fee = await ok(
    'CreateCryptoWithdrawalFee',
    h.post(
      '/v2/transfer/fees/crypto-withdrawal',
      { asset: 'BTC', crypto_network: 'BITCOIN', destination_address: 'bc1qsandbox', amount: '0.1' },
      token,
    ),
  );
  await ok(
    'CreateCryptoWithdrawal',
    h.post(
      '/v2/transfer/crypto-withdrawals',
      { profile_id: 'default', asset: 'BTC', crypto_network: 'BITCOIN', destination_address: 'bc1qsandbox', amount: '0.1', fee_id: fee.id },
      token,
    ),
  );
  const cp = await h.post('/v2/profiles', { nickname: 'oa-cp' }, theirs);
  await ok(
    'CreatePaxosTransfer',
    h.post('/v2/transfer/paxos', { from_profile_id: 'default', to_profile_id: cp.body.id, asset: 'USD', amount: '5' }, token),
  );
  const end = new Date(sb.clock.now() + 600_000).toISOString();
  const tx = await ok(
    'CreateTransaction',
    h.post(
      '/v2/settlement/transactions',
      {
        ref_id: 'oa-tx',
        source_profile_id: 'default',
        target_profile_id: cp.body.id,
        settlement_window_end: end,
        legs: [{ direction: 'DELIVER', asset: 'USD', amount: '1' }],
      },
      token,
    ),
  );
  await ok('AffirmTransaction', h.put(`/v2/settlement/transactions/${tx.id}/affirm`, undefined, theirs));
  const tx2 = await h.post(
    '/v2/settlement/transactions',
    {
      ref_id: 'oa-tx2',
      source_profile_id: 'default',
      target_profile_id: cp.body.id,
      settlement_window_end: end,
      legs: [{ direction: 'RECEIVE', asset: 'BTC', amount: '1' }],
    },
    token,
  );
  await ok('CancelTransaction', h.del(`/v2/settlement/transactions/${tx2.body.id}`, token));
  await ok('GetTransaction', h.get(`/v2/settlement/transactions/${tx.id}`, token));
  await ok('ListTransactions', h.get('/v2/settlement/transactions', token));
  const conv = await ok(
    'CreateStablecoinConversion',
    h.post('/v2/conversion/stablecoins', { profile_id: 'default', amount: '10.00', source_asset: 'USD', target_asset: 'USDP' }, token),
  );
  await ok('GetStablecoinConversion', h.get(`/v2/conversion/stablecoins/${conv.id}`, token));
  await ok('CancelStablecoinConversion', h.del(`/v2/conversion/stablecoins/${conv.id}`, token));
  await ok('ListStablecoinConversions', h.get('/v2/conversion/stablecoins', token));
  await ok('ListTaxFormRevisions', h.get(`/v2/tax/tax-form-revisions?account_id=${account.id}&tax_year=2024`, token));
  await ok('ListTaxForms', h.get(`/v2/tax/tax-forms?account_ids=${account.id}&tax_year=2024`, token));
  return { person: person.id, account: account.id, fiat: fiat.id, held: held.id, transaction: tx.id, conversion: conv.id };
}

/**
 * Calls the operations beyond the platform spec once: events, crypto destination addresses,
 * statements and the lists and records of resources the sandbox does not simulate. 200 bodies go
 * to `bodies`, refusals (403 feature not enabled, 404 unknown id) to `refusals`.
 */
export async function exerciseBeyond(sb: TestSandbox, bodies: Map<string, unknown>, refusals: Map<string, RawResponse>): Promise<void> {
  const h = sb.http;
  const token = await h.token();
  const ok = async (op: string, res: Promise<RawResponse>): Promise<WireJson> => {
    const r = await res;
    if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    bodies.set(op, r.body);
    return r.body;
  };
  const refused = async (op: string, status: number, res: Promise<RawResponse>): Promise<void> => {
    const r = await res;
    if (r.status !== status) throw new Error(`${op}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    refusals.set(op, r);
  };
  const events = await ok('ListEvents', h.get('/v2/events?limit=100', token));
  if (events.events.length === 0) throw new Error('ListEvents: no events after the exercise');
  await ok('GetEvent', h.get(`/v2/events/${events.events[0].id}`, token));
  await ok(
    'PutCryptoDestinationAddress',
    h.put(
      '/v2/transfer/crypto-destination-address',
      { crypto_network: 'ETHEREUM', address: '0xe4B0aCA9FB669817775274775b20e52118595515', nickname: 'cold', bookmarked_status: true },
      token,
    ),
  );
  await ok(
    'ListCryptoDestinationAddresses',
    h.get('/v2/transfer/crypto-destination-addresses?crypto_networks=ETHEREUM&bookmarked_status=true', token),
  );
  await ok('ListStatements', h.get('/v2/statements?statuses=STATEMENT_STATUS_PAID', token));
  await ok('ListPayments', h.get('/v2/statements/payments?product=USDG_REWARDS', token));
  await ok('ListApiCredentials', h.get('/v2/api-creds/credentials', token));
  await ok('ListOrchestrations', h.get('/v2/orchestration/orchestrations', token));
  await ok('ListOrchestrationRules', h.get('/v2/orchestration/rules', token));
  await ok('ListMonitoringAddress', h.get('/v2/rewards/monitor/address', token));
  await ok('ListIssuerQuoteExecutions', h.get('/v2/issuer-quotes?status=COMPLETE', token));
  await refused('DeleteApiCredentials', 403, h.del('/v2/api-creds/credentials/tradeloop-local', token));
  await refused('CreateOrchestration', 403, h.post('/v2/orchestration/orchestrations', { profile_id: 'default' }, token));
  await refused('GetOrchestration', 404, h.get('/v2/orchestration/orchestrations/nope', token));
  await refused('CreateOrchestrationRule', 403, h.post('/v2/orchestration/rules', { profile_id: 'default' }, token));
  await refused('DeleteOrchestrationRule', 404, h.del('/v2/orchestration/rules/nope', token));
  await refused(
    'CreateMonitoringAddress',
    403,
    h.post('/v2/rewards/monitor/address', { address: '0x1', crypto_network: 'ETHEREUM' }, token),
  );
  await refused('GetMonitoringAddress', 404, h.get('/v2/rewards/monitor/address/nope', token));
  await refused('UpdateMonitoringAddress', 404, h.put('/v2/rewards/monitor/address/nope', { nickname: 'n' }, token));
  await refused('CreateIssuerQuote', 403, h.post('/v2/issuer-quote', { profile_id: 'default' }, token));
  await refused('CreateIssuerQuoteExecution', 404, h.post('/v2/issuer-quote/nope', { profile_id: 'default' }, token));
}

/** Calls the trading, market-data and profile operations once with valid input, keeping each 200 body by operationId. */
export async function exerciseTrading(sb: TestSandbox, bodies: Map<string, unknown>): Promise<void> {
  const token = await sb.http.token();
  const ok = async (op: string, res: Promise<RawResponse>): Promise<WireJson> => {
    const r = await res;
    if (r.status !== 200) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    bodies.set(op, r.body);
    return r.body;
  };
  const h = sb.http;
  await ok('ListMarkets', h.get('/v2/markets'));
  await ok('GetOrderBook', h.get('/v2/markets/BTCUSD/order-book'));
  await ok('GetTicker', h.get('/v2/markets/BTCUSD/ticker'));
  await ok('ListTickers', h.get('/v2/all-markets/ticker'));
  await ok('ListPrices', h.get('/v2/all-markets/prices?markets=BTCUSD&markets=ETHUSD'));
  await ok(
    'ListHistoricalPrices',
    h.get('/v2/markets/ETHUSD/historical-prices?increment=ONE_HOUR&range.begin=2025-03-01T00:00:00Z&range.end=2025-03-02T00:00:00Z', token),
  );
  const profile = await ok('CreateProfile', h.post('/v2/profiles', { nickname: 'schema-bot', description: 'checks' }, token));
  await ok('UpdateProfile', h.put(`/v2/profiles/${profile.id}`, { nickname: 'schema-bot-2' }, token));
  await ok('GetProfile', h.get(`/v2/profiles/${profile.id}`, token));
  await ok('ListProfiles', h.get('/v2/profiles', token));
  await ok('CreateSandboxDeposit', h.post('/v2/sandbox/profiles/default/deposit', { asset: 'BTC', amount: '1' }, token));
  await ok('ListProfileBalances', h.get('/v2/profiles/default/balances', token));
  await ok('GetProfileBalance', h.get('/v2/profiles/default/balances/BTC', token));
  await ok('DeactivateProfile', h.put(`/v2/profiles/${profile.id}/deactivate`, undefined, token));
  await ok(
    'CreateOrder',
    h.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '500', ref_id: 's-1', metadata: { k: 'v' } },
      token,
    ),
  );
  const resting = await h.post(
    '/v2/profiles/default/orders',
    {
      side: 'SELL',
      market: 'BTCUSD',
      type: 'STOP_LIMIT',
      base_amount: '0.1',
      stop_price: '50000',
      price: '49900',
      time_in_force: 'GTT',
      expiration_date: String(sb.clock.now() + 3_600_000),
    },
    token,
  );
  await ok('GetOrder', h.get(`/v2/profiles/default/orders/${resting.body.id}`, token));
  await ok('CancelOrder', h.del(`/v2/profiles/default/orders/${resting.body.id}`, token));
  await ok('ListOrders', h.get('/v2/orders?limit=5', token));
  await ok('ListProfileOrders', h.get('/v2/profiles/default/orders', token));
  await ok('ListExecutions', h.get('/v2/executions', token));
  await ok('ListProfileExecutions', h.get('/v2/profiles/default/executions', token));
  await ok('ListRecentExecutions', h.get('/v2/markets/BTCUSD/recent-executions'));
  const quotes = await ok('ListQuotes', h.get('/v2/quotes?markets=BTCUSD&markets=ETHEUR', token));
  const qe = await ok(
    'CreateQuoteExecution',
    h.post(
      '/v2/profiles/default/quote-executions',
      { quote_id: quotes.items[0].id, quote_amount: '100.00', ref_id: 'qe-s1', metadata: { user: 'u' } },
      token,
    ),
  );
  sb.advance(1000);
  await ok('GetQuoteExecution', h.get(`/v2/profiles/default/quote-executions/${qe.id}`, token));
  await ok('ListQuoteExecutions', h.get('/v2/profiles/default/quote-executions?status=SETTLED', token));
  const bot = await h.post('/v2/profiles', { nickname: 'schema-transfers' }, token);
  const debit = await ok(
    'CreateInternalTransfer',
    h.post(
      '/v2/transfer/internal',
      {
        from_profile_id: 'default',
        to_profile_id: bot.body.id,
        asset: 'USD',
        amount: '25',
        ref_id: 'it-s1',
        recipient_metadata: { from: 'default' },
      },
      token,
    ),
  );
  await ok('GetTransfer', h.get(`/v2/transfer/transfers/${debit.id}`, token));
  await ok('ListTransfers', h.get('/v2/transfer/transfers?limit=3', token));
  await ok('ListTransferLimits', h.get('/v2/transfer/limits/utilizations?transfer_type=INTERNAL_TRANSFER_DEBIT', token));
}
