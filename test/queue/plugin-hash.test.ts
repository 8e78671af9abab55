/** What a queued trial is pinned to: the plugin file and every local file it imports, by hash. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fingerprintFile,
  fingerprintMismatch,
  fingerprintStrategy,
  queueFingerprint,
  tradeloopVersion,
} from '../../src/strategy/plugin-hash.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function project(name: string, util: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'lib'), { recursive: true });
  writeFileSync(
    join(root, 'plugin.ts'),
    "import { defineStrategy } from 'tradeloop';\nimport { a } from './lib/a.js';\nexport { b } from \"./lib/b\";\nexport default defineStrategy(a);\n",
  );
  writeFileSync(join(root, 'lib/a.ts'), "import { u } from './util.js';\nexport const a = u;\n");
  writeFileSync(join(root, 'lib/b.ts'), 'export const b = 1;\n');
  writeFileSync(join(root, 'lib/util.ts'), util);
  return join(root, 'plugin.ts');
}

describe('plugin fingerprints', () => {
  it('hash the plugin and its local imports, followed recursively, not packages', () => {
    const f = fingerprintFile(project('one', 'export const u = 1;\n'), 'plugin.ts', false);
    expect(Object.keys(f.files).sort()).toEqual(['lib/a.ts', 'lib/b.ts', 'lib/util.ts', 'plugin.ts']);
    expect(f.spec).toBe('plugin.ts');
    expect(fingerprintFile(project('same', 'export const u = 1;\n'), 'plugin.ts', false).hash).toBe(f.hash);
  });

  it('a difference deep in the imports is named, without either hash', () => {
    const mine = fingerprintFile(project('two', 'export const u = 2;\n'), 'plugin.ts', false);
    const theirs = fingerprintFile(project('three', 'export const u = 1;\n'), 'plugin.ts', false);
    expect(fingerprintMismatch(theirs, mine)).toMatch(
      /this worker's copy of plugin plugin\.ts differs: lib\/util\.ts \(content differs\); install the same files on every worker/,
    );
    expect(fingerprintMismatch(theirs, mine)).not.toMatch(/[0-9a-f]{12}/);
    expect(fingerprintMismatch(mine, mine)).toBeUndefined();
  });

  it('built-ins are pinned by their file in this installation; unknown names are refused', () => {
    const f = fingerprintStrategy('sma-cross');
    expect(f.builtin).toBe(true);
    expect(Object.keys(f.files)).toEqual(['sma-cross.ts']);
    expect(() => fingerprintStrategy('no-such-strategy')).toThrow(
      /--strategy: "no-such-strategy" is neither a plugin file nor a built-in strategy/,
    );
    expect(tradeloopVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('optimize --queue refuses at once a plugin no worker could accept: imports outside its folder, or by a computed name', () => {
    const root = join(dir, 'queue');
    mkdirSync(join(root, 'plugins'), { recursive: true });
    writeFileSync(join(root, 'shared.ts'), 'export const s = 1;\n');
    writeFileSync(join(root, 'plugins', 'out.ts'), "import { s } from '../shared.js';\nexport default s;\n");
    writeFileSync(join(root, 'plugins', 'computed.ts'), "const name = './x.js';\nexport default await import(name);\n");
    writeFileSync(join(root, 'plugins', 'fine.ts'), "import { s } from './lib.js';\nexport default s;\n");
    writeFileSync(join(root, 'plugins', 'lib.ts'), 'export const s = 1;\n');
    expect(() => queueFingerprint('plugins/out.ts', root)).toThrow(
      /--strategy: plugins\/out\.ts imports \.\.\/shared\.ts, outside its folder: .* move them in beside the plugin/,
    );
    expect(() => queueFingerprint('plugins/computed.ts', root)).toThrow(
      /--strategy: plugins\/computed\.ts loads code by a computed name .*import\(\.\.\.\).* literal path/,
    );
    expect(queueFingerprint('plugins/fine.ts', root)).toMatchObject({
      spec: 'fine.ts',
      builtin: false,
      files: { 'fine.ts': expect.any(String), 'lib.ts': expect.any(String) },
    });
    expect(queueFingerprint('sma-cross').builtin).toBe(true);
  });
});
