import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { runCli } from './cli-helpers.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.js', import.meta.url));

/** Every command path of the program as the CLI defines it (subcommands included), e.g. ["history", "fetch"]. */
async function commandPaths(): Promise<string[][]> {
  const sink = new Writable({ write: (_chunk, _enc, cb) => cb() });
  const program = await buildProgram({ stdout: sink, stderr: sink, env: {}, exitCode: 0 });
  const out: string[][] = [];
  const walk = (cmd: Command, prefix: string[]): void => {
    for (const sub of cmd.commands) {
      const path = [...prefix, sub.name()];
      out.push(path);
      walk(sub, path);
    }
  };
  walk(program, []);
  return out;
}

const paths = await commandPaths();

describe('--help on every command', () => {
  it('finds the commands from the program definition', () => {
    const names = paths.map((p) => p.join(' '));
    // A floor, not the list: the test covers whatever the program registers.
    expect(names).toEqual(expect.arrayContaining(['run', 'start', 'api', 'sandbox', 'backtest', 'optimize', 'history', 'history fetch']));
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(paths.map((p) => [p.join(' '), p] as const))('tradeloop %s --help exits 0 and prints its usage', async (name, path) => {
    const r = await runCli([...path, '--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Usage: tradeloop ${name} `);
    expect(r.stdout).toMatch(/Options:\n/);
    expect(r.stdout).toContain('-h, --help');
    expect(r.stderr).toBe('');
  });

  it('tradeloop --help (the real binary) exits 0 and names every top-level command', () => {
    const r = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Usage: tradeloop ');
    for (const p of paths.filter((q) => q.length === 1)) expect(r.stdout).toMatch(new RegExp(`^  ${p[0]}\\b`, 'm'));
  });
});
