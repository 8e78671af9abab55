import { type Route, type RouteContext } from '../router.js';
import { wireTransfer } from '../wire.js';
import { wireDepositAddress, wireDestinationAddress, wireWithdrawalFee } from '../wire-platform.js';
import { listPage, matches, timeBounds } from './list-helpers.js';

function listDepositAddresses(ctx: RouteContext): unknown {
  const q = ctx.query;
  const f = {
    profiles: q.array('profile_ids'),
    identities: q.array('identity_ids'),
    ids: q.array('ids'),
    refs: q.array('ref_ids'),
    accounts: q.array('account_ids'),
    networks: q.array('crypto_networks'),
  };
  const all = ctx.sim.platform.crypto
    .listAddresses(ctx.owner)
    .filter(
      (a) =>
        matches(f.profiles, a.profileId) &&
        matches(f.identities, a.identityId) &&
        matches(f.ids, a.id) &&
        matches(f.refs, a.refId) &&
        matches(f.accounts, a.accountId) &&
        matches(f.networks, a.cryptoNetwork),
    );
  const page = listPage(q, all, { created: timeBounds(q, 'created_at') });
  return { items: page.items.map((a) => wireDepositAddress(ctx.sim, a)), next_page_cursor: page.next_page_cursor };
}

/** ListCryptoDestinationAddresses: the entity's address book with every filter of the operation, ANDed. */
function listDestinations(ctx: RouteContext): unknown {
  const q = ctx.query;
  const f = { ids: q.array('ids'), networks: q.array('crypto_networks'), addresses: q.array('addresses'), nicknames: q.array('nicknames') };
  const bookmarked = q.string('bookmarked_status') === undefined ? undefined : q.bool('bookmarked_status');
  const all = ctx.sim.platform.destinations
    .list(ctx.owner)
    .filter(
      (a) =>
        matches(f.ids, a.id) &&
        matches(f.networks, a.cryptoNetwork) &&
        matches(f.addresses, a.address) &&
        matches(f.nicknames, a.nickname) &&
        (bookmarked === undefined || a.bookmarked === bookmarked),
    );
  const page = listPage(q, all, { created: timeBounds(q, 'created_at') });
  return { addresses: page.items.map(wireDestinationAddress), next_page_cursor: page.next_page_cursor };
}

/** Deposit addresses, crypto deposits needing information, guaranteed fees and crypto withdrawals. */
export const CRYPTO_ROUTES: readonly Route[] = [
  {
    operation: 'ListDepositAddresses',
    method: 'GET',
    path: '/v2/transfer/deposit-addresses',
    scope: 'transfer:read_deposit_address',
    handler: listDepositAddresses,
  },
  {
    operation: 'CreateDepositAddress',
    method: 'POST',
    path: '/v2/transfer/deposit-addresses',
    scope: 'transfer:write_deposit_address',
    handler: async (ctx) => wireDepositAddress(ctx.sim, ctx.sim.platform.crypto.createAddress(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'RejectCryptoDeposit',
    method: 'POST',
    path: '/v2/transfer/crypto-deposits/:id/reject',
    scope: 'transfer:reject_crypto_deposit',
    handler: async (ctx) => {
      ctx.sim.platform.crypto.rejectDeposit(ctx.params.id ?? '', await ctx.body(), ctx.owner, ctx.sim.now());
      return {};
    },
  },
  {
    operation: 'UpdateCryptoDeposit',
    method: 'POST',
    path: '/v2/transfer/crypto-deposits/:id/update',
    scope: 'transfer:update_crypto_deposit',
    handler: async (ctx) => {
      ctx.sim.platform.crypto.updateDeposit(ctx.params.id ?? '', await ctx.body(), ctx.owner, ctx.sim.now());
      return {};
    },
  },
  {
    operation: 'CreateCryptoWithdrawalFee',
    method: 'POST',
    path: '/v2/transfer/fees/crypto-withdrawal',
    scope: 'fee:write_crypto_withdrawal_fee',
    handler: async (ctx) => wireWithdrawalFee(ctx.sim.platform.crypto.createFee(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'CreateCryptoWithdrawal',
    method: 'POST',
    path: '/v2/transfer/crypto-withdrawals',
    scope: 'transfer:write_crypto_withdrawal',
    handler: async (ctx) => wireTransfer(ctx.sim.platform.crypto.withdraw(await ctx.body(), ctx.owner, ctx.sim.now())),
  },
  {
    operation: 'ListCryptoDestinationAddresses',
    method: 'GET',
    path: '/v2/transfer/crypto-destination-addresses',
    scope: 'transfer:read_crypto_destination_address',
    handler: listDestinations,
  },
  {
    operation: 'PutCryptoDestinationAddress',
    method: 'PUT',
    path: '/v2/transfer/crypto-destination-address',
    scope: 'transfer:write_crypto_destination_address',
    handler: async (ctx) => ({
      address: wireDestinationAddress(ctx.sim.platform.destinations.put(await ctx.body(), ctx.owner, ctx.sim.now())),
    }),
  },
];
