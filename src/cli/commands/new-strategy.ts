import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { type Command } from 'commander';
import { CliExit, type CliContext, writeLine } from '../context.js';
import { pluginTemplate, testTemplate, type TestRunner } from '../project/templates.js';
import { barPluginTemplate, barTestTemplate } from '../project/bar-templates.js';

const NAME = /^[a-z][a-z0-9-]{1,48}$/;

/** vitest when the project in `cwd` depends on it, else node's own test runner (`tradeloop test`). */
function runnerOf(cwd: string): TestRunner {
  try {
    const pkg = JSON.parse(readFileSync(resolve(cwd, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    return pkg.dependencies?.vitest !== undefined || pkg.devDependencies?.vitest !== undefined ? 'vitest' : 'node';
  } catch {
    return 'node';
  }
}

/** `tradeloop new-strategy NAME`: writes a plugin file importing `tradeloop` and its test. */
export function registerNewStrategy(program: Command, ctx: CliContext): void {
  program
    .command('new-strategy')
    .description('write a new strategy plugin and its test into the project (strategies/)')
    .argument('<name>', 'kebab-case strategy name, e.g. my-momentum')
    .option('--dir <dir>', 'folder to write into', 'strategies')
    .option('--force', 'overwrite existing files')
    .option('--bars', 'write a bar strategy (1h bars with a 4h trend filter: bars, onBar, ctx.bars) instead of a price one')
    .action((name: string, opts: { dir: string; force?: boolean; bars?: boolean }) => {
      if (!NAME.test(name))
        throw new CliExit(
          2,
          `error: name ${JSON.stringify(name)} must be kebab-case (a-z, 0-9, -), 2–49 characters, starting with a letter`,
        );
      const dir = resolve(opts.dir);
      const file = resolve(dir, `${name}.ts`);
      const testFile = resolve(dir, `${name}.test.ts`);
      for (const f of [file, testFile]) {
        if (existsSync(f) && !opts.force) throw new CliExit(2, `error: ${f} exists: choose another name or pass --force`);
      }
      mkdirSync(dir, { recursive: true });
      const runner = runnerOf(process.cwd());
      writeFileSync(file, opts.bars ? barPluginTemplate(name) : pluginTemplate(name));
      writeFileSync(testFile, opts.bars ? barTestTemplate(name, runner) : testTemplate(name, runner));
      const shown = relative(process.cwd(), file);
      writeLine(ctx.stdout, `wrote ${shown} and ${relative(process.cwd(), testFile)}`);
      writeLine(
        ctx.stdout,
        `test it: ${runner === 'vitest' ? `npx vitest run ${relative(process.cwd(), testFile)}` : 'npx tradeloop test'}`,
      );
      // a range, so the prices are fetched on first use (from the config's environment: the embedded sandbox by default)
      writeLine(ctx.stdout, `try it: npx tradeloop backtest --strategy ./${shown} --market BTCUSD --from 2024-01-01 --to 2024-03-01`);
    });
}
