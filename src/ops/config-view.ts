/**
 * The run's config as `GET /api/config` and the dashboard show it: secrets and tokens never. A value
 * is hidden when its key names a secret (token, secret, password, key, credential, authorization…),
 * and a text is masked wherever it holds one of the run's secret values, a bearer token, a URL's
 * password or a secret in a query string.
 */
import { CENSOR, isSecretKey, type SecretSet } from '../log/index.js';

const SECRET_KEY =
  /secret|token|passw(or)?d|passphrase|api[-_]?key|private[-_]?key|credential|authori[sz]ation|cookie|signature|webhook[-_]?url/i;
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*):[^@\s/]*@/gi;
const QUERY_SECRET = /([?&](?:[a-z_-]*(?:token|secret|key|password|sig|signature)[a-z_-]*))=[^&\s#]*/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/** Whether a key's value is hidden whole. */
export function isSecretName(key: string): boolean {
  return isSecretKey(key) || SECRET_KEY.test(key);
}

/** A deep copy of `value` fit to be shown: secret-named keys hidden, secret values masked. */
export function redactConfig(value: unknown, secrets?: SecretSet): unknown {
  if (typeof value === 'string') {
    const masked = value.replace(BEARER, `$1 ${CENSOR}`).replace(URL_PASSWORD, `$1:${CENSOR}@`).replace(QUERY_SECRET, `$1=${CENSOR}`);
    return secrets ? secrets.scrub(masked) : masked;
  }
  if (Array.isArray(value)) return value.map((v) => redactConfig(v, secrets));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      isSecretName(k) && v !== undefined && v !== null && v !== '' ? CENSOR : redactConfig(v, secrets),
    ]),
  );
}
