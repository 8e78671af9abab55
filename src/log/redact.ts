/**
 * Secret scrubbing shared by the logger and error formatting. Known secret field names are censored
 * at any depth; known secret values (the configured client secret, live tokens) are masked wherever
 * they appear inside strings, including `Authorization: Bearer …` headers.
 */
export const CENSOR = '[REDACTED]';

const SECRET_KEYS = new Set([
  'authorization',
  'client_secret',
  'clientsecret',
  'access_token',
  'accesstoken',
  'refresh_token',
  'password',
  'secret',
  'token',
  'x-api-key',
]);

const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
const SECRET_QUERY = /\b(client_secret|access_token|refresh_token)=([^&\s"']+)/gi;

/** A set of secret values to mask, filled by the components that hold secrets. */
export class SecretSet {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    if (value !== undefined && value.length >= 4) this.values.add(value);
  }

  delete(value: string | undefined): void {
    if (value !== undefined) this.values.delete(value);
  }

  /** Masks every known secret value and bearer token inside `text`. */
  scrub(text: string): string {
    let out = text.replace(BEARER, `$1 ${CENSOR}`).replace(SECRET_QUERY, `$1=${CENSOR}`);
    for (const v of this.values) {
      if (out.includes(v)) out = out.split(v).join(CENSOR);
    }
    return out;
  }
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/** Deep copy of `value` with secret keys censored and secret values masked (cycles cut). */
export function redactDeep(value: unknown, secrets?: SecretSet, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return secrets ? secrets.scrub(value) : value.replace(BEARER, `$1 ${CENSOR}`);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (value instanceof Error) {
    const out: Record<string, unknown> = { type: value.name, message: redactDeep(value.message, secrets, seen) };
    if (value.stack) out.stack = redactDeep(value.stack, secrets, seen);
    for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? CENSOR : redactDeep(v, secrets, seen);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? CENSOR : redactDeep(v, secrets, seen);
  return out;
}
