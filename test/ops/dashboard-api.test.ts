/**
 * The dashboard's newer reads and the per-strategy pause over the wire, on a real `tradeloop run --ui`
 * on the embedded sandbox: /api/daily, /api/log and /api/config and the pause action are refused
 * without the token (401) and from a foreign Origin (403) like every other endpoint; with it, daily
 * P&L comes as decimal strings per UTC day, the log filters by level and never shows the token, the
 * config hides secret-named values; a paused strategy's intents come back denied PAUSED, the pause
 * survives a restart on the same journal (the start says so), and resume with the strategy lifts it.
 */
import { describe, expect, it } from 'vitest';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';
import { startUiRunOf, TOKEN, twoMarketsConfig, type UiRun } from './ops-cli.js';

const start = useTradeloop();

const deniedPaused = async (run: UiRun): Promise<boolean> =>
  ((await run.api('/api/decisions')).body as { code?: string }[]).some((d) => d.code === 'PAUSED');

describe('tradeloop run --ui: daily P&L, log, config, and pausing one strategy', () => {
  it('guards the new endpoints, answers them, and keeps a paused strategy paused across a restart', { timeout: 240_000 }, async () => {
    const { cwd, config } = twoMarketsConfig();
    let run = await startUiRunOf(start, cwd, config);

    for (const token of [null, 'wrong-token-0123456789abcdef']) {
      for (const path of ['/api/daily', '/api/log', '/api/config'])
        expect((await run.api(path, { token })).status, `${path} with ${token}`).toBe(401);
      expect((await run.api('/api/pause', { method: 'POST', body: { strategy: 'ops-probe' }, token })).status).toBe(401);
    }
    expect(
      (await run.api('/api/pause', { method: 'POST', body: { strategy: 'ops-probe' }, headers: { origin: 'http://attacker.example' } }))
        .status,
    ).toBe(403);
    expect(
      (await run.api('/api/resume', { method: 'POST', body: { strategy: 'ops-probe' }, headers: { origin: 'http://attacker.example' } }))
        .status,
    ).toBe(403);
    expect((await run.api('/api/strategies')).body.map((s: { state: string }) => s.state)).toEqual(['running', 'running']);

    await waitFor(async () => (await run.api('/api/daily')).body.days.length >= 2, 'a fill of each strategy in /api/daily', 60_000);
    const days = (await run.api('/api/daily')).body.days as Record<string, unknown>[];
    expect(days.map((d) => d.strategy).sort()).toEqual(['ops-probe', 'probe-eth']);
    for (const d of days) {
      expect(d).toMatchObject({ date: new Date().toISOString().slice(0, 10), quote: 'USD', trades: expect.any(Number) });
      expect(d.realized).toMatch(/^-?\d+(\.\d+)?$/);
      expect(d.fees).toMatch(/^\d+(\.\d+)?$/);
    }

    const config1 = (await run.api('/api/config')).body;
    expect(config1.ui).toMatchObject({ port: 0 });
    expect(config1.strategies.map((s: { name?: string }) => s.name ?? 'ops-probe')).toEqual(['ops-probe', 'probe-eth']);
    expect(JSON.stringify(config1)).not.toContain(TOKEN);

    // pause: the probe's next intents are denied PAUSED, the other strategy trades on
    expect((await run.api('/api/pause', { method: 'POST', body: { strategy: 'nobody' } })).body).toEqual({
      error: 'no running strategy is named "nobody": running: ops-probe, probe-eth',
    });
    const paused = await run.api('/api/pause', { method: 'POST', body: { strategy: 'ops-probe', reason: 'checking' } });
    expect(paused.body.paused).toMatchObject({ strategy: 'ops-probe', reason: 'paused by an operator: checking' });
    await waitFor(() => deniedPaused(run), 'a PAUSED denial', 60_000);
    const decisions = (await run.api('/api/decisions')).body as { strategy: string; code?: string }[];
    expect(decisions.filter((d) => d.code === 'PAUSED').every((d) => d.strategy === 'ops-probe')).toBe(true);
    expect((await run.api('/api/status')).body).toMatchObject({
      trading: { state: 'running' },
      pausedStrategies: [{ strategy: 'ops-probe' }],
    });

    const warn = (await run.api('/api/log?level=warn')).body;
    expect(warn.records.length).toBeGreaterThan(0);
    expect(warn.records.every((r: { level: string }) => ['warn', 'error', 'fatal'].includes(r.level))).toBe(true);
    expect(warn.records.map((r: { msg: string }) => r.msg)).toContain(
      'ops-probe paused: paused by an operator: checking; its open orders and position stay',
    );
    expect((await run.api('/api/log')).body.records.some((r: { level: string }) => r.level === 'info')).toBe(true);
    expect((await run.api('/api/log?level=loud')).status).toBe(400);
    expect((await run.api('/api/log')).text).not.toContain(TOKEN);

    // a restart on the same journal keeps it paused, and the start says so
    expect((await run.api('/api/stop', { method: 'POST' })).status).toBe(202);
    expect(await run.proc.exit, run.proc.err().slice(-2000)).toBe(0);
    run = await startUiRunOf(start, cwd, config);
    await waitFor(
      () => /ops-probe starts paused \(paused by an operator: checking, since /.test(run.proc.err()),
      'the start line naming the pause',
      30_000,
    );
    expect((await run.api('/api/strategies')).body.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([
      ['ops-probe', 'paused'],
      ['probe-eth', 'running'],
    ]);
    const resumed = await run.api('/api/resume', { method: 'POST', body: { strategy: 'ops-probe' } });
    expect(resumed.body).toMatchObject({ strategy: 'ops-probe', resumed: true });
    expect((await run.api('/api/strategies')).body.map((s: { state: string }) => s.state)).toEqual(['running', 'running']);
    expect((await run.api('/api/stop', { method: 'POST' })).status).toBe(202);
    expect(await run.proc.exit, run.proc.err().slice(-2000)).toBe(0);
    expect(run.proc.err()).not.toMatch(/operations server: request failed/);
  });
});
