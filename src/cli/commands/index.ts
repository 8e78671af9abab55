import type { RegisterCommand } from '../context.js';

/**
 * One command module: the top-level commands it registers, as the program's `--help` lists them
 * (term → description), and how to load it. A module is imported only when one of its commands
 * runs, so `tradeloop --help` and a journal view load none of the heavy ones (the sandbox, the
 * dashboard, the queue, the HTTP client). test/cli/lazy-commands.test.ts checks that these terms
 * and descriptions are what the modules themselves register. A heavy command's module registers its
 * flags only; what it does is in `X-action.ts`, imported when it runs, so its `--help` loads none of
 * it (test/cli/command-graph.test.ts).
 */
export interface CommandModule {
  readonly commands: Readonly<Record<string, string>>;
  readonly load: () => Promise<RegisterCommand>;
}

/** Every CLI command module, in the order `--help` lists their commands. Add new commands here. */
export const COMMANDS: readonly CommandModule[] = [
  {
    commands: {
      'run [options]':
        'run strategies live against the configured environment (the embedded local sandbox by default) until Ctrl-C or --duration',
    },
    load: async () => (await import('./run.js')).registerRun,
  },
  {
    commands: {
      'start [options]':
        'check the configuration (every plugin loaded, every params block validated) and show the environment and the commands, without trading',
    },
    load: async () => (await import('./start.js')).registerStart,
  },
  {
    commands: {
      'ctl [options] <action> [strategy]':
        'control a bot running with --ui: status, strategies, positions, orders, halt, resume, pause/resume STRATEGY, cancel-all, stop, exit STRATEGY (token: TRADELOOP_UI_TOKEN)',
    },
    load: async () => (await import('./ctl.js')).registerCtl,
  },
  {
    commands: { 'api [options] [operationId] [params...]': 'call any platform operation by its operationId and print the JSON response' },
    load: async () => (await import('./api.js')).registerApi,
  },
  {
    commands: { 'sandbox [options]': 'run the local sandbox: the simulated platform over HTTP on 127.0.0.1 (Ctrl-C stops it)' },
    load: async () => (await import('./sandbox.js')).registerSandbox,
  },
  {
    commands: {
      'orders [options]': 'list journaled intents and orders (newest first) with their state at the venue',
      'trades [options]': 'list round trips per strategy (entry, exit, P&L, fees; open ones last), or the fills with --fills',
      'positions [options]': "position and P&L per strategy and market, from the journal's fills",
    },
    load: async () => (await import('./journal-views.js')).registerJournalViews,
  },
  {
    commands: { 'init [options] <dir>': 'write a new bot project: package.json, config, an example strategy and its test' },
    load: async () => (await import('./init.js')).registerInit,
  },
  {
    commands: { 'new-strategy [options] <name>': 'write a new strategy plugin and its test into the project (strategies/)' },
    load: async () => (await import('./new-strategy.js')).registerNewStrategy,
  },
  {
    commands: {
      'test [paths...]': "run a bot project's strategy tests (node's test runner; TypeScript and tradeloop/testkit load as in a run)",
    },
    load: async () => (await import('./test.js')).registerTest,
  },
  {
    commands: { 'backtest [options]': 'replay historical prices through a strategy, risk gate and executors; print metrics' },
    load: async () => (await import('./backtest.js')).registerBacktest,
  },
  {
    commands: {
      'verify [options]':
        'check a strategy plugin before trusting it: determinism, no look-ahead, enough warm-up, its params schema and markets',
    },
    load: async () => (await import('./verify.js')).registerVerify,
  },
  {
    commands: {
      'divergence [options]': 're-run a recorded live or paper run on its recording and explain every difference from its journal',
    },
    load: async () => (await import('./divergence.js')).registerDivergence,
  },
  {
    commands: { 'optimize [options]': 'backtest every combination of a parameter grid on all cores and rank them by a metric' },
    load: async () => (await import('./optimize.js')).registerOptimize,
  },
  {
    commands: { 'worker [options]': 'run optimizer trials from a Redis queue (tradeloop optimize --queue) on this machine' },
    load: async () => (await import('./worker.js')).registerWorker,
  },
  {
    commands: { history: 'historical prices for backtests: fetch and cache List Historical Prices' },
    load: async () => (await import('./history.js')).registerHistory,
  },
];

/** The name a help term gives its command (`ctl [options] <action>` → `ctl`). */
export function commandName(term: string): string {
  return term.split(' ')[0]!;
}
