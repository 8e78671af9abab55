import { InputError } from '../core/index.js';
import { bindJournalVenue, checkPrefixUnused, checkVenueHoldsJournal, type Journal, type VenueIdentity } from '../exec/index.js';
import type { Venue } from '../venue/index.js';

/**
 * Checks the runner makes before it trades, so a credential can neither do more than the bot needs
 * nor reach the wrong platform: the granted scopes must be exactly the requested (needed) ones,
 * the API and token hosts must belong to the configured environment, and a journal stays bound to
 * the environment it was created for (sandbox ref_ids and orders never mix with production ones).
 */

/** Refuses a token whose scopes are not exactly `needed` (missing ones fail calls, extra ones are risk). */
export function checkGrantedScopes(granted: ReadonlySet<string> | undefined, needed: readonly string[]): void {
  if (granted === undefined) return; // the platform did not say: each call still checks its own scope
  const missing = needed.filter((s) => !granted.has(s));
  const extra = [...granted].filter((s) => !needed.includes(s));
  if (missing.length) {
    throw new InputError(
      'api.scopes',
      `the credential was not granted ${missing.join(', ')}: add them to the credential at the platform (or drop them from api.scopes if the bot does not need them)`,
    );
  }
  if (extra.length) {
    throw new InputError(
      'api.scopes',
      `the credential carries scopes the bot does not need (${extra.join(', ')}): create a credential with only ${needed.join(' ')} — a trading bot's credential should not be able to do more`,
    );
  }
}

const SANDBOX_HOST = /(^|\.)sandbox\./i;

/** Refuses API or token URLs of one platform environment under the other's name (and mixes of both). */
export function checkEnvironmentTargets(environment: string, urls: Readonly<Record<string, string | undefined>>): void {
  if (environment !== 'sandbox' && environment !== 'production') return;
  for (const [field, url] of Object.entries(urls)) {
    if (url === undefined) continue;
    const host = new URL(url).hostname;
    const sandboxHost = SANDBOX_HOST.test(host);
    if (environment === 'production' && sandboxHost) {
      throw new InputError(
        field,
        `${host} is a sandbox host but environment is production: production credentials are never sent to the sandbox (use environment: sandbox, or the production URL)`,
      );
    }
    if (environment === 'sandbox' && !sandboxHost && /(^|\.)paxos\.com$/i.test(host)) {
      throw new InputError(
        field,
        `${host} is a production host but environment is sandbox: sandbox credentials are never sent to production (use environment: production with confirm_production, or the sandbox URL)`,
      );
    }
  }
}

/**
 * Binds a journal to the environment it was created for, and with `venue` to the venue itself (API
 * host, profile, sandbox instance: see `bindJournalVenue`); refuses to reuse it for another.
 */
export function bindJournalEnvironment(journal: Pick<Journal, 'getMeta' | 'setMeta'>, environment: string, venue?: VenueIdentity): void {
  const bound = journal.getMeta('environment');
  if (bound === undefined) journal.setMeta('environment', environment);
  else if (bound !== environment) {
    throw new InputError(
      'journal.path',
      `this journal belongs to environment ${bound}, not ${environment}: give each environment its own journal.path`,
    );
  }
  if (venue) bindJournalVenue(journal, venue);
}

/**
 * What the venue must agree with before a journal trades on it: it still holds the latest records
 * the journal made there (no rollback), and none of the next ids the journal would issue (no other
 * journal with the same prefix has used them). Throws an InputError naming the fix otherwise.
 */
export async function checkJournalAtVenue(journal: Pick<Journal, 'intents'>, venue: Venue, prefix: string): Promise<void> {
  await checkVenueHoldsJournal(journal, venue);
  await checkPrefixUnused(journal, venue, prefix);
}
