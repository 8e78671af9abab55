import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Inside the repository `tradeloop` is the public entry's source (a plugin in a user's project gets the
// package's compiled entry, or the running install's source when the CLI loads it).
const entry = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^tradeloop$/, replacement: entry('./src/index.ts') },
      { find: /^tradeloop\/testkit$/, replacement: entry('./src/testkit.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'strategies/**/*.test.ts', 'backtest/**/*.test.ts'],
    environment: 'node',
    // the CLI's end-to-end tests run the compiled command: dist/ is brought up to date first
    globalSetup: ['test/support/build-dist.ts'],
    // Budgets for tests and hooks that set none: unit tests take milliseconds, but many end-to-end tests
    // start the CLI a few times (2 to 5 s a process alone on the 2-core machine, 14 s for the longest
    // such test) and must pass with the machine under other load, so the default is a generous
    // multiple of that rather than of a unit test's time. Longer tests set their own, as multiples too.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most of the wall time is end-to-end tests waiting on real servers and processes (a 240 s run, 20 s
    // live runs, an npm install), not CPU: vitest's default of one worker fewer than the cores would run
    // them one at a time on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
