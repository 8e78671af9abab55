import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { type Command } from 'commander';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { INSTALL_ROOT, installedVersion } from '../project/install.js';
import { projectFiles } from '../project/templates.js';

const STRATEGY = /^[a-z][a-z0-9-]{1,48}$/;

/** A package name npm takes, made from a folder name. */
function packageNameFrom(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return name === '' ? 'my-bot' : name.slice(0, 214);
}

/**
 * `tradeloop init DIR`: writes a bot project that depends on the tradeloop that ran the command (a
 * `file:` dependency on its folder, or on a packed tarball with --from).
 */
export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write a new bot project: package.json, config, an example strategy and its test')
    .argument('<dir>', 'folder of the new project (created; it must be empty or absent)')
    .option('--from <tarball>', 'depend on this packed tradeloop (npm pack) instead of the running installation')
    .option('--strategy <name>', 'name of the example strategy', 'my-strategy')
    .option('--name <name>', 'package name (default: the folder name)')
    .option('--force', 'write into a folder that is not empty, overwriting files of the same names')
    .action((dirArg: string, opts: { from?: string; strategy: string; name?: string; force?: boolean }) => {
      const dir = resolve(dirArg);
      if (!STRATEGY.test(opts.strategy))
        throw new CliExit(
          2,
          `error: --strategy ${JSON.stringify(opts.strategy)} must be kebab-case (a-z, 0-9, -), 2–49 characters, starting with a letter`,
        );
      if (existsSync(dir)) {
        if (!statSync(dir).isDirectory()) throw new CliExit(2, `error: ${dir} exists and is not a folder: choose another path`);
        if (readdirSync(dir).length > 0 && !opts.force)
          throw new CliExit(2, `error: ${dir} is not empty: choose a new folder, or pass --force to write into it`);
      }
      let dependency = `file:${INSTALL_ROOT}`;
      if (opts.from !== undefined) {
        const tarball = resolve(opts.from);
        if (!existsSync(tarball) || !statSync(tarball).isFile())
          throw new CliExit(2, `error: --from ${tarball} does not exist: give the .tgz file that \`npm pack\` wrote`);
        if (!tarball.endsWith('.tgz'))
          throw new CliExit(2, `error: --from ${tarball} is not a .tgz: give the file that \`npm pack\` wrote`);
        dependency = `file:${tarball}`;
      }
      const name = opts.name ?? packageNameFrom(dir);
      const files = projectFiles({ name, dependency, tradeloopVersion: installedVersion(), strategy: opts.strategy });
      for (const [path, content] of Object.entries(files)) {
        const file = resolve(dir, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
      const shown = relative(process.cwd(), dir) || '.';
      writeLine(
        ctx.stdout,
        `wrote a bot project in ${shown} (${Object.keys(files).length} files), depending on tradeloop at ${dependency.slice('file:'.length)}`,
      );
      writeLine(ctx.stdout, 'next:');
      if (shown !== '.') writeLine(ctx.stdout, `  cd ${shown}`);
      writeLine(ctx.stdout, '  npm install');
      writeLine(ctx.stdout, '  npm test');
      writeLine(ctx.stdout, '  npx tradeloop run');
    });
}
