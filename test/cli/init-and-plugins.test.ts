/**
 * A user's own project: `tradeloop init`, `tradeloop test` and `new-strategy` there, and plugins kept
 * in any folder that import `tradeloop`, loaded by the real `tradeloop` command (bin/tradeloop.js,
 * whose hooks point `tradeloop` at this installation). No npm install: the hooks need none.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tradeloop.js');
const made: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function tradeloop(args: readonly string[], cwd: string, nodeArgs: readonly string[] = []): Promise<Ran> {
  return new Promise((done) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('TRADELOOP_') && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'),
    );
    execFile(process.execPath, [...nodeArgs, BIN, ...args], { cwd, env, timeout: 240_000 }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/**
 * A preload that reports each loader registration (module.register) on stderr: tsx and the plugin
 * hooks register that way, so a command that registers nothing loaded neither.
 */
function registrationSpy(dir: string): string[] {
  const file = join(dir, 'registration-spy.mjs');
  writeFileSync(
    file,
    `import module from 'node:module';
const register = module.register;
module.register = function (specifier, ...rest) {
  process.stderr.write('registered ' + String(specifier) + '\\n');
  return register.call(this, specifier, ...rest);
};
module.syncBuiltinESMExports();
`,
  );
  return ['--import', pathToFileURL(file).href];
}

const registered = (r: Ran): string[] => [...r.stderr.matchAll(/^registered (.*)$/gm)].map((m) => m[1]!);

const why = (r: Ran): string => `exit ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`;

function pricesCsv(): string {
  const lines = ['timestamp,price'];
  for (let i = 0; i < 60; i++)
    lines.push(`${new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString()},${(30_000 + 500 * Math.sin(i / 5)).toFixed(2)}`);
  return `${lines.join('\n')}\n`;
}

const BUY_ONCE = (name: string): string => `import { defineStrategy, roundQuote, z } from 'tradeloop';

export default defineStrategy({
  name: '${name}',
  description: 'buys 100 USD once',
  params: z.object({ market: z.string().default('BTCUSD') }),
  markets: (p) => [p.market],
  create(p) {
    let done = false;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || done || ctx.warmingUp) return undefined;
        done = true;
        return { kind: 'place-order', market: p.market, side: 'BUY', type: 'MARKET', quoteAmount: roundQuote(ctx.instrument(p.market), 100) };
      },
    };
  },
});
`;

describe('tradeloop init', () => {
  it('writes a bot project that depends on the running tradeloop', async () => {
    const dir = join(tempDir('tradeloop-init-'), 'my-bot');
    const run = await runCli(['init', dir]);
    expect(run.code, run.stderr).toBe(0);
    for (const f of [
      'package.json',
      'tsconfig.json',
      '.gitignore',
      'README.md',
      'config/default.yaml',
      'config/sandbox.example.yaml',
      'strategies/my-strategy.ts',
      'strategies/my-strategy.test.ts',
    ]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      type: string;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg).toMatchObject({
      name: 'my-bot',
      type: 'module',
      dependencies: { tradeloop: `file:${ROOT}` },
      scripts: { test: 'tradeloop test' },
    });
    expect(readFileSync(join(dir, 'strategies/my-strategy.ts'), 'utf8')).toMatch(/from 'tradeloop';/);
    expect(readFileSync(join(dir, 'strategies/my-strategy.ts'), 'utf8')).not.toMatch(/from '\.\.?\//);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/\.tradeloop\/[\s\S]*data\/history\//);
    expect(readFileSync(join(dir, 'config/default.yaml'), 'utf8')).toMatch(/plugin: \.\/strategies\/my-strategy\.ts/);
    expect(run.stdout).toMatch(/npm install/);
  });

  it('refuses a folder that is not empty, a missing tarball and a bad strategy name', async () => {
    const dir = tempDir('tradeloop-init-');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const full = await runCli(['init', dir]);
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/is not empty: choose a new folder, or pass --force/);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    const noTarball = await runCli(['init', join(dir, 'x'), '--from', join(dir, 'nope.tgz')]);
    expect(noTarball.code).toBe(2);
    expect(noTarball.stderr).toMatch(/--from .*nope\.tgz does not exist: give the \.tgz file that `npm pack` wrote/);
    expect(existsSync(join(dir, 'x'))).toBe(false);
    const badName = await runCli(['init', join(dir, 'y'), '--strategy', 'My_Strat']);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toMatch(/--strategy "My_Strat" must be kebab-case/);
  });

  it("runs the new project's tests with tradeloop test, fails when one fails, and new-strategy adds a plugin importing tradeloop", async () => {
    const dir = join(tempDir('tradeloop-init-'), 'bot');
    expect((await runCli(['init', dir])).code).toBe(0);
    const ok = await tradeloop(['test'], dir);
    expect(ok.code, why(ok)).toBe(0);
    expect(ok.stdout).toMatch(/buys when the price rises above its EMA while flat/);
    expect(ok.stdout).toMatch(/sells the whole position at the stop-loss/);
    expect(ok.stdout).toMatch(/passes tradeloop verify: deterministic, no look-ahead, enough warm-up/);
    expect(ok.stdout).toMatch(/pass 5\b/);

    // the project's backtest script, and the README's line of it, work on the new project as it is
    const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.backtest).toMatch(/^tradeloop backtest /);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(`npx ${scripts.backtest}`);
    const script = await tradeloop([...scripts.backtest!.split(' ').slice(1), '--json'], dir);
    expect(script.code, why(script)).toBe(0);
    expect(JSON.parse(script.stdout)).toMatchObject({ strategy: 'my-strategy' });

    const added = await tradeloop(['new-strategy', 'breakout'], dir);
    expect(added.code, why(added)).toBe(0);
    expect(readFileSync(join(dir, 'strategies/breakout.ts'), 'utf8')).toMatch(/^import \{ .* \} from 'tradeloop';$/m);
    expect(readFileSync(join(dir, 'strategies/breakout.test.ts'), 'utf8')).toMatch(/from 'node:test'/);
    // the command it says to try works as printed: the prices are fetched from the embedded sandbox on first use
    const hint = /try it: npx tradeloop (.+)$/m.exec(added.stdout)?.[1];
    expect(hint, added.stdout).toBeDefined();
    const tried = await tradeloop([...hint!.split(' '), '--json'], dir);
    expect(tried.code, why(tried)).toBe(0);
    expect(JSON.parse(tried.stdout)).toMatchObject({ strategy: 'breakout' });
    writeFileSync(
      join(dir, 'strategies/broken.test.ts'),
      "import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nit('fails on purpose', () => assert.equal(1, 2));\n",
    );
    const failing = await tradeloop(['test'], dir);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/fails on purpose/);
    expect(failing.stdout).toMatch(/pass 10\b/);
    expect(failing.stdout).toMatch(/fail 1\b/);

    const none = await tradeloop(['test', 'config'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no test files .* under config/);
  }, 300_000);
});

