import { type SimAccountStore } from './accounts.js';
import { SimError } from '../errors.js';
import { type IdentityStore, type SimIdentity, mayTransact, summaryStatus } from './identities.js';
import { type ProfileStore } from '../exchange/profiles.js';

/** Identity and account ids a request names besides its profile (orders, quote executions, transfers). */
export interface ActingAs {
  readonly identityId?: unknown;
  readonly accountId?: unknown;
}

/**
 * The platform's "may transact" rule, applied to trading and transfers: a profile made for an
 * account, an account named in the request, or an identity named in the request must lead to an
 * identity allowed to transact (a person: id and sanctions verification APPROVED; an institution:
 * sanctions APPROVED) and an enabled account. Profiles linked to no identity (the default profile
 * and plain API profiles) are not gated, so flows without identities keep working.
 */
export class TransactGate {
  constructor(
    private readonly profiles: ProfileStore,
    private readonly identities: IdentityStore,
    private readonly accounts: SimAccountStore,
  ) {}

  /** Throws a 403 when the profile's or the named account's/identity's owner may not transact. */
  check(profileIdOrAlias: string, acting: ActingAs = {}): void {
    const profile = this.profiles.get(profileIdOrAlias, true);
    if (profile.accountId !== undefined) this.checkAccount(profile.accountId);
    if (typeof acting.accountId === 'string' && acting.accountId !== '') this.checkAccount(acting.accountId);
    if (typeof acting.identityId === 'string' && acting.identityId !== '') {
      const identity = this.identities.find(acting.identityId);
      if (identity === undefined) throw new SimError('not-found', `identity_id: identity ${acting.identityId} not found`);
      this.checkIdentity(identity);
    }
  }

  private checkAccount(accountId: string): void {
    const account = this.accounts.find(accountId);
    if (account === undefined) throw new SimError('not-found', `account_id: account ${accountId} not found`);
    if (account.userDisabled || account.adminDisabled) {
      throw new SimError(
        'forbidden',
        `account ${account.id} is disabled (${account.userDisabled ? 'by the user' : 'by the platform'}): it may not transact`,
        { account_id: account.id },
      );
    }
    const identity = this.identities.find(account.identityId);
    if (identity !== undefined) this.checkIdentity(identity);
  }

  private checkIdentity(i: SimIdentity): void {
    if (mayTransact(i)) return;
    const needs =
      i.type === 'PERSON'
        ? 'a person needs id_verification_status and sanctions_verification_status APPROVED'
        : 'an institution needs sanctions_verification_status APPROVED';
    const disabled = i.userDisabled || i.adminDisabled ? ' and is disabled' : '';
    throw new SimError(
      'forbidden',
      `identity ${i.id} may not transact${disabled}: ${needs} (id ${i.statuses.id_verification_status}, sanctions ${i.statuses.sanctions_verification_status}; the sandbox sets them with SandboxSetIdentityStatus)`,
      {
        identity_id: i.id,
        summary_status: summaryStatus(i),
        id_verification_status: i.statuses.id_verification_status,
        sanctions_verification_status: i.statuses.sanctions_verification_status,
      },
    );
  }
}
