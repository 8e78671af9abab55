/**
 * The table of commands (src/cli/commands/index.ts) stands in for the command modules until one runs:
 * `tradeloop --help` built from it alone must read exactly as the program with every module loaded,
 * and each module must register the commands the table says it does. A command added, renamed or
 * re-described in its module without the table fails here.
 */
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandName } from '../../src/cli/commands/index.js';
import { type CliContext } from '../../src/cli/context.js';
import { buildProgram, commandOf } from '../../src/cli/main.js';

const ctx = (): CliContext => {
  const sink = new Writable({ write: (_chunk, _enc, cb) => cb() });
  return { stdout: sink, stderr: sink, env: {}, exitCode: 0 };
};

describe('the lazy table of commands', () => {
  it('--help from the table alone reads as the program with every command loaded', async () => {
    const lazy = await buildProgram(ctx(), new Set());
    const full = await buildProgram(ctx());
    expect(lazy.helpInformation()).toBe(full.helpInformation());
  });

  it.each(COMMANDS.map((m) => [Object.keys(m.commands).map(commandName).join(', '), m] as const))(
    'the module of %s registers exactly those commands',
    async (_names, module) => {
      const program = new Command('tradeloop');
      (await module.load())(program, ctx());
      expect(program.commands.map((c) => c.name())).toEqual(Object.keys(module.commands).map(commandName));
    },
  );

  it('loads only the module of the command that runs (help NAME: that one)', async () => {
    expect(commandOf(['backtest', '--json'])).toBe('backtest');
    expect(commandOf(['help', 'orders'])).toBe('orders');
    expect(commandOf(['--help'])).toBeUndefined();
    const program = await buildProgram(ctx(), new Set(['orders']));
    // loaded modules give their commands options; the listed ones have none
    const withOptions = program.commands.filter((c) => c.options.length > 0).map((c) => c.name());
    expect(withOptions).toEqual(['orders', 'trades', 'positions']);
  });
});
