import type { z } from 'zod';

/**
 * Config problems in the project's own words: the field, what is wrong with the value given, and
 * what to write instead. Schema fields with their own message keep it (zod gives a field's own
 * message precedence over this map); everything else is worded here, so a user never reads a raw
 * validator message such as "Invalid input: expected string, received number".
 */
export function configIssueMessage(issue: z.core.$ZodRawIssue): string {
  const got = shown(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      return wrongType(issue.expected, issue.input);
    case 'too_small':
      return tooSmall(issue as z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>, got);
    case 'too_big':
      return tooBig(issue as z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>, got);
    case 'invalid_format':
      return issue.format === 'url'
        ? `${got} is not a URL: write the whole address, e.g. https://api.sandbox.paxos.com/v2`
        : `${got} is not in the expected form (${issue.format}): see the configuration table in the README`;
    case 'invalid_value':
      return `${got} is not allowed: write one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown key(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: remove them or check the spelling`;
    case 'invalid_key': {
      // a key's own rule (a market symbol's) says what is wrong with it
      const own = issue.issues.find((i) => i.code === 'custom')?.message;
      return own ?? `${got} is not allowed as a key here: see the configuration table in the README`;
    }
    case 'not_multiple_of':
      return `${got} is not a multiple of ${String(issue.divisor)}: write a multiple of it`;
    default:
      return `${got} is not valid here: see the configuration table in the README for what this key takes`;
  }
}

const EXAMPLES: Readonly<Record<string, string>> = {
  number: 'a number, e.g. 1000',
  int: 'a whole number, e.g. 1000',
  string: 'text, e.g. "BTCUSD" (a decimal amount goes in quotes, e.g. "25000")',
  boolean: 'true or false',
  object: 'a section of key: value lines',
  record: 'a section of key: value lines',
  array: 'a list, one "- item" per line',
};

function wrongType(expected: string, input: unknown): string {
  if (input === undefined) return `is missing: add it, as ${EXAMPLES[expected] ?? expected}`;
  if (expected === 'int' && typeof input === 'number') return `${shown(input)} is not a whole number: write ${EXAMPLES.int}`;
  return `${shown(input)} is ${kindOf(input)}, but this key takes ${EXAMPLES[expected] ?? expected}`;
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>, got: string): string {
  const min = String(issue.minimum);
  if (issue.origin === 'string')
    return min === '1' ? 'is empty: write a value or remove the key' : `${got} is too short: write at least ${min} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `has too few items: list at least ${min}`;
  return issue.inclusive ? `${got} is too small: write ${min} or more` : `${got} is too small: write more than ${min}`;
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>, got: string): string {
  const max = String(issue.maximum);
  if (issue.origin === 'string') return `${got} is too long: write at most ${max} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `has too many items: list at most ${max}`;
  return issue.inclusive ? `${got} is too large: write ${max} or less` : `${got} is too large: write less than ${max}`;
}

function kindOf(v: unknown): string {
  if (v === null) return 'empty';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'number':
      return 'a number';
    case 'string':
      return 'text';
    case 'boolean':
      return 'true/false';
    case 'object':
      return 'a section';
    default:
      return typeof v;
  }
}

/** The value as the user wrote it, shortened: "mars", 25000, a list, a section. */
function shown(v: unknown): string {
  if (v === undefined) return 'the value';
  if (v === null) return 'an empty value';
  if (Array.isArray(v)) return 'the list';
  if (typeof v === 'object') return 'the section';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
