import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigFile, parseConfig } from './load.js';
import type { Config } from './schema.js';

/** Where a command's configuration came from. */
export type ConfigSource =
  /** `--config FILE`. */
  | { readonly kind: 'flag'; readonly file: string }
  /** `./config/default.yaml` of the folder the command runs in (the user's bot project). */
  | { readonly kind: 'project'; readonly file: string }
  /** Neither: the defaults shipped with tradeloop (the embedded local sandbox). */
  | { readonly kind: 'builtin'; readonly file: string | undefined };

export interface LocatedConfig {
  readonly config: Readonly<Config>;
  readonly source: ConfigSource;
}

/** The project config every command looks for, relative to the folder it runs in. */
export const PROJECT_CONFIG = join('config', 'default.yaml');

/**
 * The folder of the tradeloop package that is running (where its package.json is), found from this
 * file's own location, so built-in defaults do not depend on the current folder: the same from the
 * repository, from `node_modules/tradeloop` and from a compiled `dist/`.
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && nameOf(manifest) === 'tradeloop') return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function nameOf(manifest: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name as string | undefined;
  } catch {
    return undefined;
  }
}

/** The configuration shipped with tradeloop: its own `config/default.yaml`, when present. */
export function builtinConfigFile(): string | undefined {
  const root = packageRoot();
  const file = root === undefined ? undefined : join(root, PROJECT_CONFIG);
  return file !== undefined && existsSync(file) ? file : undefined;
}

/**
 * Which configuration a command uses: `--config FILE` when given (it must exist), else
 * `./config/default.yaml` in `cwd`, else tradeloop's built-in defaults. Nothing is read yet.
 */
export function locateConfig(flag: string | undefined, cwd: string = process.cwd()): ConfigSource {
  if (flag !== undefined) return { kind: 'flag', file: flag };
  const project = resolve(cwd, PROJECT_CONFIG);
  if (existsSync(project)) return { kind: 'project', file: relative(cwd, project) || project };
  return { kind: 'builtin', file: builtinConfigFile() };
}

/** Locates, reads and validates the configuration (see `locateConfig`); problems throw ConfigError. */
export function loadConfig(flag: string | undefined, cwd: string = process.cwd()): LocatedConfig {
  const source = locateConfig(flag, cwd);
  const file = source.kind === 'builtin' ? source.file : resolve(cwd, source.file);
  return { source, config: file === undefined ? parseConfig({}) : loadConfigFile(file, source.kind === 'builtin' ? file : source.file) };
}

/**
 * One line saying which configuration a command used, e.g. `config: config/default.yaml` or
 * `config: none in this folder (no ./config/default.yaml, no --config): tradeloop's built-in defaults
 * (/…/tradeloop/config/default.yaml), the embedded local sandbox`.
 */
export function describeConfigSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'flag':
      return `config: ${source.file} (--config)`;
    case 'project':
      return `config: ${source.file}`;
    case 'builtin':
      return `config: none in this folder (no ./${PROJECT_CONFIG.replace(/\\/g, '/')}, no --config): tradeloop's built-in defaults${source.file === undefined ? '' : ` (${source.file})`}, the embedded local sandbox`;
  }
}

/** The config's name in messages: its file, or "tradeloop's built-in defaults". */
export function configLabel(source: ConfigSource): string {
  return source.file ?? "tradeloop's built-in defaults";
}
