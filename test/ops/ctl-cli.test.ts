/**
 * `tradeloop ctl`: the control API from another terminal, against a real `tradeloop run --ui`.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';
import { startUiRun, TOKEN } from './ops-cli.js';

const start = useTradeloop();

describe('tradeloop ctl', () => {
  it('reads the status, halts, resumes and stops a running bot; refuses a missing or wrong token', { timeout: 90_000 }, async () => {
    const run = await startUiRun(start);
    const url = run.url.replace(/\/$/, '');
    const env = { TRADELOOP_UI_TOKEN: TOKEN };

    const none = await runCli(['ctl', 'status', '--url', url], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/TRADELOOP_UI_TOKEN is not set/);
    const wrong = await runCli(['ctl', 'status', '--url', url], { TRADELOOP_UI_TOKEN: 'wrong-token-0123456789abcdef' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/refused the token/);
    expect(wrong.stderr).not.toContain('wrong-token');
    const bad = await runCli(['ctl', 'dance', '--url', url], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown action "dance": use one of status, halt, resume, cancel-all, stop, exit/);

    const status = await runCli(['ctl', 'status', '--url', url], env);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ trading: expect.anything() });

    expect((await runCli(['ctl', 'halt', '--url', url, '--reason', 'lunch'], env)).code).toBe(0);
    const halted = JSON.parse((await runCli(['ctl', 'status', '--url', url, '--json'], env)).stdout);
    expect(JSON.stringify(halted.trading)).toMatch(/halted/);
    const resumed = await runCli(['ctl', 'resume', '--url', url], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse((await runCli(['ctl', 'status', '--url', url, '--json'], env)).stdout).trading)).toMatch(/running/);

    // exit names the strategy whose own position it sells; the run names those that run
    const exitless = await runCli(['ctl', 'exit', '--url', url], env);
    expect([exitless.code, exitless.stderr]).toEqual([2, expect.stringMatching(/exit needs the strategy to exit: tradeloop ctl exit STRATEGY/)]);
    expect((await runCli(['ctl', 'halt', 'someone', '--url', url], env)).stderr).toMatch(/a strategy and --market go with exit only/);
    const nobody = await runCli(['ctl', 'exit', 'nobody', '--market', 'BTCUSD', '--url', url], env);
    expect([nobody.code, nobody.stderr]).toEqual([1, expect.stringMatching(/exit answered 404: no running strategy is named "nobody": running: /)]);

    const stop = await runCli(['ctl', 'stop', '--url', url], env);
    expect(stop.code, stop.stderr).toBe(0);
    await waitFor(() => run.proc.child.exitCode !== null, 'the run to exit', 30_000);
    expect(run.proc.child.exitCode).toBe(0);
    const gone = await runCli(['ctl', 'status', '--url', url], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no bot answers at http:\/\/127\.0\.0\.1:\d+ .*is it running with --ui/);
  });
});
