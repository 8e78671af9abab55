/**
 * The bundle the command, the package and the optimizer's threads load (bin/bundle.js, built into
 * dist/bundle/ by vitest's global setup as by `npm run build`): every file imports only Node's own
 * modules, the libraries left outside, or its sibling files; each module's rewritten `import.meta`
 * names a place that exists in dist/; one process loads one copy of a class whether it comes through
 * the command or through `import ... from 'tradeloop'`; and `--help` reads a handful of files where
 * the unbundled dist/ took hundreds.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ENTRIES } from '../../bin/bundle.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUNDLE = join(ROOT, 'dist', 'bundle');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  exports: Record<string, { default?: string }>;
};

const files = (): string[] => readdirSync(BUNDLE).filter((f) => f.endsWith('.js'));
/** Module specifiers a file imports: its import/export statements and literal dynamic imports (esbuild's output form). */
const specifiers = (code: string): string[] => [
  ...[...code.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";/gm)].map((m) => m[1]!),
  ...[...code.matchAll(/^import\s*"([^"]+)";/gm)].map((m) => m[1]!),
  ...[...code.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!),
];

describe('dist/bundle', () => {
  it('holds an entry for each process start, and the package and the command point at them', () => {
    for (const name of Object.keys(BUNDLE_ENTRIES)) expect(existsSync(join(BUNDLE, `${name}.js`)), name).toBe(true);
    expect(manifest.exports['.']!.default).toBe('./dist/bundle/index.js');
    expect(manifest.exports['./testkit']!.default).toBe('./dist/bundle/testkit.js');
    expect(readFileSync(join(ROOT, 'bin', 'tradeloop.js'), 'utf8')).toContain("import('../dist/bundle/main.js')");
  });

  it('imports only node:, the libraries left outside (each a dependency), or its own files', () => {
    const outside = new Set<string>();
    for (const f of files()) {
      for (const spec of specifiers(readFileSync(join(BUNDLE, f), 'utf8'))) {
        if (spec.startsWith('node:') || spec.includes('${')) continue; // a computed path (a plugin's, a file's)
        if (spec.startsWith('./')) {
          expect(existsSync(join(BUNDLE, spec)), `${f} imports ${spec}`).toBe(true);
          continue;
        }
        expect(spec.startsWith('../'), `${f} imports ${spec} outside the bundle`).toBe(false);
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        outside.add(pkg);
      }
    }
    for (const pkg of outside) expect(manifest.dependencies[pkg], `${pkg} is imported but not a dependency`).toBeDefined();
    // the libraries bundled in are not loaded again from node_modules
    for (const inside of ['zod', 'yaml', 'rxjs', 'decimal.js', 'commander']) expect(outside.has(inside), inside).toBe(false);
  });

  it("rewrites each module's import.meta to its compiled file, and each such place exists", () => {
    let rewritten = 0;
    for (const f of files()) {
      const code = readFileSync(join(BUNDLE, f), 'utf8');
      // the banner's own import.meta.url (the chunk's place) is the only one left
      const body = code.slice(code.indexOf('\n'));
      expect(body, f).not.toMatch(/\bimport\.meta\.(url|dirname|filename)\b/);
      for (const m of body.matchAll(/__tl(?:Url|Path)\("([^"]+)"\)/g)) {
        rewritten++;
        expect(existsSync(resolve(BUNDLE, m[1]!)), `${f}: ${m[1]}`).toBe(true);
      }
    }
    expect(rewritten).toBeGreaterThan(5);
  });

  it("gives the command's modules and `import 'tradeloop'` one copy of each class", () => {
    const code = [
      `const pkg = await import(${JSON.stringify(pathToFileURL(join(BUNDLE, 'index.js')).href)});`,
      `const cli = await import(${JSON.stringify(pathToFileURL(join(BUNDLE, 'main.js')).href)});`,
      // from inside the repository, `tradeloop` is the package itself (its exports)
      `const self = await import('tradeloop');`,
      'console.log(typeof cli.main, pkg.D === self.D, pkg.Position === self.Position, pkg.D.name);',
    ].join(' ');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(out.trim()).toBe('function true true Decimal');
  });

  it("holds zod's English messages only, and z.locales gives every other locale from node_modules when asked", () => {
    // a text of zod's French locale (ASCII: the bundle escapes other characters)
    const french = 'date et heure ISO';
    expect(readFileSync(join(ROOT, 'node_modules', 'zod', 'v4', 'locales', 'fr.js'), 'utf8')).toContain(`"${french}"`);
    for (const f of files()) expect(readFileSync(join(BUNDLE, f), 'utf8').includes(french), f).toBe(false);
    const code = [
      "const { z } = await import('tradeloop');",
      "const zod = await import('zod');",
      'const s = z.object({ a: z.number() });',
      "const said = () => s.safeParse({ a: 'x' }).error.issues[0].message;",
      'const en = said();',
      'z.config(z.locales.fr());',
      'const fr = said();',
      'z.config(z.locales.en());',
      'console.log(JSON.stringify({ en, fr, again: said(), names: Object.keys(z.locales), zod: Object.keys(zod.z.locales), core: z.core.locales.de === z.locales.de }));',
    ].join(' ');
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', code], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      }),
    ) as { en: string; fr: string; again: string; names: string[]; zod: string[]; core: boolean };
    expect(out.en).toMatch(/^Invalid input: expected number/);
    expect(out.fr).toMatch(/^Entrée invalide/);
    expect(out.again).toBe(out.en);
    expect(out.names.sort()).toEqual(out.zod.sort());
    expect(out.core).toBe(true);
  });

  it('--help reads a handful of files from dist/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-bundle-'));
    try {
      const hook = join(dir, 'hook.mjs');
      writeFileSync(
        hook,
        'export async function load(url, ctx, next) { if (url.includes("/dist/")) process.stderr.write(`LOADED ${url}\\n`); return next(url, ctx); }\n',
      );
      const reg = join(dir, 'reg.mjs');
      writeFileSync(reg, `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hook).href)});\n`);
      const r = spawnSync(process.execPath, ['--import', pathToFileURL(reg).href, join(ROOT, 'bin', 'tradeloop.js'), '--help'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/backtest/);
      const loaded = r.stderr.split('\n').filter((l) => l.startsWith('LOADED '));
      expect(
        loaded.every((l) => l.includes('/dist/bundle/')),
        loaded.join('\n'),
      ).toBe(true);
      // main.js and its few shared chunks (the unbundled dist/ loaded about 40 files here, backtest 300)
      expect(loaded.length).toBeGreaterThan(0);
      expect(loaded.length).toBeLessThanOrEqual(12);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
