/**
 * What a queued trial must run with: the plugin file and the local files it imports, by content
 * hash, and the tradeloop version. A worker loads strategies only from its own installation (or its
 * `--strategies DIR`), never code from Redis; it compares these hashes with its own copy and refuses
 * a job whose files differ, naming which.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { InputError } from '../core/index.js';
import { installRoot } from '../core/install-root.js';
import { pluginGraph, type PluginGraph } from './plugin-graph.js';

export interface PluginFingerprint {
  /** What the controller was given: a built-in name, or the plugin file's name. */
  readonly spec: string;
  /** True for a built-in strategy (found in the worker's own installation by name). */
  readonly builtin: boolean;
  /** Path relative to the plugin's folder → sha256 of its content; the plugin itself first. */
  readonly files: Readonly<Record<string, string>>;
  /** One hash over every file. */
  readonly hash: string;
}

const EXTENSIONS = ['.ts', '.js', '.mjs'];
/** The folder of built-in strategies, and the extensions a built-in's file may have. */
export const BUILTIN_DIR = resolve(import.meta.dirname, '../../strategies');
export const BUILTIN_EXTENSIONS: readonly string[] = EXTENSIONS;

/** The tradeloop version of this installation (package.json). */
export function tradeloopVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(installRoot(import.meta.dirname, 2), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The file a strategy spec names: a path (against `cwd`), or a built-in name in `builtinDir`. */
export function strategyFile(spec: string, cwd: string, builtinDir = BUILTIN_DIR): { file: string; builtin: boolean } | undefined {
  const looksLikePath = spec.includes('/') || spec.includes('\\') || EXTENSIONS.some((e) => spec.endsWith(e));
  if (looksLikePath) {
    const file = isAbsolute(spec) ? spec : resolve(cwd, spec);
    return existsSync(file) ? { file, builtin: false } : undefined;
  }
  for (const ext of EXTENSIONS) {
    const file = resolve(builtinDir, `${spec}${ext}`);
    if (existsSync(file)) return { file, builtin: true };
  }
  return undefined;
}

/**
 * Hashes a plugin file and every local file its loader resolves for it (plugin-graph.ts: the module
 * graph the loader would load, not a guess over import lines), keyed by path from the plugin's folder.
 */
export function fingerprintFile(file: string, spec: string, builtin: boolean): PluginFingerprint {
  return fingerprintGraph(pluginGraph(file), builtin ? spec : basename(file), builtin);
}

/** The fingerprint of a walked graph (its first file is the plugin); `spec` as the job carries it. */
export function fingerprintGraph(graph: PluginGraph, spec: string, builtin: boolean): PluginFingerprint {
  const [plugin] = graph.files.keys();
  const root = dirname(plugin!);
  const files: Record<string, string> = {};
  for (const [f, h] of graph.files) files[relative(root, f).split('\\').join('/')] = h;
  const hash = sha256(
    Object.entries(files)
      .map(([k, v]) => `${k} ${v}`)
      .join('\n'),
  );
  return { spec, builtin, files, hash };
}

/** The fingerprint of the strategy the controller runs; an unknown one is refused naming the spec. */
export function fingerprintStrategy(spec: string, cwd = process.cwd()): PluginFingerprint {
  const found = strategyFile(spec, cwd);
  if (found === undefined)
    throw new InputError(
      '--strategy',
      `${JSON.stringify(spec)} is neither a plugin file nor a built-in strategy: --queue sends only built-ins and plugin files, which every worker must have too`,
    );
  return fingerprintFile(found.builtin ? builtinSource(found.file) : found.file, spec, found.builtin);
}

/**
 * A built-in's TypeScript source when the installation has it (the package ships strategies/), so
 * its fingerprint (a study's key, a recording's header) is the same whether the command runs
 * compiled or from the sources; else the file itself.
 */
function builtinSource(file: string): string {
  const source = join(installRoot(import.meta.dirname, 2), 'strategies', basename(file).replace(/\.(js|mjs)$/, '.ts'));
  return existsSync(source) ? source : file;
}

/**
 * The fingerprint `optimize --queue` sends: refused at once, naming the fix, when no worker could
 * accept it (a worker loads only files inside its strategies folder, checked before they run).
 */
export function queueFingerprint(spec: string, cwd = process.cwd()): PluginFingerprint {
  const found = strategyFile(spec, cwd);
  if (found === undefined) return fingerprintStrategy(spec, cwd);
  const graph = pluginGraph(found.file);
  if (graph.computed.length > 0)
    throw new InputError(
      '--strategy',
      `${spec} loads code by a computed name (${graph.computed.join(', ')}): a worker checks a plugin's files before running it, so --queue needs every import written as a literal path`,
    );
  const f = fingerprintGraph(graph, found.builtin ? spec : basename(found.file), found.builtin);
  const outside = Object.keys(f.files).filter((k) => k.startsWith('../'));
  if (outside.length > 0)
    throw new InputError(
      '--strategy',
      `${spec} imports ${outside.join(', ')}, outside its folder: a worker loads only files inside its strategies folder, so move them in beside the plugin`,
    );
  return f;
}

/** Why a worker's copy differs from the job's (undefined when it is the same). */
export function fingerprintMismatch(expected: PluginFingerprint, mine: PluginFingerprint): string | undefined {
  if (expected.hash === mine.hash) return undefined;
  const names = new Set([...Object.keys(expected.files), ...Object.keys(mine.files)]);
  const differs: string[] = [];
  for (const n of names) {
    const a = expected.files[n];
    const b = mine.files[n];
    if (a === b) continue;
    if (a === undefined) differs.push(`${n} (imported only by this worker's copy)`);
    else if (b === undefined) differs.push(`${n} (missing from this worker's copy)`);
    else differs.push(`${n} (content differs)`);
  }
  return `this worker's copy of ${expected.builtin ? `built-in strategy ${expected.spec}` : `plugin ${expected.spec}`} differs: ${differs.join(', ')}; install the same files on every worker`;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
