import { TradeloopError } from '../core/errors.js';
import type { Config } from './schema.js';

/** The local sandbox's public development credential (never valid anywhere else). */
export const LOCAL_CLIENT_ID = 'tradeloop-local';
export const LOCAL_CLIENT_SECRET = 'tradeloop-local-secret';

export const ENVIRONMENTS = {
  sandbox: { apiUrl: 'https://api.sandbox.paxos.com/v2', tokenUrl: 'https://oauth.sandbox.paxos.com/oauth2/token' },
  production: { apiUrl: 'https://api.paxos.com/v2', tokenUrl: 'https://oauth.paxos.com/oauth2/token' },
} as const;

/** Where to connect and with which credential. `clientSecret` never appears in logs or errors. */
export interface ResolvedEnvironment {
  readonly name: Config['environment'];
  readonly apiUrl: string | undefined;
  readonly tokenUrl: string | undefined;
  readonly clientId: string;
  readonly clientSecret: string;
  /** True when the credential is the local development one (loopback only). */
  readonly localCredential: boolean;
}

export class MissingSecretError extends TradeloopError {
  constructor(names: readonly string[], environment: string) {
    super(
      'SECRET_MISSING',
      `environment ${environment} needs ${names.join(' and ')} in the environment: export them (they are never read from files)`,
    );
  }
}

/**
 * Resolves URLs and credentials for the configured environment. Secrets come only from the process
 * environment (`TRADELOOP_CLIENT_ID`, `TRADELOOP_CLIENT_SECRET`); `local` falls back to the local
 * sandbox's development credential. For `local`, URLs may be undefined until the embedded sandbox
 * has started (the runner fills them in).
 */
export function resolveEnvironment(config: Pick<Config, 'environment' | 'api'>, env: NodeJS.ProcessEnv = process.env): ResolvedEnvironment {
  const id = nonEmpty(env.TRADELOOP_CLIENT_ID);
  const secret = nonEmpty(env.TRADELOOP_CLIENT_SECRET);
  if (config.environment === 'local') {
    const local = id === undefined && secret === undefined;
    return {
      name: 'local',
      apiUrl: config.api.base_url,
      tokenUrl: config.api.token_url,
      clientId: id ?? LOCAL_CLIENT_ID,
      clientSecret: secret ?? LOCAL_CLIENT_SECRET,
      localCredential: local || (id === LOCAL_CLIENT_ID && secret === LOCAL_CLIENT_SECRET),
    };
  }
  const missing = [
    id === undefined ? 'TRADELOOP_CLIENT_ID' : undefined,
    secret === undefined ? 'TRADELOOP_CLIENT_SECRET' : undefined,
  ].filter((v): v is string => v !== undefined);
  if (missing.length) throw new MissingSecretError(missing, config.environment);
  const defaults = ENVIRONMENTS[config.environment];
  return {
    name: config.environment,
    apiUrl: config.api.base_url ?? defaults.apiUrl,
    tokenUrl: config.api.token_url ?? defaults.tokenUrl,
    clientId: id as string,
    clientSecret: secret as string,
    localCredential: id === LOCAL_CLIENT_ID,
  };
}

/** An environment value, or undefined when it is unset, empty or only whitespace. */
export function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
