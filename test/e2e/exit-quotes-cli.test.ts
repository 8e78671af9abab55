/**
 * `tradeloop run` on a sandbox process whose every GetQuoteExecution fails (`--faults`): the run's
 * one quote execution is answered CREATED, then settles at the venue while no read of it gets
 * through. At exit the run follows it for `run.exit_timeout_ms`, names it in the summary and the log,
 * and exits 3, as for orders its exit cancels could not close (README, exit codes).
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandboxProcess, tempDir, useTradeloop, waitFor, writeLocalConfig } from '../support/reliability-procs.js';

const PLUGIN = resolve(import.meta.dirname, '../reliability/fixtures/quote-once.ts');
const start = useTradeloop();

describe('tradeloop run: a quote execution the exit cannot follow to settlement', () => {
  it('is named in the summary and the log, and the run exits 3', { timeout: 120_000 }, async () => {
    const dir = tempDir('exit-quotes');
    const sandbox = await startSandboxProcess(dir, 13, 'error5xx@GetQuoteExecution=1');
    try {
      const config = writeLocalConfig(join(dir, 'bot.yaml'), sandbox.url, [
        'strategies:',
        `  - plugin: ${PLUGIN}`,
        'streams: { warmup_points: 3, prices_ms: 250, quotes_ms: 1000, ticker_ms: 1000, book_ms: 1000, orders_ms: 300, balances_ms: 500 }',
        'run: { ref_prefix: xq, exit_timeout_ms: 3000 }',
        `journal: { path: ${join(dir, 'journal.sqlite')} }`,
      ]);
      const run = start(['run', '--config', config, '--duration', '60s', '--json'], dir);
      await waitFor(
        () => run.err().includes('quote execution poll failed') || run.child.exitCode !== null,
        'a failed read of the quote execution',
        60_000,
      );
      run.child.kill('SIGINT');
      const code = await run.exit;
      expect(code, run.err().slice(-2_000)).toBe(3);
      const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as {
        settlingQuoteExecutions?: number;
        leftSettling?: string[];
        unresolved: number;
      };
      expect(summary.unresolved).toBe(0);
      expect(summary.settlingQuoteExecutions).toBe(1);
      expect(summary.leftSettling).toEqual([expect.stringMatching(/^xq-1 \(quote execution [0-9a-f-]{36}, BUY BTCUSD, CREATED\)$/)]);
      expect(run.err()).toMatch(
        /1 quote execution\(s\) not settled after 3000 ms of following them at exit: xq-1 .*the next start follows them/,
      );
    } finally {
      sandbox.proc.child.kill('SIGTERM');
      await sandbox.proc.exit;
    }
  });
});
