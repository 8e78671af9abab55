import { readFileSync } from 'node:fs';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { type z } from 'zod';
import { TradeloopError } from '../core/errors.js';
import { ConfigSchema, type Config } from './schema.js';

export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
}

/** Every problem of a config file at once, each with its path and the fix. Exit code 2. */
export class ConfigError extends TradeloopError {
  readonly problems: readonly ConfigProblem[];
  readonly file: string | undefined;

  constructor(file: string | undefined, problems: readonly ConfigProblem[]) {
    const where = file ?? 'configuration';
    super('CONFIG_INVALID', `${where}: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n')}`);
    this.problems = problems;
    this.file = file;
  }
}

/** Turns schema issues into messages that say what is wrong and what to write instead. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : '(root)';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      message = `unknown key(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: remove them or check the spelling`;
    } else if (issue.code === 'invalid_type') {
      message = `expected ${issue.expected}: ${issue.message}`;
    } else if (issue.code === 'invalid_value' && 'values' in issue) {
      message = `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { path, message };
  });
}

/** Validates a parsed config object (from YAML or code) and freezes it. */
export function parseConfig(raw: unknown, file?: string): Readonly<Config> {
  const result = ConfigSchema.safeParse(raw ?? {});
  if (!result.success) throw new ConfigError(file, describeIssues(result.error.issues));
  return deepFreeze(result.data);
}

/** Reads, parses and validates a YAML config file. */
export function loadConfigFile(file: string): Readonly<Config> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, [{ path: '(file)', message: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'}): check the path given to --config` }]);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    const line = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line}` : '';
    throw new ConfigError(file, [{ path: '(yaml)', message: `not valid YAML${line}: ${(e as Error).message.split('\n')[0]}` }]);
  }
  return parseConfig(raw, file);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
