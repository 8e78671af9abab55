/**
 * What each command loads before its code runs: `bin/tradeloop.js` loads src/cli/main.ts, which imports
 * a command's module only when that command runs (src/cli/commands/index.ts). Each command's static
 * import graph (main's plus its module's) must stay free of the heavy modules it does not use: the
 * queue (bullmq, ioredis), metrics (prom-client), the dashboard and control API (src/ops), the sandbox,
 * tsx (only a user's plugin loads it), and for the short commands the HTTP client, the config's schema
 * and parser, the journal's SQLite. A heavy import added to a command module or a module it reaches
 * fails here with the import path that brought it in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, type ModuleGraph } from '../support/module-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ALWAYS_OUT = ['bullmq', 'ioredis', 'prom-client', 'tsx', 'better-sqlite3'];
const OUT_OF_SHORT_COMMANDS = [...ALWAYS_OUT, 'zod', 'yaml', 'rxjs', 'undici', 'pino'];

/** Each banned package or folder that `g` reaches, with the import path that reaches it. */
function reached(g: ModuleGraph, packages: readonly string[], folders: readonly string[]): string[] {
  const out = packages.flatMap((p) => (g.packages.has(p) ? [g.packages.get(p)!] : []));
  for (const [file, via] of g.files) if (folders.some((f) => file.startsWith(f))) out.push(via);
  return out;
}

/** The files of `g` that import the package's index itself (not a module under it) at run time. */
function runtimeImportsOf(g: ModuleGraph, pkg: string): string[] {
  const index = new RegExp(`^import (?!type )[^;]*from '${pkg}';`, 'm');
  return [...g.files].filter(([file]) => index.test(readFileSync(join(ROOT, file), 'utf8'))).map(([, via]) => via);
}

/** What a command loads when it runs: main, its module (the flags it registers) and, when it has one, its action's module (`X-action.ts`, loaded when the command runs). */
const commandGraph = (module: string): ModuleGraph => {
  const action = `src/cli/commands/${module}-action.ts`;
  return importGraph('src/cli/main.ts', `src/cli/commands/${module}.ts`, ...(existsSync(join(ROOT, action)) ? [action] : []));
};

/** Each command module (src/cli/commands/index.ts), by the file its `load` imports. */
const COMMAND_MODULES = [...readFileSync(join(ROOT, 'src/cli/commands/index.ts'), 'utf8').matchAll(/import\('\.\/([\w-]+)\.js'\)/g)].map(
  (m) => m[1]!,
);

/** What `--help` of a command may load besides src/cli/: the light facts its flags' texts name. */
const HELP_MAY_LOAD = ['src/fills/point/intrabar.ts', 'backtest/optimize/metric-names.ts'];

