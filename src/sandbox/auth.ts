import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock } from '../clock/clock.js';
import { PRIMARY_ENTITY } from '../sim/owners.js';
import { problem } from './problem.js';

/** Every scope of the platform's operations that a sandbox credential gets by default. */
export const ALL_SCOPES: readonly string[] = [
  'exchange:read_order',
  'exchange:write_order',
  'exchange:read_quote',
  'exchange:read_quote_execution',
  'exchange:write_quote_execution',
  'exchange:historical_prices',
  'funding:read_profile',
  'funding:write_profile',
  'transfer:read_transfer',
  'transfer:read_transfer_limit',
  'transfer:write_internal_transfer',
  'transfer:write_paxos_transfer',
  'transfer:read_deposit_address',
  'transfer:write_deposit_address',
  'transfer:write_crypto_withdrawal',
  'transfer:read_fiat_account',
  'transfer:write_fiat_account',
  'transfer:read_fiat_deposit_instructions',
  'transfer:write_fiat_deposit_instructions',
  'transfer:write_fiat_withdrawal',
  'transfer:write_sandbox_fiat_deposit',
  'fee:write_crypto_withdrawal_fee',
  'identity:read_identity',
  'identity:write_identity',
  'identity:read_account',
  'identity:write_account',
  'settlement:read_transaction',
  'settlement:write_transaction',
  'conversion:read_conversion_stablecoin',
  'conversion:write_conversion_stablecoin',
  'tax:read_tax_form',
  'transfer:reject_crypto_deposit',
  'transfer:update_crypto_deposit',
  'identity:write_verifier_credentials',
  'events:read_event',
  'transfer:read_crypto_destination_address',
  'transfer:write_crypto_destination_address',
  'statements:read_statement',
  'statements:read_payment',
  'api_creds:read_credentials',
  'api_creds:delete_credentials',
  'orchestration:read_orchestration',
  'orchestration:write_orchestration',
  'orchestration:read_orchestration_rule',
  'orchestration:write_orchestration_rule',
  'rewards:read_monitoring_address',
  'rewards:write_monitoring_address',
  'exchange:write_issuer_quote',
  'exchange:write_issuer_quote_execution',
  'exchange:read_issuer_quote_execution',
];

/** A credential the sandbox accepts, with the scopes it may be granted. */
export interface SandboxClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Scopes this credential is configured with (default: all). */
  readonly scopes?: readonly string[];
  /**
   * The entity (customer) it acts for (default: the primary entity, which owns the default profile).
   * Credentials of different entities own different profiles, identities and accounts: settlements
   * and platform transfers happen between them.
   */
  readonly entity?: string;
}

/** Who is calling: the credential and its entity. */
export interface Caller {
  readonly clientId: string;
  readonly entity: string;
}

export interface TokenGrant {
  readonly accessToken: string;
  readonly expiresInSec: number;
  readonly scope: string;
}

interface TokenRecord {
  readonly clientId: string;
  readonly entity: string;
  readonly scopes: ReadonlySet<string>;
  readonly scopeText: string;
  readonly expiresAt: number;
}

const MAX_LIVE_TOKENS = 10_000;

/**
 * OAuth2 client-credentials tokens on the sim's clock: issued for the requested scopes the
 * credential has (all of them when none are requested), opaque random strings, expiring after
 * `lifetimeSec`. Secrets are compared in constant time and never echoed.
 */
export class TokenIssuer {
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(
    private readonly clients: readonly SandboxClient[],
    private readonly clock: Clock,
    private readonly lifetimeSec: number,
  ) {}

  issue(clientId: string, clientSecret: string, requested: string | undefined): TokenGrant {
    const client = this.clients.find((c) => c.clientId === clientId);
    if (client === undefined || !sameSecret(client.clientSecret, clientSecret))
      throw problem(401, 'invalid client credentials: check client_id and client_secret');
    const configured = client.scopes ?? ALL_SCOPES;
    const wanted = requested === undefined || requested.trim() === '' ? configured : requested.trim().split(/\s+/);
    const granted = wanted.filter((s) => configured.includes(s));
    const accessToken = randomBytes(24).toString('base64url');
    const scopeText = granted.join(' ');
    this.prune();
    this.tokens.set(accessToken, {
      clientId,
      entity: client.entity ?? PRIMARY_ENTITY,
      scopes: new Set(granted),
      scopeText,
      expiresAt: this.clock.now() + this.lifetimeSec * 1000,
    });
    return { accessToken, expiresInSec: this.lifetimeSec, scope: scopeText };
  }

  /** Checks the Authorization header for a live token holding `scope` (401 or 403 problems otherwise); returns the caller. */
  authorize(header: string | undefined, scope: string): Caller {
    if (header === undefined || header === '') throw problem(401, 'no authorization header set');
    const m = /^bearer\s+(\S+)$/i.exec(header);
    if (m === null) throw problem(401, 'authorization header must be "Bearer <access_token>"');
    const record = this.tokens.get(m[1]!);
    if (record === undefined || record.expiresAt <= this.clock.now())
      throw problem(401, 'invalid or expired access token: request a new one from /oauth2/token');
    if (!record.scopes.has(scope)) throw problem(403, `insufficient scopes: found '${record.scopeText}', required one of '[${scope}]'`);
    return { clientId: record.clientId, entity: record.entity };
  }

  /** Invalidates every issued token (a revocation: each holder's next request is a 401). */
  revokeAll(): number {
    const n = this.tokens.size;
    this.tokens.clear();
    return n;
  }

  private prune(): void {
    if (this.tokens.size < MAX_LIVE_TOKENS) return;
    const now = this.clock.now();
    for (const [token, r] of this.tokens) if (r.expiresAt <= now) this.tokens.delete(token);
    if (this.tokens.size >= MAX_LIVE_TOKENS) this.tokens.delete(this.tokens.keys().next().value as string);
  }
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
