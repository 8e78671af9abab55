import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type Command } from 'commander';
import { CliExit, type CliContext } from '../context.js';
import { REGISTER_MODULE } from '../project/install.js';

const TEST_FILE = /\.test\.(ts|mts|js|mjs)$/;

/** Test files under a path (a file or a folder, searched deeply, node_modules skipped). */
function testFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = join(path, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(full));
    else if (TEST_FILE.test(entry.name)) out.push(full);
  }
  return out.sort();
}

/**
 * `tradeloop test [PATHS...]`: runs a bot project's tests with node's own test runner, loading
 * TypeScript and `tradeloop` / `tradeloop/testkit` as the tradeloop command does; no test framework to
 * install.
 */
export function registerTest(program: Command, ctx: CliContext): void {
  program
    .command('test')
    .description("run a bot project's strategy tests (node's test runner; TypeScript and tradeloop/testkit load as in a run)")
    .argument('[paths...]', 'test files or folders (default: strategies and test)')
    .action(async (paths: string[]) => {
      const roots = paths.length > 0 ? paths : ['strategies', 'test'];
      const missing = paths.filter((p) => !existsSync(p));
      if (missing.length) throw new CliExit(2, `error: ${missing.join(', ')}: no such file or folder`);
      const files = roots.flatMap((p) => testFiles(resolve(p)));
      if (files.length === 0) {
        throw new CliExit(
          2,
          `error: no test files (*.test.ts, *.test.js) under ${roots.join(', ')}: \`npx tradeloop new-strategy NAME\` writes a plugin with its test`,
        );
      }
      const args = ['--import', REGISTER_MODULE, '--test', '--test-reporter=spec', ...files.map((f) => relative(process.cwd(), f) || f)];
      const code = await new Promise<number>((done, fail) => {
        const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: ctx.env });
        child.stdout.on('data', (b: Buffer) => ctx.stdout.write(b));
        child.stderr.on('data', (b: Buffer) => ctx.stderr.write(b));
        child.on('error', fail);
        child.on('close', (c, signal) => done(c ?? (signal ? 1 : 0)));
      });
      ctx.exitCode = code;
    });
}