describe("each command's static import graph", () => {
  it('--help loads the program and the table of commands, no command module', () => {
    const g = importGraph('src/cli/main.ts');
    expect(g.files.has('src/cli/commands/index.ts')).toBe(true);
    expect([...g.files.keys()].filter((f) => f.startsWith('src/cli/commands/') && f !== 'src/cli/commands/index.ts')).toEqual([]);
    expect([...g.packages.keys()].filter((p) => !p.startsWith('node:'))).toEqual(['commander']);
  });

  // `tradeloop backtest --help` registers the command's flags and prints them: the code that runs the
  // command (its X-action.ts, the engine, the config's reader, the HTTP client) loads only when it runs
  it("each command's --help: its flags' module alone, no library but commander, nothing of the engine", () => {
    // the commands whose code is heavy keep it in X-action.ts (the short ones load little anyway)
    const split = COMMAND_MODULES.filter((m) => existsSync(join(ROOT, `src/cli/commands/${m}-action.ts`)));
    expect(split.sort()).toEqual(['api', 'backtest', 'divergence', 'history', 'optimize', 'run', 'sandbox', 'start', 'verify']);
    const main = importGraph('src/cli/main.ts');
    const found: Record<string, string[]> = {};
    for (const module of split) {
      const g = importGraph('src/cli/main.ts', `src/cli/commands/${module}.ts`);
      const beyond = [...g.files.entries()].filter(([f]) => !main.files.has(f) && !f.startsWith('src/cli/') && !HELP_MAY_LOAD.includes(f));
      const packages = [...g.packages.keys()].filter((p) => !p.startsWith('node:') && p !== 'commander');
      if (beyond.length + packages.length > 0) found[module] = [...beyond.map(([, via]) => via), ...packages];
    }
    expect(found).toEqual({});
  });

  it('the journal views: the journal, not the config schema, the HTTP client, the sandbox or the dashboard', () => {
    const g = commandGraph('journal-views');
    expect(g.files.has('src/exec/journal.ts')).toBe(true);
    expect(reached(g, OUT_OF_SHORT_COMMANDS, ['src/ops/', 'src/sandbox/', 'src/api/', 'src/queue/', 'src/engine/', 'src/config/'])).toEqual(
      [],
    );
  });

  it('ctl: its own HTTP call, nothing else of the project', () => {
    const g = commandGraph('ctl');
    expect(
      reached(g, OUT_OF_SHORT_COMMANDS, ['src/ops/', 'src/sandbox/', 'src/api/', 'src/queue/', 'src/engine/', 'src/config/', 'src/exec/']),
    ).toEqual([]);
  });

  it('backtest: the kernel and the report, not the queue, metrics, the dashboard, the sandbox, tsx or SQLite', () => {
    const g = commandGraph('backtest');
    expect(g.files.has('src/engine/kernel.ts')).toBe(true);
    expect(reached(g, ALWAYS_OUT, ['src/ops/', 'src/sandbox/'])).toEqual([]);
  });

  // a price file's backtest: a recording's readers (the API's decoder, the HTTP client, the log), the
  // config's parser (when a config is found), a portfolio's modules, the progress bar (drawn after a
  // second) and rxjs's operators load when that run needs them, not at start
  it('backtest of a price file: no HTTP client, YAML, logger, progress bar or rxjs index at start', () => {
    const g = commandGraph('backtest');
    expect(
      reached(
        g,
        ['undici', 'yaml', 'pino', 'cli-progress'],
        ['src/api/', 'src/config/load.ts', 'src/venue/polling/recorder.ts', 'backtest/recorded-book-run.ts'],
      ),
    ).toEqual([]);
    expect(runtimeImportsOf(g, 'rxjs')).toEqual([]);
  });

  it('verify: the kernel and the backtest run, not the queue, metrics, the dashboard, the sandbox, tsx or SQLite', () => {
    const g = commandGraph('verify');
    expect(g.files.has('src/engine/kernel.ts')).toBe(true);
    expect(g.files.has('backtest/verify/verify.ts')).toBe(true);
    expect(reached(g, ALWAYS_OUT, ['src/ops/', 'src/sandbox/', 'src/queue/'])).toEqual([]);
  });

  // a run journals and embeds the sandbox by default: SQLite and the sandbox are its own
  it('run: not the queue, tsx or prom-client (loaded with the first metrics, for the dashboard or a webhook)', () => {
    const g = commandGraph('run');
    expect(g.files.has('src/live/live-run.ts')).toBe(true);
    expect(reached(g, ['bullmq', 'ioredis', 'prom-client', 'tsx'], [])).toEqual([]);
  });

  // rxjs's index loads every operator and undici's the whole library (fetch, mock agents, WebSocket):
  // both about 100 ms before the first price poll could leave; a run takes the modules it uses
  it("run: neither rxjs's nor undici's index at run time", () => {
    const g = commandGraph('run');
    expect(runtimeImportsOf(g, 'rxjs')).toEqual([]);
    expect(runtimeImportsOf(g, 'undici')).toEqual([]);
  });

  it('run: the dashboard, control API, metrics and notifications (src/ops) only when the run uses them', () => {
    const g = commandGraph('run');
    // whether ops is wanted, and the log's tail (a bounded ring) the dashboard reads from the first line on
    expect([...g.files.keys()].filter((f) => f.startsWith('src/ops/')).sort()).toEqual([
      'src/ops/log-tail.ts',
      'src/ops/ring.ts',
      'src/ops/wanted.ts',
    ]);
  });
});
