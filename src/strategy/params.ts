import type { z } from 'zod';
import { InputError } from '../core/index.js';
import type { StrategyDefinition } from './define.js';

/**
 * Parses `k=v,k2=v2` as given on the command line. Values are read as JSON when they parse
 * (numbers, booleans) and as strings otherwise.
 */
export function parseParamString(text: string, field = '--params'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (text.trim() === '') return out;
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new InputError(field, `expected key=value pairs separated by commas, got ${JSON.stringify(part)} (e.g. fast=10,slow=30)`);
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    out[key] = readValue(raw);
  }
  return out;
}

function readValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * Validates params for a strategy against its schema, applying defaults. Every problem is reported
 * at once, naming the strategy, the field and what it accepts.
 */
export function resolveParams<P extends z.ZodObject>(definition: StrategyDefinition<P>, raw: Record<string, unknown> = {}, source = 'params'): z.infer<P> {
  const known = Object.keys(definition.params.shape);
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  const result = definition.params.safeParse(raw);
  const problems = unknown.map((k) => `${k}: unknown parameter of ${definition.name} (known: ${known.join(', ') || 'none'})`);
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(`${issue.path.join('.') || '(params)'}: ${issue.message}`);
  }
  if (problems.length) throw new InputError(`${source} of strategy ${definition.name}`, problems.join('; '));
  return result.data as z.infer<P>;
}
