/**
 * A tour of the platform on the local sandbox, in-process: one person is onboarded (identity,
 * verification, account with its own profile), funded by a wire deposit, trades through a
 * settlement with a counterparty entity, and withdraws to a bank account. Every step prints what
 * the platform answered. Run: `npx tsx examples/platform-tour.ts` (exits 0 when the tour completes).
 */
import { type ApiClient, allScopes, createApiClient } from '../src/api/index.js';
import { TestClock } from '../src/clock/test-clock.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../src/config/environment.js';
import { startSandbox } from '../src/sandbox/index.js';

const ADDRESS = { country: 'USA', address1: '1 Main St', city: 'New York', province: 'NY', zip_code: '10001' };
const WIRE = {
  wire: {
    account_number: '123456789',
    fiat_account_owner_address: ADDRESS,
    routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'First Bank', bank_address: ADDRESS },
  },
};

/** Runs the tour and returns the lines it printed. */
export async function runTour(print: (line: string) => void = (l) => console.log(l)): Promise<string[]> {
  const lines: string[] = [];
  const say = (step: string, detail: unknown): void => {
    const line = `${step.padEnd(34)} ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
    lines.push(line);
    print(line);
  };
  const clock = new TestClock(Date.UTC(2025, 2, 4, 10, 0, 0));
  const sandbox = await startSandbox({
    clock,
    funding: {},
    clients: [
      { clientId: LOCAL_CLIENT_ID, clientSecret: LOCAL_CLIENT_SECRET },
      { clientId: 'desk', clientSecret: 'desk-secret', entity: 'desk' },
    ],
  });
  const client = (id: string, secret: string): ApiClient =>
    createApiClient({ apiUrl: sandbox.apiUrl, tokenUrl: sandbox.tokenUrl, clientId: id, clientSecret: secret, scopes: allScopes() });
  const me = client(LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET);
  const desk = client('desk', 'desk-secret');
  try {
    const person = await me.createIdentity({
      ref_id: 'tour-ada',
      person_details: {
        verifier_type: 'PASSTHROUGH',
        passthrough_verifier_type: 'PERSONA',
        passthrough_verified_at: '2025-03-01T00:00:00Z',
        passthrough_verification_status: 'APPROVED',
        first_name: 'Ada',
        last_name: 'Lovelace',
        cip_id: '123456789',
        cip_id_type: 'SSN',
        cip_id_country: 'USA',
        address: ADDRESS,
      },
    });
    say('1. identity created', { id: person.id, summary_status: person.summary_status });
    await me.sandboxSetIdentityStatus(person.id, { sanctions_verification_status: 'APPROVED' });
    say('2. sanctions screening approved', { summary_status: (await me.getIdentity(person.id)).summary_status });
    const account = await me.createAccount({ account: { identity_id: person.id, description: 'tour' }, create_profile: true });
    const profile = account.profile_id!;
    say('3. account with its own profile', { account: account.id, profile });
    const instructions = await me.createFiatDepositInstructions({ profile_id: profile, fiat_network: 'WIRE', identity_id: person.id });
    await me.initiateSandboxFiatDeposit({
      amount: '5000.00',
      asset: 'USD',
      memo_id: instructions.memo_id!,
      fiat_network_instructions: WIRE,
    });
    say('4. wire deposit by memo', { memo_id: instructions.memo_id, balance: await me.getProfileBalance(profile, 'USD') });
    const deskProfile = (await desk.createProfile({ nickname: 'otc-desk' })).id;
    await desk.createSandboxDeposit(deskProfile, { asset: 'BTC', amount: '1', crypto_network: 'BITCOIN' });
    const end = new Date(clock.now() + 3_600_000).toISOString();
    const trade = await me.createTransaction({
      ref_id: 'tour-trade',
      source_profile_id: profile,
      target_profile_id: deskProfile,
      settlement_window_end: end,
      legs: [
        { direction: 'DELIVER', asset: 'USD', amount: '3000' },
        { direction: 'RECEIVE', asset: 'BTC', amount: '0.05' },
      ],
    });
    say('5. settlement proposed', { id: trade.id, status: trade.status });
    say('6. counterparty affirms', { status: (await desk.affirmTransaction(trade.id)).status });
    const balances = (await me.listProfileBalances(profile)).items
      .filter((b) => b.available !== '0')
      .map((b) => `${b.asset} ${b.available}`);
    say('7. trade settled', { status: (await me.getTransaction(trade.id)).status, balances });
    const bank = await me.createFiatAccount({
      identity_id: person.id,
      fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
      fiat_network_instructions: WIRE,
    });
    say('8. bank account added', { status: bank.status });
    clock.advance(5_000);
    say('9. bank account reviewed', { status: (await me.getFiatAccount(bank.id)).status });
    const withdrawal = await me.createFiatWithdrawal({
      profile_id: profile,
      fiat_account_id: bank.id,
      asset: 'USD',
      amount: '1000.00',
      memo: 'Tour withdrawal',
    });
    say('10. wire withdrawal', { status: withdrawal.status, amount: withdrawal.amount, fee: withdrawal.fee, total: withdrawal.total });
    clock.advance(3_000);
    say('11. withdrawal completed', {
      status: (await me.getTransfer(withdrawal.id)).status,
      usd: (await me.getProfileBalance(profile, 'USD')).available,
    });
    return lines;
  } finally {
    await Promise.all([me.close(), desk.close()]);
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runTour().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
