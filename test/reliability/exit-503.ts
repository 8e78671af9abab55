import { join } from 'node:path';
import {
  compareWithTruth,
  fetchTruth,
  readJournal,
  sandboxOrders,
  startSandboxProcess,
  tempDir,
  tradeloop,
  waitFor,
  writeLocalConfig,
} from '../support/reliability-procs.js';

export interface ExitChaosOptions {
  /** Runs started, left to lay a grid, and stopped with SIGINT. */
  readonly rounds: number;
  readonly seed: number;
  /** Share of CancelOrder requests answered 503 before the sandbox runs them (default 0.5). */
  readonly cancel503?: number;
}

export interface ExitChaosReport {
  readonly rounds: number;
  readonly exit0: number;
  readonly exit3: number;
  /** Exit cancels refused and sent again (log lines of the runners). */
  readonly cancelsRefused: number;
  /** Orders of ours open at the venue after the last run stopped. */
  readonly openAtEnd: number;
  readonly wallSeconds: number;
  readonly violations: string[];
}

interface WireOrder {
  readonly ref_id: string;
  readonly status: string;
}

/**
 * Exit under 503s: `rounds` runs of grid-maker (six bids) against a sandbox process answering
 * `cancel503` of CancelOrder requests with a 503 before running them, one journal throughout, each
 * stopped with SIGINT once its grid rests. After each stop every order of ours is closed and the run
 * exited 0, or it exited 3 and its summary named exactly the orders left open; after the last, the
 * journal matches the sandbox's truth.
 */
export async function runExitChaos(o: ExitChaosOptions): Promise<ExitChaosReport> {
  const started = performance.now();
  const cwd = tempDir('exit503');
  const sb = await startSandboxProcess(cwd, o.seed, `error5xx@CancelOrder=${o.cancel503 ?? 0.5},seed=${o.seed}`);
  const prefix = 'ex503';
  const config = writeLocalConfig(join(cwd, 'bot.yaml'), sb.url, [
    'strategies:',
    '  - plugin: grid-maker',
    '    params: { market: BTCUSD, levels: 6, spacing_bps: 40, recenter_bps: 2000 }',
    'streams: { warmup_points: 0, orders_ms: 500 }',
    `run: { ref_prefix: ${prefix} }`,
    `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
  ]);
  const ours = async (): Promise<WireOrder[]> => (await sandboxOrders<WireOrder>(sb.url)).filter((x) => x.ref_id.startsWith(`${prefix}-`));
  const violations: string[] = [];
  let exit0 = 0;
  let exit3 = 0;
  let cancelsRefused = 0;
  try {
    for (let round = 1; round <= o.rounds; round++) {
      const before = (await ours()).length;
      const run = tradeloop(['run', '--config', config, '--json'], cwd);
      await waitFor(
        async () =>
          ((await ours()).filter((x) => x.status === 'OPEN').length >= 6 && (await ours()).length >= before + 6) ||
          run.child.exitCode !== null,
        `round ${round}: six resting bids`,
        60_000,
      );
      run.child.kill('SIGINT');
      const code = await run.exit;
      cancelsRefused += (run.err().match(/cancel of \S+ failed/g) ?? []).length;
      const open = (await ours())
        .filter((x) => x.status === 'OPEN')
        .map((x) => x.ref_id)
        .sort();
      const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as { leftOpen?: string[] };
      const named = (summary.leftOpen ?? []).map((l) => l.split(' ')[0]).sort();
      if (code === 0 && open.length === 0) exit0++;
      else if (code === 3 && named.join() === open.join()) exit3++;
      else
        violations.push(
          `round ${round}: exit ${code} with ${open.length} order(s) open (${open.join(', ')}), the summary named ${named.length}`,
        );
    }
    const truth = await fetchTruth(sb.url);
    violations.push(...compareWithTruth(readJournal(join(cwd, 'journal.sqlite')), truth, prefix));
    const openAtEnd = (await ours()).filter((x) => x.status === 'OPEN').length;
    return {
      rounds: o.rounds,
      exit0,
      exit3,
      cancelsRefused,
      openAtEnd,
      wallSeconds: Math.round((performance.now() - started) / 100) / 10,
      violations,
    };
  } finally {
    sb.proc.child.kill('SIGTERM');
    await sb.proc.exit;
  }
}
