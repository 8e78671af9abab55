// The second half of `npm run build`: bundles the compiled modules in dist/ (tsc's output, one file per
// source) into dist/bundle/, a few dozen files instead of about 300, with the pure-JavaScript libraries
// the command starts with (zod, yaml, rxjs, decimal.js, commander) inside them. Loading a command is
// then mostly compiling, not resolving and reading: `tradeloop run` reaches its first poll about
// 190 ms sooner (issue 34).
//
// Every entry a process starts from is a bundle entry, so each process holds one copy of each module:
// the command (main.js), the package that plugins and the built-in strategies import as `tradeloop`
// (index.js, testkit.js: package.json's exports point here), and the optimizer's worker thread
// (optimize-worker.js). Code split between them lands in shared chunks; each command's own modules
// stay behind their dynamic imports, loaded when that command runs.
//
// All outputs sit in one folder, so each module's `import.meta.url`, `.dirname` and `.filename` are
// rewritten to its own compiled file's place in dist/, relative to that folder: the code still finds
// config/, strategies/, node_modules and its siblings as it did unbundled. Libraries with native parts,
// worker files or optional loading (better-sqlite3, undici, pino, bullmq, prom-client, tsx, ...) stay
// outside and load from node_modules as before.
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** Bundle entries: output name → compiled module (relative to dist/). */
export const BUNDLE_ENTRIES = {
  main: 'src/cli/main.js',
  index: 'src/index.js',
  testkit: 'src/testkit.js',
  'optimize-worker': 'backtest/optimize/worker.js',
};

/** Libraries bundled in: plain JavaScript with no files of their own to find at run time. */
const INSIDE = new Set(['zod', 'yaml', 'rxjs', 'decimal.js', 'commander']);

const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/**
 * zod's `z.locales` (the error messages in some 60 languages, about 380 KB of a 2.5 MB `run`) without
 * compiling them at every start: English, the default, is bundled as before; every other locale is a
 * function of the same name that loads zod's own locales from node_modules (zod is a dependency) when
 * first called, and returns what zod's would, so `z.config(z.locales.fr())` works as it did.
 */
async function zodLocalesOnDemand(root) {
  const names = Object.keys(await import('zod/v4/locales')).filter((n) => n !== 'en');
  const contents = [
    "export { default as en } from 'zod/v4/locales/en.js';",
    'let all;',
    // the banner's require: zod's own build of the locales, from node_modules, not bundled
    "const locale = (name) => (...args) => (all ??= require('zod/v4/locales'))[name](...args);",
    ...names.map((n) => `export const ${n} = locale(${JSON.stringify(n)});`),
  ].join('\n');
  return {
    name: 'zod-locales-on-demand',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'tl-zod-locales' } : undefined,
      );
      b.onResolve({ filter: /^zod\/v4\/locales$/ }, (args) => (args.kind === 'require-call' ? { external: true } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'tl-zod-locales' }, () => ({ contents, loader: 'js', resolveDir: root }));
    },
  };
}

/** Bundles dist/ into dist/bundle/; throws with esbuild's messages on failure. */
export async function bundle(root) {
  const { build } = await import('esbuild');
  const dist = join(root, 'dist');
  const out = join(dist, 'bundle');
  await rm(out, { recursive: true, force: true });
  const rewriteImportMeta = {
    name: 'import-meta-of-the-compiled-file',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { external: true };
        return INSIDE.has(packageName(args.path)) ? undefined : { external: true };
      });
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(dist + sep) || args.path.startsWith(out + sep)) return undefined;
        let code = await readFile(args.path, 'utf8');
        if (!code.includes('import.meta')) return { contents: code, loader: 'js' };
        const rel = relative(out, args.path).split(sep).join('/');
        const dir = relative(out, dirname(args.path)).split(sep).join('/');
        code = code
          .replace(/\bimport\.meta\.url\b/g, `__tlUrl(${JSON.stringify(rel)})`)
          .replace(/\bimport\.meta\.dirname\b/g, `__tlPath(${JSON.stringify(`${dir}/`)})`)
          .replace(/\bimport\.meta\.filename\b/g, `__tlPath(${JSON.stringify(rel)})`);
        return { contents: code, loader: 'js' };
      });
    },
  };
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(BUNDLE_ENTRIES).map(([name, file]) => [name, join(dist, file)])),
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    // class and function names as written (a Decimal is a Decimal in messages and constructor.name)
    keepNames: true,
    logLevel: 'silent',
    plugins: [rewriteImportMeta, await zodLocalesOnDemand(root)],
    // CommonJS inside the bundle (yaml) calls require; rewritten import.meta goes through these two
    banner: {
      js: [
        "import { createRequire as __tlRequire } from 'node:module';",
        "import { fileURLToPath as __tlFile } from 'node:url';",
        'const require = __tlRequire(import.meta.url);',
        'const __tlUrl = (p) => new URL(p, import.meta.url).href;',
        'const __tlPath = (p) => { const f = __tlFile(new URL(p, import.meta.url)); return p.endsWith("/") ? f.slice(0, -1) : f; };',
      ].join(' '),
    },
  });
  for (const w of result.warnings) process.stderr.write(`tradeloop: bundle: ${w.text}\n`);
}
