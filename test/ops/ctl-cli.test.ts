/**
 * `tradeloop ctl`: the control API from another terminal, against a real `tradeloop run --ui` on
 * `ui.port: 0`, found from the dashboard file beside its journal (removed at its clean exit); tables
 * by default, JSON with --json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(bad.stderr).toMatch(
      /unknown action "dance": use one of status, strategies, positions, orders, halt, resume, pause, cancel-all, stop, exit/,
    );

    // the run wrote its address (never its token) beside the journal: --journal finds it, so does its config
    const journal = join(run.cwd, 'journal.sqlite');
    const file = JSON.parse(readFileSync(`${journal}.dashboard.json`, 'utf8'));
    expect(file).toEqual({ url: run.url, pid: run.proc.child.pid, startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), journal });
    expect(readFileSync(`${journal}.dashboard.json`, 'utf8')).not.toContain(TOKEN);
    const status = await runCli(['ctl', 'status', '--journal', journal], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^environment +local .*\ntrading +running\nequity +[\d,.]+ USD/m);
    expect(status.stdout).toMatch(/^market +mid/m);
    const configured = await runCli(['ctl', 'status', '--json', '--config', join(run.cwd, 'bot.yaml')], env);
    expect(configured.code, configured.stderr).toBe(0);
    expect(JSON.parse(configured.stdout)).toMatchObject({ trading: { state: 'running' } });
    // the probe's market buy fills: its position and the fill show in the tables
    await waitFor(
      async () => (await runCli(['ctl', 'positions', '--journal', journal], env)).stdout.includes('ops-probe'),
      "the probe's position",
      30_000,
    );
    const positions = (await runCli(['ctl', 'positions', '--journal', journal], env)).stdout;
    expect(positions).toMatch(/^strategy +market +position +avg cost +mid +unrealized +realized +P&L\n-+/m);
    expect(positions).toMatch(/^ops-probe +BTCUSD +0\.\d+ /m);
    expect(positions).toMatch(/^balances\nasset +available +total/m);
    const strategies = (await runCli(['ctl', 'strategies', '--journal', journal], env)).stdout;
    expect(strategies).toMatch(/^ops-probe +running +BTCUSD +-?[\d.,]+ +0\.\d+ BTCUSD/m);
    const orders = (await runCli(['ctl', 'orders', '--journal', journal], env)).stdout;
    expect(orders).toMatch(/^open orders\nref_id +strategy +market +side +type +price +amount +filled +status +age/m);
    expect(orders).toMatch(
      /^recent fills\nat +strategy +market +side +price +amount +ref_id\n-.*\n\d{4}-\d\d-\d\d \S+Z +\S+ +BTCUSD +BUY/m,
    );

    const halt = await runCli(['ctl', 'halt', '--journal', journal, '--reason', 'lunch'], env);
    expect(halt.stdout).toBe('halt: done\n  trading: halted: operator (halted by an operator: lunch) (reducing orders still pass)\n');
    const halted = JSON.parse((await runCli(['ctl', 'status', '--url', url, '--json'], env)).stdout);
    expect(JSON.stringify(halted.trading)).toMatch(/halted/);
    const resumed = await runCli(['ctl', 'resume', '--url', url], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse((await runCli(['ctl', 'status', '--url', url, '--json'], env)).stdout).trading)).toMatch(/running/);

    // exit names the strategy whose own position it sells; the run names those that run
    const exitless = await runCli(['ctl', 'exit', '--url', url], env);
    expect([exitless.code, exitless.stderr]).toEqual([
      2,
      expect.stringMatching(/exit needs the strategy to exit: tradeloop ctl exit STRATEGY/),
    ]);
    expect((await runCli(['ctl', 'halt', 'someone', '--url', url], env)).stderr).toMatch(
      /a strategy goes with exit, pause and resume only/,
    );
    expect((await runCli(['ctl', 'pause', '--url', url], env)).stderr).toMatch(
      /pause needs the strategy to pause: tradeloop ctl pause STRATEGY/,
    );
    const nobody = await runCli(['ctl', 'exit', 'nobody', '--market', 'BTCUSD', '--url', url], env);
    expect([nobody.code, nobody.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: unknown strategy "nobody": no running strategy is named "nobody": running: ops-probe/),
    ]);

    const stop = await runCli(['ctl', 'stop', '--url', url], env);
    expect(stop.code, stop.stderr).toBe(0);
    await waitFor(() => run.proc.child.exitCode !== null, 'the run to exit', 30_000);
    expect(run.proc.child.exitCode).toBe(0);
    const gone = await runCli(['ctl', 'status', '--url', url], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no bot answers at http:\/\/127\.0\.0\.1:\d+ .*is it running with --ui/);
    // a clean exit removes the file: ctl says no bot runs for that journal
    expect(existsSync(`${journal}.dashboard.json`)).toBe(false);
    const noBot = await runCli(['ctl', 'status', '--journal', journal], env);
    expect([noBot.code, noBot.stderr]).toEqual([
      1,
      expect.stringContaining(`error: no bot running for ${journal} (no ${journal}.dashboard.json)`),
    ]);
  });

  it(
    'says no bot runs for a journal whose run was killed (its dashboard file left behind, its pid gone)',
    { timeout: 90_000 },
    async () => {
      const run = await startUiRun(start);
      const journal = join(run.cwd, 'journal.sqlite');
      expect((await runCli(['ctl', 'status', '--json', '--journal', journal], { TRADELOOP_UI_TOKEN: TOKEN })).code).toBe(0);
      run.proc.child.kill('SIGKILL');
      await waitFor(() => run.proc.child.exitCode !== null || run.proc.child.signalCode !== null, 'the run to die', 30_000);
      expect(existsSync(`${journal}.dashboard.json`)).toBe(true);
      const r = await runCli(['ctl', 'status', '--journal', journal], { TRADELOOP_UI_TOKEN: TOKEN });
      expect([r.code, r.stderr]).toEqual([
        1,
        expect.stringContaining(`error: no bot running for ${journal}: ${journal}.dashboard.json names pid ${run.proc.child.pid} `),
      ]);
    },
  );
});
