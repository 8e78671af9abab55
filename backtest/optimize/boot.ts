/**
 * How an optimizer worker thread loads its code. Compiling the kernel's TypeScript through tsx in
 * every thread costs each thread its own loader thread, esbuild and the compiled sources (issue 22:
 * about 170 MB a thread), so a thread runs the compiled kernel in dist/ (built by `npm run build`,
 * which `npm install` runs) whenever that build is current:
 *
 * - a built-in strategy (strategies/*.ts, compiled to dist/strategies/*.js): plain JavaScript, no
 *   loader hooks at all; its `import … from 'tradeloop'` is the package's own name and resolves to
 *   dist/bundle/index.js, whose modules the thread's bundled worker (dist/bundle/optimize-worker.js,
 *   bin/bundle.js) shares: the very kernel the thread runs;
 * - any other strategy (a user's `.ts`/`.js` file, an installed package): tsx and the plugin hooks
 *   (bin/plugin-hooks.js) load the plugin, with `tradeloop` pointed at the compiled kernel, so the
 *   plugin and the kernel share one zod and one Decimal class.
 *
 * When dist/ is missing or older than a source it was compiled from, the thread loads the sources
 * through tsx and bin/register.js as the `tradeloop` command does (slower to start, more memory,
 * same results), and the boot says why.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type WorkerCode = 'compiled' | 'source';

export interface WorkerBoot {
  /** What the thread runs: the compiled kernel in dist/, or the TypeScript sources through tsx. */
  readonly code: WorkerCode;
  /** Whether the strategy itself loads through tsx and the plugin hooks (always with `source`). */
  readonly pluginLoader: boolean;
  /** Why the sources were used (dist/ missing or stale, or asked for); absent with `compiled`. */
  readonly reason?: string;
  /** The CommonJS bootstrap the Worker evaluates (`eval: true`). */
  readonly script: string;
}

export interface BootOptions {
  /** `auto` (the default) uses dist/ when it is current; `source` always loads through tsx. */
  readonly prefer?: 'auto' | 'source';
  /** The project folder (holding package.json, src/, dist/); default this installation. */
  readonly root?: string;
}

const HERE = import.meta.url;

/** The bootstrap for a thread that runs `strategy`'s jobs. */
export function workerBoot(strategy: string, options: BootOptions = {}): WorkerBoot {
  const root = options.root ?? fileURLToPath(new URL('../../', HERE));
  // this module itself compiled (the package used from dist/): its sibling is the compiled worker
  const compiledHere = HERE.endsWith('.js') && options.root === undefined;
  const reason = options.prefer === 'source' ? 'asked for the sources' : compiledHere ? undefined : distProblem(root);
  if (reason !== undefined) return { code: 'source', pluginLoader: true, reason, script: sourceBoot(root) };
  const dist = compiledHere ? fileURLToPath(new URL('../../', HERE)) : join(root, 'dist');
  const builtin = isBuiltinName(strategy) && existsSync(join(dist, 'strategies', `${strategy}.js`));
  return { code: 'compiled', pluginLoader: !builtin, script: compiledBoot(dist, !builtin) };
}

/** A strategy spec that names a built-in (not a path, not a file name, not a scoped package). */
function isBuiltinName(spec: string): boolean {
  return /^[a-z0-9][a-z0-9-]*$/i.test(spec);
}

/**
 * Why dist/ cannot stand in for the sources, or undefined when it can: the compiled worker must be
 * there, and no source file may be newer than what was compiled from it (an edited file, a pulled
 * commit, a checkout all leave the source newer than its output until the next build). A source
 * newly imported by an edited file is covered by the edit itself.
 */
export function distProblem(root: string): string | undefined {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'bundle', 'optimize-worker.js'))) return 'dist/ has no bundled optimizer worker (npm run build makes it)';
  for (const out of jsFiles(dist)) {
    const source = join(root, relative(dist, out)).replace(/\.js$/, '.ts');
    let sourceTime: number;
    try {
      sourceTime = statSync(source).mtimeMs;
    } catch {
      continue; // an output whose source is gone: nothing current imports it
    }
    if (sourceTime > statSync(out).mtimeMs)
      return `${relative(root, source)} changed after the last build (npm run build brings dist/ up to date)`;
  }
  return undefined;
}

function jsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(path));
    else if (e.name.endsWith('.js')) out.push(path);
  }
  return out;
}

const FATAL = `(e) => { require('node:worker_threads').parentPort.postMessage({ type: 'fatal', error: String((e && e.stack) || e) }); }`;

/** What the `tradeloop` command loads (tsx and bin/register.js), then the TypeScript worker. */
function sourceBoot(root: string): string {
  const register = pathToFileURL(join(root, 'bin', 'register.js')).href;
  const entry = pathToFileURL(join(root, 'backtest', 'optimize', 'worker.ts')).href;
  return `import(${JSON.stringify(register)}).then(() => import(${JSON.stringify(entry)})).catch(${FATAL})`;
}

/** The compiled worker; with `pluginLoader`, tsx and the plugin hooks first, `tradeloop` at dist/. */
function compiledBoot(dist: string, pluginLoader: boolean): string {
  const entry = pathToFileURL(join(dist, 'bundle', 'optimize-worker.js')).href;
  if (!pluginLoader) return `import(${JSON.stringify(entry)}).catch(${FATAL})`;
  const loader = pathToFileURL(join(dist, '..', 'backtest', 'optimize', 'plugin-loader.js')).href;
  const entries = {
    tradeloop: pathToFileURL(join(dist, 'bundle', 'index.js')).href,
    'tradeloop/testkit': pathToFileURL(join(dist, 'bundle', 'testkit.js')).href,
  };
  return `import(${JSON.stringify(loader)}).then((m) => m.registerPluginLoader(${JSON.stringify(entries)})).then(() => import(${JSON.stringify(entry)})).catch(${FATAL})`;
}
