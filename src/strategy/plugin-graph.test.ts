/** A plugin's module graph: the files the loader will load for it, found without running any. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pluginGraph, scanImports } from './plugin-graph.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tradeloop-graph-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function files(root: string, tree: Record<string, string>): void {
  for (const [name, text] of Object.entries(tree)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

describe('scanImports', () => {
  it('finds static, side-effect, re-export, dynamic and require imports, across lines', () => {
    const src = [
      "import { a } from './a.js';",
      "import './side.js';",
      'export * from "./re.js";',
      "export { b } from './b';",
      "const lazy = await import(\n  './lazy.js'\n);",
      "const c = require('./c.cjs');",
      "const t = `${await import('./in-template.js')}`;",
    ].join('\n');
    expect(scanImports(src).specifiers).toEqual(['./a.js', './side.js', './re.js', './b', './lazy.js', './c.cjs', './in-template.js']);
  });

  it('skips imports inside comments, strings and regular expressions, and does not lose the code after them', () => {
    const src = [
      "// import './line-comment.js'",
      "/* import './block-comment.js' */",
      'const s = \'import "./in-string.js"\';',
      "const r = /'/g;",
      'const q = /[/]"/;',
      'const x = a / b / c;',
      "import { after } from './after.js';",
    ].join('\n');
    expect(scanImports(src).specifiers).toEqual(['./after.js']);
  });

  it('reports a dynamic load by a computed name (its files cannot be known before it runs)', () => {
    expect(scanImports('const m = await import(name);\nconst n = require(`./${x}.js`);\nobj.import(y);').computed).toEqual([
      'import(...)',
      'require(...)',
    ]);
  });
});

describe('pluginGraph', () => {
  it('resolves a .js import of a TypeScript file to the .ts file the loader loads, and index files', () => {
    const root = join(dir, 'ts');
    files(root, {
      'plugin.ts': "import { a } from './a.js';\nimport { u } from './util';\nexport default a + u;\n",
      // both exist: the loader loads a.ts for a TypeScript parent
      'a.ts': 'export const a = 1;\n',
      'a.js': 'export const a = 2;\n',
      'util/index.ts': 'export const u = 1;\n',
    });
    const g = pluginGraph(join(root, 'plugin.ts'));
    expect([...g.files.keys()]).toEqual([join(root, 'plugin.ts'), join(root, 'a.ts'), join(root, 'util/index.ts')]);
  });

  it('keys files by their real path, so a symlink to a file elsewhere is seen as that file', () => {
    const root = join(dir, 'links');
    files(root, { 'plugin.ts': "import './linked.js';\nexport default {};\n" });
    files(join(dir, 'elsewhere'), { 'real.ts': 'export {};\n' });
    symlinkSync(join(dir, 'elsewhere', 'real.ts'), join(root, 'linked.ts'));
    expect([...pluginGraph(join(root, 'plugin.ts')).files.keys()]).toEqual([join(root, 'plugin.ts'), join(dir, 'elsewhere', 'real.ts')]);
  });

  it('leaves packages, node: built-ins and tradeloop out, and follows a cycle once', () => {
    const root = join(dir, 'cycle');
    files(root, {
      'plugin.ts':
        "import { z } from 'tradeloop';\nimport { readFileSync } from 'node:fs';\nimport 'left-pad';\nimport { b } from './b.js';\nexport default b;\n",
      'b.ts': "import './plugin.js';\nexport const b = 1;\n",
    });
    expect([...pluginGraph(join(root, 'plugin.ts')).files.keys()]).toEqual([join(root, 'plugin.ts'), join(root, 'b.ts')]);
  });
});
