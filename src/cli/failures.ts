import { ApiError, TimeoutError, TransportError, VenueUnreachableError } from '../api/errors.js';
import { ENVIRONMENTS, type Config } from '../config/index.js';
import { VenueReadError } from '../venue/index.js';

/**
 * Where the client's URLs came from, so a host that cannot be reached is named with the setting
 * that chose it (a flag, a config key and its file, or an environment's built-in URL).
 */
export interface ApiTarget {
  readonly apiUrl: string;
  readonly apiUrlFrom: string;
  readonly tokenUrl: string;
  readonly tokenUrlFrom: string;
}

/** Where a listening port came from, e.g. "local.port in config/default.yaml" or "--port". */
export interface PortSetting {
  readonly from: string;
}

/**
 * The URLs a command will call and the setting behind each: `--base-url`/`--token-url`, else
 * `api.base_url`/`api.token_url` in the config, else the environment's own. Undefined when the
 * embedded local sandbox provides the address (nothing the user set can be wrong there).
 */
export function apiTargetOf(
  config: Pick<Config, 'environment' | 'api'>,
  configLabel: string,
  flags: { readonly baseUrl?: string; readonly tokenUrl?: string } = {},
): ApiTarget | undefined {
  const envDefault = config.environment === 'local' ? undefined : ENVIRONMENTS[config.environment];
  const api =
    flags.baseUrl !== undefined
      ? { url: flags.baseUrl, from: '--base-url' }
      : config.api.base_url !== undefined
        ? { url: config.api.base_url, from: `api.base_url in ${configLabel}` }
        : envDefault && { url: envDefault.apiUrl, from: `environment: ${config.environment} in ${configLabel} (its built-in API URL)` };
  if (api === undefined) return undefined;
  const token =
    flags.tokenUrl !== undefined
      ? { url: flags.tokenUrl, from: '--token-url' }
      : config.api.token_url !== undefined
        ? { url: config.api.token_url, from: `api.token_url in ${configLabel}` }
        : envDefault
          ? { url: envDefault.tokenUrl, from: `environment: ${config.environment} in ${configLabel} (its built-in token URL)` }
          : { url: `${originOf(api.url)}/oauth2/token`, from: `${api.from} (the token URL follows the API URL's host)` };
  return { apiUrl: api.url, apiUrlFrom: api.from, tokenUrl: token.url, tokenUrlFrom: token.from };
}

/** A failure the CLI words itself: the message and the exit code. */
export interface WordedFailure {
  readonly code: number;
  readonly message: string;
}

/**
 * A port already in use (exit 2), or a host refused or unknown (named with the setting that chose
 * it; an unknown host exits 2, a refused connection 1): words the failure, or undefined when it is
 * none of these.
 */
export function wordFailure(e: unknown, target: ApiTarget | undefined, port: PortSetting | undefined): WordedFailure | undefined {
  const inUse = systemError(e, 'EADDRINUSE');
  if (inUse !== undefined) {
    const where =
      inUse.port === undefined ? 'the port' : `port ${String(inUse.port)}${inUse.address ? ` on ${String(inUse.address)}` : ''}`;
    const setting = port?.from ?? '--port, or local.port in the config';
    return {
      code: 2,
      message: `error: ${where} is already in use by another program (another sandbox or run?): stop it, or choose another port with ${setting} (0 picks a free one)`,
    };
  }
  // a read that failed after its retries is worded as the client's last failure (the host, the setting)
  if (e instanceof VenueReadError && e.cause instanceof ApiError) e = e.cause;
  if (!(e instanceof ApiError) || target === undefined) return undefined;
  const token = e.operation === 'OAuthToken';
  const url = token ? target.tokenUrl : target.apiUrl;
  const setting = `the ${token ? 'token' : 'API'} URL ${url} is set by ${token ? target.tokenUrlFrom : target.apiUrlFrom}`;
  const host = hostOf(url);
  if (systemError(e, 'ENOTFOUND') !== undefined || systemError(e, 'EAI_AGAIN') !== undefined) {
    return { code: 2, message: `error: cannot reach ${host}: no such host (ENOTFOUND); ${setting}: correct the host name there` };
  }
  if (systemError(e, 'ECONNREFUSED') !== undefined) {
    return {
      code: 1,
      message: `error: ${host} refused the connection (ECONNREFUSED): nothing listens there; ${setting}: start the server it names, or correct the URL there`,
    };
  }
  if (
    e instanceof VenueUnreachableError ||
    (e instanceof TimeoutError && e.phase === 'connect') ||
    (e instanceof TransportError && !e.sent)
  ) {
    const why =
      e instanceof VenueUnreachableError
        ? 'connections failed again and again'
        : e instanceof TimeoutError
          ? 'no connection in time'
          : 'the connection failed';
    return { code: 1, message: `error: cannot reach ${host}: ${why}; ${setting}: check that it is up and that the URL is right` };
  }
  return undefined;
}

/** The Node system error with this `code` in `e`'s cause chain (EADDRINUSE carries port and address). */
function systemError(e: unknown, code: string): { port?: unknown; address?: unknown } | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 6 && cur !== null && typeof cur === 'object'; depth++) {
    const err = cur as { code?: unknown; port?: unknown; address?: unknown; cause?: unknown; errors?: unknown };
    if (err.code === code) return err;
    // undici's connect errors may wrap several attempts (IPv4 and IPv6) in an AggregateError
    if (Array.isArray(err.errors) && err.errors.some((x) => (x as { code?: unknown } | null)?.code === code))
      return err.errors.find((x) => (x as { code?: unknown }).code === code) as { port?: unknown };
    cur = err.cause;
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
