/**
 * What a backtest loads: every optimizer thread imports the run driver, so whatever the driver pulls
 * in is paid per thread (memory, start-up, compile work). The kernel once imported the venue index
 * for one constant, which brought the REST venue, the whole HTTP client and its response schemas,
 * undici, pino and the polling streams into every thread; the driver imported the report for one
 * function, which brought the HTML report and robustness sections. This walks the static imports
 * (type-only ones are erased by the compiler and skipped) from the thread's entry.
 */
import { describe, expect, it } from 'vitest';
import { importGraph } from '../test/support/module-graph.js';

describe('the backtest path loads the kernel, not the live side or the report', () => {
  const { files, packages } = importGraph('backtest/optimize/worker.ts');

  it('reaches the kernel, point replay and the run driver (the walk follows the imports)', () => {
    for (const f of [
      'backtest/run.ts',
      'backtest/driver.ts',
      'src/engine/kernel.ts',
      'src/risk/gate.ts',
      'src/fills/point/market.ts',
      'src/fills/point/venue.ts',
    ])
      expect(files.has(f), f).toBe(true);
    expect(packages.has('rxjs')).toBe(true);
  });

  it('does not reach the HTTP client, the REST venue, the polling streams, the sandbox or the report', () => {
    const banned = [...files.keys()].filter(
      (f) =>
        f.startsWith('src/api/') ||
        f.startsWith('src/sandbox/') ||
        f.startsWith('src/venue/polling/') ||
        f.startsWith('src/cli/') ||
        f.startsWith('src/ops/') ||
        f === 'src/venue/index.ts' ||
        f === 'src/venue/rest-venue.ts' ||
        f === 'backtest/report/report.ts' ||
        f.startsWith('backtest/robustness') ||
        f === 'backtest/report/html.ts',
    );
    expect(banned.map((f) => files.get(f))).toEqual([]);
    for (const pkg of ['undici', 'pino', 'ioredis', 'bullmq', 'commander', 'prom-client']) expect(packages.get(pkg), pkg).toBeUndefined();
  });
});
