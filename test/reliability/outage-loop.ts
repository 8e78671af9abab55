import { join } from 'node:path';
import {
  compareWithTruth,
  fetchTruth,
  readJournal,
  startSandboxProcess,
  tempDir,
  tradeloop,
  waitFor,
  writeBotConfig,
  type Proc,
} from '../support/reliability-procs.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface OutageLoopOptions {
  /** How many times the sandbox is stopped and started again (the chaos run: 2). */
  readonly outages: number;
  /** How long each outage lasts (default 20 s, as in the chaos run that found the warning flood). */
  readonly outageMs?: number;
  readonly seed: number;
}

export interface OutageLoopReport {
  readonly outages: number;
  /** "retrying request" warnings logged during the outages (before the breaker opened). */
  readonly retryWarnings: number;
  /** Every warning of the runner during the outages. */
  readonly warnings: number;
  /** Those warnings by message, ids and numbers blanked (what floods, if anything). */
  readonly warningsByMessage: Readonly<Record<string, number>>;
  /** "venue unreachable since" and "venue reachable again" lines over the whole run. */
  readonly unreachableLines: number;
  readonly reachableLines: number;
  /** Per outage: ms from the sandbox listening again to the runner finding it. */
  readonly recoveryMs: readonly number[];
  readonly venueOrders: number;
  readonly wallSeconds: number;
  readonly violations: string[];
}

const LATENCY = 'latency@CreateOrder=300ms,latency@CancelOrder=300ms';

/** The loop's sandbox again, on its port and from its state file, with its write latency. */
async function restartSandbox(dir: string, port: string, seed: number): Promise<Proc> {
  const proc = tradeloop(
    ['sandbox', '--port', port, '--seed', String(seed), '--state', join(dir, 'sandbox-state.json'), '--truth', '--faults', LATENCY],
    dir,
  );
  await waitFor(() => /listening on/.test(proc.out()), `the sandbox to listen again (${proc.err().slice(-300)})`, 30_000);
  return proc;
}

async function stop(p: Proc): Promise<void> {
  p.child.kill('SIGTERM');
  await p.exit;
}

const lines = (text: string, re: RegExp): number => text.split('\n').filter((l) => re.test(l)).length;

/** Warning lines counted by their message's first 60 characters, digits blanked. */
function byMessage(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of text.split('\n')) {
    if (!l.includes('"level":40')) continue;
    const msg = (/"msg":"([^"]*)/.exec(l)?.[1] ?? l).replace(/[0-9]+/g, '#').slice(0, 60);
    out[msg] = (out[msg] ?? 0) + 1;
  }
  return out;
}

/**
 * Venue outages under a trading runner: the real `tradeloop run` (the crash-churn plugin, writes
 * delayed 300 ms so some are in flight when the venue goes) against a sandbox process stopped for
 * `outageMs` and started again on its port, `outages` times. Checks one "unreachable" and one
 * "reachable again" line per outage, at most 10 retry warnings per outage, a clean exit, and the
 * journal equal to the sandbox's truth afterwards.
 */
export async function runOutageLoop(o: OutageLoopOptions): Promise<OutageLoopReport> {
  const started = performance.now();
  const outageMs = o.outageMs ?? 20_000;
  const dir = tempDir('outage-loop');
  let sandbox = (await startSandboxProcess(dir, o.seed, LATENCY)).proc;
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(sandbox.out())?.[1] as string;
  const prefix = `ro${o.seed}`;
  const run = tradeloop(['run', '--config', writeBotConfig(dir, url, prefix, { cancelOnAccept: true })], dir);
  const violations: string[] = [];
  const recoveryMs: number[] = [];
  let during = '';
  try {
    await waitFor(() => /trading crash-churn/.test(run.err()) || run.child.exitCode !== null, 'the runner to trade', 60_000);
    for (let i = 0; i < o.outages; i++) {
      await sleep(4_000);
      const from = run.err().length;
      await stop(sandbox);
      await sleep(outageMs);
      during += run.err().slice(from);
      sandbox = await restartSandbox(dir, new URL(url).port, o.seed);
      const upAt = performance.now();
      const found = await waitFor(
        () => lines(run.err(), /venue reachable again/) > i || run.child.exitCode !== null,
        'the runner to find the venue again',
        30_000,
      ).then(
        () => true,
        () => false,
      );
      if (!found) violations.push(`outage ${i + 1}: the runner did not find the venue again within 30 s`);
      recoveryMs.push(Math.round(performance.now() - upAt));
    }
    await sleep(4_000);
    run.child.kill('SIGINT');
    const code = await run.exit;
    if (code !== 0) violations.push(`the runner exited ${code}: ${run.err().slice(-600)}`);
    const log = run.err();
    const report = {
      outages: o.outages,
      retryWarnings: lines(during, /retrying request/),
      warnings: lines(during, /"level":40/),
      warningsByMessage: byMessage(during),
      unreachableLines: lines(log, /"msg":"venue unreachable since/),
      reachableLines: lines(log, /"msg":"venue reachable again/),
      recoveryMs,
    };
    if (report.unreachableLines !== o.outages)
      violations.push(`${report.unreachableLines} "venue unreachable" lines for ${o.outages} outages`);
    if (report.reachableLines !== o.outages)
      violations.push(`${report.reachableLines} "venue reachable again" lines for ${o.outages} outages`);
    if (report.retryWarnings > 10 * o.outages)
      violations.push(`${report.retryWarnings} "retrying request" warnings in ${o.outages} outages`);
    const truth = await fetchTruth(url);
    violations.push(...compareWithTruth(readJournal(join(dir, 'journal.sqlite')), truth, prefix).map((v) => `after the outages: ${v}`));
    const venueOrders = truth.orders.filter((x) => String(x.ref_id ?? '').startsWith(`${prefix}-`)).length;
    return { ...report, venueOrders, wallSeconds: Math.round((performance.now() - started) / 100) / 10, violations };
  } finally {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await stop(sandbox);
  }
}
