/**
 * What a queued trial must run with: the plugin file and the local files it imports, by content
 * hash, and the tradeloop version. A worker loads strategies only from its own installation (or its
 * `--strategies DIR`), never code from Redis; it compares these hashes with its own copy and refuses
 * a job whose files differ, naming which.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '../core/index.js';

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
const BUILTIN_DIR = resolve(import.meta.dirname, '../../strategies');

/** The tradeloop version of this installation (package.json). */
export function tradeloopVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
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

/** Hashes a plugin file and every local file it imports (relative specifiers, followed recursively). */
export function fingerprintFile(file: string, spec: string, builtin: boolean): PluginFingerprint {
  const root = dirname(file);
  const files: Record<string, string> = {};
  const visit = (f: string): void => {
    const key = relative(root, f).split('\\').join('/');
    if (key in files) return;
    const text = readFileSync(f);
    files[key] = sha256(text);
    for (const dep of localImports(text.toString('utf8'))) {
      const found = resolveLocal(dirname(f), dep);
      if (found !== undefined) visit(found);
    }
  };
  visit(file);
  const hash = sha256(Object.entries(files).map(([k, v]) => `${k} ${v}`).join('\n'));
  return { spec: builtin ? spec : basename(file), builtin, files, hash };
}

/** The fingerprint of the strategy the controller runs; an unknown one is refused naming the spec. */
export function fingerprintStrategy(spec: string, cwd = process.cwd()): PluginFingerprint {
  const found = strategyFile(spec, cwd);
  if (found === undefined) throw new InputError('--strategy', `${JSON.stringify(spec)} is neither a plugin file nor a built-in strategy: --queue sends only built-ins and plugin files, which every worker must have too`);
  return fingerprintFile(found.file, spec, found.builtin);
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
    else differs.push(`${n} (sha256 ${b.slice(0, 12)} here, ${a.slice(0, 12)} on the controller)`);
  }
  return `this worker's copy of ${expected.builtin ? `built-in strategy ${expected.spec}` : `plugin ${expected.spec}`} differs: ${differs.join(', ')}; install the same files on every worker`;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Relative specifiers of static imports, re-exports and dynamic imports with a literal. */
function localImports(source: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;
  for (let m = re.exec(source); m !== null; m = re.exec(source)) out.push(m[2]!);
  return out;
}

function resolveLocal(dir: string, spec: string): string | undefined {
  const base = resolve(dir, spec);
  const stem = base.replace(/\.(m?js|ts)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.js`, `${stem}.mjs`, resolve(base, 'index.ts'), resolve(base, 'index.js')]) {
    if (existsSync(c) && !c.endsWith('/')) {
      try {
        readFileSync(c);
        return c;
      } catch {
        // a folder
      }
    }
  }
  return undefined;
}
