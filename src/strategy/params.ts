import type { z } from 'zod';
import { FORBIDDEN_KEYS, forbiddenKeyMessage, forbiddenKeyPaths } from '../config/forbidden-keys.js';
import { decimalAsWritten, noteWrittenNumbers, writtenNumbersOf } from '../config/written-decimal.js';
import { InputError } from '../core/index.js';
import type { StrategyDefinition } from './define.js';

/**
 * Parses `k=v,k2=v2` as given on the command line. Values are read as JSON when they parse
 * (numbers, booleans) and as strings otherwise.
 */
export function parseParamString(text: string, field = '--params'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const written: Record<string, string> = {};
  if (text.trim() === '') return out;
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0)
      throw new InputError(field, `expected key=value pairs separated by commas, got ${JSON.stringify(part)} (e.g. fast=10,slow=30)`);
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    // kept as the key's own (a plain assignment of __proto__ would drop it): resolveParams refuses it
    Object.defineProperty(out, key, { value: readValue(raw), enumerable: true, writable: true, configurable: true });
    if (typeof out[key] === 'number') written[key] = raw;
  }
  noteWrittenNumbers(out, written);
  return out;
}

/**
 * Params with each number written where the plugin's schema takes a decimal (text) read as it was
 * written, under the config's rule for money: a plain decimal of up to 15 significant digits
 * (`base_amount: 0.001` gives "0.001"); anything else is a problem naming the key and the fix.
 */
export function decimalsAsWritten(
  definition: StrategyDefinition,
  raw: Record<string, unknown>,
): { readonly params: Record<string, unknown>; readonly problems: ReadonlyArray<{ readonly key: string; readonly message: string }> } {
  const written = writtenNumbersOf(raw);
  if (written === undefined) return { params: raw, problems: [] };
  const shape = definition.params.shape as Record<string, z.ZodType>;
  const params = { ...raw };
  const problems: Array<{ key: string; message: string }> = [];
  for (const [key, text] of Object.entries(written)) {
    // the schema's own field only: `constructor`, `toString` and the like are the object's, not params
    const field = Object.prototype.hasOwnProperty.call(shape, key) ? shape[key] : undefined;
    // a key that takes no number: the text is judged here, then the schema's own rules apply to it
    if (field === undefined || typeof raw[key] !== 'number' || field.safeParse(raw[key]).success || !takesText(field, text)) continue;
    const read = decimalAsWritten(text);
    if ('value' in read) params[key] = read.value;
    else problems.push({ key, message: read.problem });
  }
  return { params, problems };
}

function readValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** True when the key's schema takes text (it may still refuse this text by its own rules). */
function takesText(field: z.ZodType, text: string): boolean {
  const r = field.safeParse(text);
  return r.success || !r.error.issues.some((i) => i.code === 'invalid_type' || i.code === 'invalid_union');
}

/**
 * Validates params for a strategy against its schema, applying defaults. Every problem is reported
 * at once, naming the strategy, the field and what it accepts.
 */
export function resolveParams<P extends z.ZodObject>(
  definition: StrategyDefinition<P>,
  raw: Record<string, unknown> = {},
  source = 'params',
): z.infer<P> {
  const known = Object.keys(definition.params.shape);
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  const asWritten = decimalsAsWritten(definition, raw);
  const result = definition.params.safeParse(asWritten.params);
  const problems = unknown.map((k) =>
    FORBIDDEN_KEYS.has(k)
      ? `${k}: ${forbiddenKeyMessage(k)}`
      : `${k}: unknown parameter of ${definition.name} (known: ${known.join(', ') || 'none'})`,
  );
  // below the top level too (a param that takes a section)
  for (const path of forbiddenKeyPaths(raw).filter((p) => p.length > 1))
    problems.push(`${path.join('.')}: ${forbiddenKeyMessage(String(path[path.length - 1]))}`);
  problems.push(...asWritten.problems.map((p) => `${p.key}: ${p.message}`));
  if (!result.success) {
    for (const issue of result.error.issues)
      if (!asWritten.problems.some((p) => p.key === issue.path[0]))
        problems.push(`${issue.path.join('.') || '(params)'}: ${issue.message}`);
  }
  if (problems.length) throw new InputError(`${source} of strategy ${definition.name}`, problems.join('; '));
  return result.data as z.infer<P>;
}
