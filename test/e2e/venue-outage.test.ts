import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxProcess, tempDir, tradeloop, waitFor, writeLocalConfig, type Proc } from '../support/reliability-procs.js';

const procs: Proc[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

const OUTAGE_MS = 20_000;

/** The sandbox of `startSandboxProcess` started again on its port, from its state file. */
function restartSandbox(cwd: string, port: string): Proc {
  return tradeloop(['sandbox', '--port', port, '--seed', '9', '--state', join(cwd, 'sandbox-state.json'), '--truth'], cwd);
}

function count(text: string, re: RegExp): number {
  return text.split('\n').filter((l) => re.test(l)).length;
}

/** Stops the sandbox process (it saves its state) and resolves once it has exited. */
async function stop(p: Proc): Promise<void> {
  p.child.kill('SIGTERM');
  await p.exit;
}

/**
 * The venue outage of the chaos run: `tradeloop run` against a sandbox process that is stopped for
 * 20 s and started again on the same port from its state file. Without a breaker every poll stream
 * retried every request on its own (about 200 "retrying request" warnings in 20 s); with one, a few
 * failures open it, requests fail fast, one probe a second finds the venue again, and the log says
 * once that the venue is unreachable and once that it is back.
 */
describe('a venue outage during tradeloop run (the real command against a sandbox process)', () => {
  it('logs one unreachable state and its end, not a retry per request', { timeout: 120_000 }, async () => {
    const cwd = tempDir('outage');
    const first = await startSandboxProcess(cwd, 9);
    procs.push(first.proc);
    const port = new URL(first.url).port;
    const config = writeLocalConfig(join(cwd, 'bot.yaml'), first.url, [
      'strategies:',
      '  - plugin: grid-maker',
      '    params: { market: BTCUSD, levels: 2, spacing_bps: 100, recenter_bps: 2000 }',
      'streams: { warmup_points: 0 }',
      'run: { cancel_on_exit: false, ref_prefix: outage }',
      `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
      'log: { level: info }',
    ]);
    const run = tradeloop(['run', '--config', config, '--json', '--duration', '60s'], cwd);
    procs.push(run);
    await waitFor(() => /trading grid-maker/.test(run.err()) || run.child.exitCode !== null, 'the run to start trading', 60_000);
    await new Promise((r) => setTimeout(r, 3_000));
    const before = run.err().length;
    expect(count(run.err(), /retrying request/), 'no retries while the venue is up').toBe(0);

    await stop(first.proc);
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    const during = run.err().slice(before);
    const retries = count(during, /retrying request/);
    const warnings = count(during, /"level":40/);
    process.stdout.write(`outage of ${OUTAGE_MS / 1000} s: ${retries} "retrying request" lines, ${warnings} warnings in all\n`);
    const second = restartSandbox(cwd, port);
    procs.push(second);
    await waitFor(() => /listening on/.test(second.out()), `the sandbox again (${second.err().slice(-300)})`, 30_000);
    const upAt = performance.now();
    await waitFor(() => /venue reachable again/.test(run.err()) || run.child.exitCode !== null, 'the run to find the venue again', 20_000);
    process.stdout.write(`the run found the venue again ${Math.round(performance.now() - upAt)} ms after the sandbox listened again\n`);
    run.child.kill('SIGINT');
    const code = await run.exit;
    const log = run.err();
    expect(code, log.slice(-2000)).toBe(0);
    expect(retries, 'retries before the breaker opened').toBeLessThanOrEqual(10);
    expect(warnings, 'warnings in the outage').toBeLessThanOrEqual(12);
    expect(count(log, /venue unreachable since/)).toBe(1);
    expect(count(log, /venue reachable again/)).toBe(1);
    await stop(second);
  });
});
