/**
 * When the `tradeloop` command may run the compiled dist/ (bin/dist-check.js): only when the build
 * stamp says it was compiled from the sources as they are. An edited, removed or newly-timed source
 * is caught with a stat per file; a file whose time changed but whose contents did not (an install
 * that unpacked the files anew) is still current.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, distProblem, writeStamp } from '../../bin/dist-check.js';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'tradeloop-dist-check-'));
  const files: Record<string, string> = {
    'src/a.ts': 'export const a = 1;\n',
    'src/cli/b.ts': 'export const b = 2;\n',
    'tsconfig.json': '{}\n',
    'tsconfig.build.json': '{}\n',
    'dist/src/a.js': 'export const a = 1;\n',
    'dist/src/cli/b.js': 'export const b = 2;\n',
    'dist/src/gone.js': 'export {};\n', // an output whose source was removed: not a source of this build
    'dist/bundle/main.js': 'export {};\n', // what the command loads (bin/bundle.js): not a source's output
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  const past = new Date(Date.now() - 60_000);
  for (const f of ['src/a.ts', 'src/cli/b.ts', 'src/cli', 'src', 'tsconfig.json', 'tsconfig.build.json'])
    utimesSync(join(root, f), past, past);
  writeStamp(Date.now() - 30_000, root);
  return root;
}

describe('dist/ is current only when built from the sources as they are', () => {
  it('a fresh build is current; a missing stamp or dist/ says so and how to build', () => {
    const root = project();
    expect(distProblem(root)).toBeUndefined();
    rmSync(join(root, 'dist', 'bundle'), { recursive: true });
    expect(distProblem(root)).toBe('dist/ has no bundle (npm run build makes it)');
    rmSync(join(root, 'dist', 'build-stamp.json'));
    expect(distProblem(root)).toBe('dist/ has no build stamp (npm run build makes it)');
    rmSync(join(root, 'dist'), { recursive: true });
    expect(distProblem(root)).toBe('dist/ is missing (npm run build makes it)');
  });

  it('an edited source makes it stale, naming the file', () => {
    const root = project();
    writeFileSync(join(root, 'src/cli/b.ts'), 'export const b = 3;\n');
    expect(distProblem(root)).toBe('src/cli/b.ts changed after the last build (npm run build brings dist/ up to date)');
  });

  it('a removed source or a changed tsconfig makes it stale', () => {
    const root = project();
    rmSync(join(root, 'src/a.ts'));
    expect(distProblem(root)).toMatch(/^src\/a\.ts changed after the last build/);
    const other = project();
    writeFileSync(join(other, 'tsconfig.build.json'), '{"compilerOptions":{}}\n');
    expect(distProblem(other)).toMatch(/^tsconfig\.build\.json changed after the last build/);
  });

  it('new times on the same contents (a checkout, an unpacked install) are current, and the stamp takes the new times', () => {
    const root = project();
    const now = new Date();
    utimesSync(join(root, 'src/a.ts'), now, now);
    writeFileSync(join(root, 'src/notes.md'), 'a new file in a source folder\n');
    expect(distProblem(root)).toBeUndefined();
    // the next check is a stat per file again: an edit after it is still caught
    writeFileSync(join(root, 'src/a.ts'), 'export const a = 4;\n');
    utimesSync(join(root, 'src/a.ts'), new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    expect(distProblem(root)).toMatch(/^src\/a\.ts changed after the last build/);
  });

  it('an installed package (files unpacked with old times into new folders, no tsconfig shipped) is current', () => {
    const root = project();
    rmSync(join(root, 'tsconfig.json'));
    rmSync(join(root, 'tsconfig.build.json'));
    const unpacked = new Date('1985-10-26T08:15:00Z');
    for (const f of ['src/a.ts', 'src/cli/b.ts']) utimesSync(join(root, f), unpacked, unpacked);
    const now = new Date(Date.now() + 1_000);
    for (const d of ['src', 'src/cli']) utimesSync(join(root, d), now, now);
    expect(distProblem(root)).toBeUndefined();
  });
});

describe('npm install keeps a current dist/', () => {
  // what npm runs in a clone that a bot project depends on (file:), and before npm pack
  it('npm run prepare leaves a current dist/ as it is and says so', async () => {
    const before = statSync(join(ROOT, 'dist/src/index.js')).mtimeMs;
    const out = await new Promise<string>((done, fail) => {
      execFile(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'prepare'], { cwd: ROOT }, (err, stdout, stderr) =>
        err ? fail(new Error(`${err.message}\n${stderr}`)) : done(stdout),
      );
    });
    expect(out).toContain('tradeloop: dist/ is current with the sources; not rebuilt');
    expect(statSync(join(ROOT, 'dist/src/index.js')).mtimeMs).toBe(before);
  });
});
