import type { Clock } from '../clock/clock.js';
import type { Config } from '../config/schema.js';
import { resolveEnvironment } from '../config/environment.js';
import type { Logger } from '../log/logger.js';
import type { SecretSet } from '../log/redact.js';
import { createApiClient, type ApiClient, type ApiClientOptions } from './client.js';
import { UnsafeTargetError } from './errors.js';
import { budgetStoreFromConfig } from './http/redis-budget-store.js';

export interface FromConfigOverrides extends Partial<ApiClientOptions> {
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly secrets?: SecretSet;
}

/**
 * Builds a client from a validated config and the process environment (secrets only from there).
 * For `local`, the API URL comes from `api.base_url` or `overrides.apiUrl` (the embedded sandbox's
 * address once started) and the token URL defaults to `<origin>/oauth2/token`.
 */
export function createApiClientFromConfig(config: Pick<Config, 'environment' | 'api'>, env: NodeJS.ProcessEnv, overrides: FromConfigOverrides = {}): ApiClient {
  const resolved = resolveEnvironment(config, env);
  const apiUrl = overrides.apiUrl ?? resolved.apiUrl;
  if (apiUrl === undefined) {
    throw new UnsafeTargetError('no API URL: the local environment needs the sandbox address (--base-url http://127.0.0.1:PORT/v2 or api.base_url)');
  }
  const tokenUrl = overrides.tokenUrl ?? resolved.tokenUrl ?? `${new URL(apiUrl).origin}/oauth2/token`;
  return createApiClient({
    clientId: resolved.clientId,
    clientSecret: resolved.clientSecret,
    localCredential: resolved.localCredential,
    scopes: config.api.scopes,
    connectTimeoutMs: config.api.connect_timeout_ms,
    headersTimeoutMs: config.api.headers_timeout_ms,
    bodyTimeoutMs: config.api.body_timeout_ms,
    maxRetries: config.api.max_retries,
    rateLimitPenaltyMs: config.api.rate_limit_penalty_ms,
    breakerFailures: config.api.breaker_failures,
    ...(config.api.rate_limit_store !== undefined && { rateLimitStore: budgetStoreFromConfig(config.api.rate_limit_store, env, resolved.clientId ?? apiUrl) }),
    ...overrides,
    apiUrl,
    tokenUrl,
  });
}
