/**
 * The static import graph of project modules: what loading a file loads before any of its code runs.
 * Type-only imports are erased by the compiler and skipped; dynamic `import()` calls are not followed
 * (they load when that code runs). Used by the module-graph tests of the backtest path and of each
 * CLI command.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ModuleGraph {
  /** Project files (relative to the repository) → one import path that reaches it. */
  readonly files: Map<string, string>;
  /** Packages → one import path that reaches it. */
  readonly packages: Map<string, string>;
}

/** The project files and packages reachable from `entries` by runtime imports, with one path to each. */
export function importGraph(...entries: string[]): ModuleGraph {
  const files = new Map<string, string>(entries.map((e) => [e, e]));
  const packages = new Map<string, string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const src = readFileSync(resolve(ROOT, file), 'utf8');
    for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      if (m[2] !== undefined) continue; // `import type` / `export type`: erased
      const spec = m[4]!;
      const via = `${files.get(file)} > `;
      if (!spec.startsWith('.')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(pkg)) packages.set(pkg, `${via}${pkg}`);
        continue;
      }
      const target = relative(ROOT, resolve(ROOT, dirname(file), spec.replace(/\.js$/, '.ts')));
      if (files.has(target)) continue;
      files.set(target, `${via}${target}`);
      queue.push(target);
    }
  }
  return { files, packages };
}
