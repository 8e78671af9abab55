import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../core/index.js';
import type { StrategyDefinition } from './define.js';
import { preparePluginLoader } from './plugin-loader.js';

export interface LoadOptions {
  /** Folder of built-in strategies (default `<project>/strategies`). */
  readonly strategiesDir?: string;
  /** Base for relative paths (default the current directory). */
  readonly cwd?: string;
}

const EXTENSIONS = ['.ts', '.js', '.mjs'];
const BUILTIN_DIR = resolve(import.meta.dirname, '../../strategies');

/**
 * Loads a strategy plugin by built-in name (`sma-cross`), by path to a user's `.ts`/`.js` file (no
 * build step: TypeScript loads through tsx), or by installed package name. Errors name the file,
 * the field and the fix.
 */
export async function loadStrategy(spec: string, options: LoadOptions = {}): Promise<StrategyDefinition> {
  if (spec.trim() === '') throw new InputError('strategy', 'empty: give a built-in name such as sma-cross or a path to a plugin file');
  const cwd = options.cwd ?? process.cwd();
  const dir = options.strategiesDir ?? BUILTIN_DIR;
  const looksLikePath = spec.includes('/') || spec.includes('\\') || EXTENSIONS.some((e) => spec.endsWith(e));
  if (looksLikePath) {
    const file = isAbsolute(spec) ? spec : resolve(cwd, spec);
    if (!existsSync(file)) throw new InputError('strategy', `file ${file} does not exist: check the path`);
    return importDefinition(pathToFileURL(file).href, file);
  }
  for (const ext of EXTENSIONS) {
    const file = resolve(dir, `${spec}${ext}`);
    if (existsSync(file)) return importDefinition(pathToFileURL(file).href, file);
  }
  try {
    return await importDefinition(resolvePackage(spec, cwd), spec);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const builtins = await listBuiltinStrategies(dir);
    throw new InputError(
      'strategy',
      `no built-in strategy, file or installed package named ${JSON.stringify(spec)} (built-ins: ${builtins.join(', ') || 'none'})`,
      { cause: e },
    );
  }
}

/**
 * An installed package is looked up from the user's directory first (their own node_modules), then
 * from tradeloop's; returns a file URL, or the bare name when neither has it.
 */
function resolvePackage(name: string, cwd: string): string {
  for (const base of [resolve(cwd, 'package.json'), import.meta.filename]) {
    try {
      return pathToFileURL(createRequire(base).resolve(name)).href;
    } catch {
      // not installed there
    }
  }
  return name;
}

async function importDefinition(specifier: string, label: string): Promise<StrategyDefinition> {
  let mod: Record<string, unknown>;
  // a compiled built-in needs no loader; anything else may be TypeScript importing `tradeloop`
  if (!(specifier.endsWith('.js') && label.startsWith(BUILTIN_DIR))) await preparePluginLoader();
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    if (!specifier.startsWith('file:')) throw e;
    throw new InputError('strategy', `${label} failed to load: ${(e as Error).message}`, { cause: e });
  }
  const def = (mod.default ?? mod.strategy) as Partial<StrategyDefinition> | undefined;
  if (def === undefined || typeof def !== 'object') {
    throw new InputError('strategy', `${label} has no default export: end the file with \`export default defineStrategy({ ... })\``);
  }
  const missing = (['name', 'description', 'params', 'markets', 'create'] as const).filter((k) => def[k] === undefined);
  if (missing.length)
    throw new InputError(
      'strategy',
      `${label}: the default export lacks ${missing.join(', ')}: build it with defineStrategy({ name, description, params, markets, create })`,
    );
  return def as StrategyDefinition;
}

/** Names of the built-in strategies (files in the strategies folder, tests excluded). */
export async function listBuiltinStrategies(dir = BUILTIN_DIR): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  try {
    const files = await readdir(dir);
    return files
      .filter((f) => EXTENSIONS.some((e) => f.endsWith(e)) && !f.includes('.test.') && !f.endsWith('.d.ts') && !f.startsWith('_'))
      .map((f) => f.replace(/\.(ts|js|mjs)$/, ''))
      .sort();
  } catch {
    return [];
  }
}
