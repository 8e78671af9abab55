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
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of the wall time is end-to-end tests waiting on real servers and processes (a 240 s run, 20 s
    // live runs, an npm install), not CPU: vitest's default of one worker fewer than the cores would run
    // them one at a time on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