describe('plugins outside the repository', () => {
  it('loads a .ts plugin from a bare folder (no package.json, no node_modules) that imports tradeloop', async () => {
    const dir = tempDir('tradeloop-plugin-');
    writeFileSync(join(dir, 'buy-once.ts'), BUY_ONCE('buy-once'));
    writeFileSync(join(dir, 'prices.csv'), pricesCsv());
    const bt = await tradeloop(['backtest', '--strategy', './buy-once.ts', '--data', 'prices.csv', '--json'], dir, registrationSpy(dir));
    expect(bt.code, why(bt)).toBe(0);
    expect(JSON.parse(bt.stdout)).toMatchObject({ strategy: 'buy-once', orders: { fills: 1 } });
    // the compiled command (vitest's global setup builds dist/), registering tsx and the plugin hooks for this plugin
    expect(bt.stderr).not.toContain('running from the TypeScript sources');
    expect(
      registered(bt).some((s) => s.endsWith('plugin-hooks.js')),
      why(bt),
    ).toBe(true);
    // a built-in strategy is compiled JavaScript: no loader is registered, tsx is never loaded
    const builtin = await tradeloop(
      ['backtest', '--strategy', 'sma-cross', '--params', 'fast=3,slow=8', '--data', 'prices.csv', '--json'],
      dir,
      registrationSpy(dir),
    );
    expect(builtin.code, why(builtin)).toBe(0);
    expect(registered(builtin)).toEqual([]);
  }, 60_000);

  it("loads a .js plugin written with import/export from a CommonJS package folder, in the optimizer's workers too", async () => {
    const dir = tempDir('tradeloop-plugin-');
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'old-style', version: '1.0.0' }));
    writeFileSync(join(dir, 'lib/buy-once.js'), BUY_ONCE('buy-once-js').replace(/\(p\) =>/g, '(p) =>'));
    writeFileSync(join(dir, 'prices.csv'), pricesCsv());
    const bt = await tradeloop(['backtest', '--strategy', 'lib/buy-once.js', '--data', 'prices.csv', '--json'], dir);
    expect(bt.code, why(bt)).toBe(0);
    expect(JSON.parse(bt.stdout)).toMatchObject({ strategy: 'buy-once-js', orders: { fills: 1 } });
    const opt = await tradeloop(
      ['optimize', '--strategy', 'lib/buy-once.js', '--data', 'prices.csv', '--grid', 'market=BTCUSD', '--workers', '1'],
      dir,
    );
    expect(opt.code, why(opt)).toBe(0);
  }, 240_000);

  it('names a package the plugin imports that is not installed, and the fix', async () => {
    const dir = tempDir('tradeloop-plugin-');
    writeFileSync(
      join(dir, 'needs-more.ts'),
      `import { defineStrategy, z } from 'tradeloop';\nimport chalk from 'left-pad-colours';\nexport default defineStrategy({ name: 'needs-more', description: 'x', params: z.object({}), markets: ['BTCUSD'], create() { void chalk; return {}; } });\n`,
    );
    writeFileSync(join(dir, 'prices.csv'), pricesCsv());
    const bt = await tradeloop(['backtest', '--strategy', './needs-more.ts', '--data', 'prices.csv'], dir);
    expect(bt.code).toBe(2);
    expect(bt.stderr).toMatch(
      /needs-more\.ts imports "left-pad-colours", but the package "left-pad-colours" is not installed for that file: run `npm install left-pad-colours`/,
    );
  }, 60_000);
});
