import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { type z } from 'zod';
import { TradeloopError } from '../core/errors.js';
import { configIssueMessage } from './messages.js';
import { ConfigSchema, StrategyConfigSchema, type Config, type StrategyConfig } from './schema.js';
import type { ConfigProblem } from './problem.js';
import { moneyFromSourceText, noteWrittenNumbers, paramNumbersWritten } from './yaml-money.js';

export type { ConfigProblem } from './problem.js';

/** Every problem of a config file at once, each with its path and the fix. Exit code 2. */
export class ConfigError extends TradeloopError {
  readonly problems: readonly ConfigProblem[];
  readonly file: string | undefined;
  /**
   * The well-formed `strategies` entries of a file that failed elsewhere, by their index: their
   * plugins and params are still to be checked, so that one report holds every problem.
   */
  readonly strategiesUnchecked: ReadonlyArray<{ readonly index: number; readonly entry: StrategyConfig }>;

  constructor(file: string | undefined, problems: readonly ConfigProblem[], strategiesUnchecked: ConfigError['strategiesUnchecked'] = []) {
    const where = file ?? 'configuration';
    super('CONFIG_INVALID', `${where}: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n')}`);
    this.problems = problems;
    this.file = file;
    this.strategiesUnchecked = strategiesUnchecked;
  }
}

/** Turns schema issues into problems with their dotted path (messages are already ours: see configIssueMessage). */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.map((issue) => ({ path: issue.path.length ? issue.path.map(String).join('.') : '(root)', message: issue.message }));
}

/**
 * Validates a parsed config object (from YAML or code) and freezes it. `earlier`: problems already
 * found in the file (money written as a number it cannot keep); reported with the schema's, once per
 * field.
 */
export function parseConfig(raw: unknown, file?: string, earlier: readonly ConfigProblem[] = []): Readonly<Config> {
  const result = ConfigSchema.safeParse(raw ?? {}, { error: configIssueMessage });
  const found = result.success ? [] : describeIssues(result.error.issues).filter((p) => !earlier.some((e) => e.path === p.path));
  if (earlier.length || found.length)
    throw new ConfigError(file, [...earlier, ...found], wellFormedStrategies(raw, [...earlier, ...found]));
  return deepFreeze(result.data!);
}

/**
 * Reads, parses and validates a YAML config file; every problem at once (YAML syntax, money written
 * as numbers it cannot keep, schema). `label`: the name messages give the file (default `file`).
 */
export function loadConfigFile(file: string, label: string = file): Readonly<Config> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(label, [
      {
        path: '(file)',
        message: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'}): check the path given to --config`,
      },
    ]);
  }
  const doc = parseDocument(text);
  if (doc.errors.length) {
    throw new ConfigError(
      label,
      doc.errors.map((e) => ({
        path: '(yaml)',
        message: `not valid YAML${e.linePos ? ` at line ${e.linePos[0].line}` : ''}: ${YAML_FIXES[e.code] ?? e.message.split('\n')[0]}`,
      })),
    );
  }
  const money = moneyFromSourceText(doc, text);
  const written = paramNumbersWritten(doc, text);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // the parser refuses aliases that expand without bound (a "billion laughs" file) with a ReferenceError
    if (!(e instanceof ReferenceError)) throw e;
    throw new ConfigError(label, [
      {
        path: '(yaml)',
        message: `aliases (*name) expand to too much (over ${MAX_ALIAS_COUNT} alias resolutions): write the values out instead of nesting aliases`,
      },
    ]);
  }
  try {
    const config = parseConfig(raw, label, money);
    for (const [i, texts] of written) if (config.strategies[i] !== undefined) noteWrittenNumbers(config.strategies[i].params, texts);
    return config;
  } catch (e) {
    if (e instanceof ConfigError)
      for (const { index, entry } of e.strategiesUnchecked) noteWrittenNumbers(entry.params, written.get(index) ?? {});
    throw e;
  }
}

/** The `strategies` entries with no problem of their own, for their plugins and params to be checked. */
function wellFormedStrategies(raw: unknown, problems: readonly ConfigProblem[]): ConfigError['strategiesUnchecked'] {
  const list = raw !== null && typeof raw === 'object' ? (raw as { strategies?: unknown }).strategies : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, index) => {
    if (problems.some((p) => p.path === `strategies.${index}` || p.path.startsWith(`strategies.${index}.`))) return [];
    const parsed = StrategyConfigSchema.safeParse(item);
    return parsed.success ? [{ index, entry: parsed.data }] : [];
  });
}

/** Alias resolutions a config may make (the YAML parser's own default): far beyond any real config. */
const MAX_ALIAS_COUNT = 100;

/** The YAML parser's commonest complaints in our words, with the fix; others keep the parser's text. */
const YAML_FIXES: Readonly<Record<string, string>> = {
  DUPLICATE_KEY: 'a key appears twice in the same section: keep one',
  TAB_AS_INDENT: 'a tab indents this line: indent with spaces',
  BAD_INDENT: 'the indentation does not line up with the lines above: indent keys of one section by the same number of spaces',
  MISSING_CHAR: 'a closing bracket, brace or quote is missing: close what this line opens',
  MULTIPLE_DOCS: 'the file holds more than one YAML document (a --- line): keep one',
  BLOCK_AS_IMPLICIT_KEY: 'a key is missing its colon or a value is indented under nothing: write key: value',
  MULTILINE_IMPLICIT_KEY: 'a key runs over several lines: write key: value on one line, or quote the value',
};

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
