/**
 * The control API and /metrics of a real `tradeloop run --ui` on the embedded sandbox, over the wire:
 * no token or a wrong one is refused (401) on every read, action and /metrics; a foreign Host or a
 * cross-site Origin is refused (403) even with the token; with it, the reads answer, halt / resume /
 * cancel-all act on the run, /metrics parses as the Prometheus text format and its counters move
 * with trading, and stop ends the run cleanly (exit 0, its summary printed).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';
import { startUiRun, TOKEN, uiConfig } from './ops-cli.js';
import { parsePrometheusText } from './prometheus-text.js';

const start = useTradeloop();

/** A raw request with chosen Host and Origin headers (fetch would set Host itself). */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status code of the answer to `request`, written on a raw TCP socket as it stands. */
function rawLine(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.end(request);
  });
}

describe('tradeloop run --ui: control API and /metrics', () => {
  it(
    'refuses requests without the token or with a wrong one, and foreign Host or Origin; acts and counts with it; stop exits cleanly',
    { timeout: 90_000 },
    async () => {
      const run = await startUiRun(start);
      expect(run.proc.err()).not.toContain(TOKEN); // a token from the environment is never printed

      // the page and its scripts carry no data: served without the token
      const page = await run.api('/', { token: null });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<script src="/assets/app.js">');
      expect((await run.api('/assets/uplot.js', { token: null })).text.length).toBeGreaterThan(10_000);

      for (const token of [null, 'wrong-token-0123456789abcdef', `${TOKEN}x`]) {
        for (const path of ['/api/status', '/api/orders', '/api/decisions', '/api/events', '/metrics'])
          expect((await run.api(path, { token })).status, `${path} with ${token}`).toBe(401);
        for (const action of ['halt', 'resume', 'cancel-all', 'stop']) {
          const res = await run.api(`/api/${action}`, { method: 'POST', body: {}, token });
          expect(res.status, `${action} with ${token}`).toBe(401);
          expect(res.body.error).toMatch(/bearer token is required/);
        }
      }
      const auth = { authorization: `Bearer ${TOKEN}` };
      const port = new URL(run.url).port;
      expect(await rawGet(`${run.url}api/status`, { ...auth, host: `127.0.0.1:${port}` })).toBe(200);
      expect(await rawGet(`${run.url}api/status`, { ...auth, host: `attacker.example:${port}` })).toBe(403);
      expect(await rawGet(`${run.url}api/status`, { ...auth, host: `127.0.0.1:${port}`, origin: 'https://attacker.example' })).toBe(403);
      expect((await run.api('/api/halt', { method: 'POST', body: {}, headers: { origin: 'http://attacker.example' } })).status).toBe(403);
      expect((await run.api('/api/status')).body.trading.state).toBe('running'); // nothing refused acted

      // request lines a browser never sends, on a raw socket: 4xx before any token is looked at, and
      // no failed request logged (checked once the run has exited)
      const lines: ReadonlyArray<readonly [string, number]> = [
        ['GET http://[ HTTP/1.1', 400],
        ['GET https://[zz]/api/status HTTP/1.1', 400],
        ['OPTIONS * HTTP/1.1', 400],
        ['GET //x/api/status HTTP/1.1', 404],
        [`GET http://attacker.example:${port}/api/status HTTP/1.1`, 403],
      ];
      for (const [line, want] of lines)
        expect(await rawLine(Number(port), `${line}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`), line).toBe(want);

      // trading: a fill and a resting order
      await waitFor(
        async () => (await run.api('/api/orders')).body.open.length > 0 && (await run.api('/api/status')).body.counters.fills > 0,
        'an open order and a fill',
        60_000,
      );
      const metrics1 = parsePrometheusText((await run.api('/metrics')).text);
      const intents1 = metrics1.get('tradeloop_intents_total{strategy="ops-probe"}') ?? 0;
      expect(intents1).toBeGreaterThan(0);
      expect(metrics1.get('tradeloop_fills_total{market="BTCUSD",side="BUY"}')).toBeGreaterThan(0);
      expect(metrics1.get('tradeloop_equity{asset="USD"}')).toBeGreaterThan(0);
      expect(metrics1.get('tradeloop_orders{state="open"}')).toBeGreaterThan(0);
      expect([...metrics1.keys()].some((k) => k.startsWith('tradeloop_stream_age_seconds{stream='))).toBe(true);
      expect(metrics1.has('nodejs_eventloop_lag_seconds')).toBe(true);
      expect(metrics1.get('tradeloop_journal_write_duration_seconds_count{operation="recordDecision"}')).toBeGreaterThan(0);

      // halt: new intents denied HALTED, orders left open; the counters move
      expect((await run.api('/api/halt', { method: 'POST', body: { reason: 'test' } })).body.trading).toMatchObject({
        state: 'halted',
        reason: 'halted by an operator: test',
      });
      await waitFor(
        async () => ((await run.api('/api/decisions')).body as { code?: string }[]).some((d) => d.code === 'HALTED'),
        'a HALTED denial',
        30_000,
      );
      const metrics2 = parsePrometheusText((await run.api('/metrics')).text);
      expect(metrics2.get('tradeloop_decisions_total{strategy="ops-probe",decision="deny",code="HALTED"}')).toBeGreaterThan(0);
      expect(metrics2.get('tradeloop_intents_total{strategy="ops-probe"}')).toBeGreaterThan(intents1);
      expect(metrics2.get('tradeloop_halted{cause="operator"}')).toBe(1);
      expect((await run.api('/api/orders')).body.open.length).toBeGreaterThan(0);

      // cancel-all: the kernel's cancel-everything, confirmed at the venue
      const open = ((await run.api('/api/orders')).body.open as { refId: string }[]).map((o) => o.refId);
      const cancelled = await run.api('/api/cancel-all', { method: 'POST' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.cancelled).toEqual(expect.arrayContaining(open));
      expect(cancelled.body.stillOpen).toEqual([]);
      expect((await run.api('/api/orders')).body.open).toEqual([]);

      // resume lifts an operator's halt; a malformed body is refused in words
      expect((await run.api('/api/resume', { method: 'POST', body: { kill_switch: 'yes' } })).status).toBe(400);
      expect((await run.api('/api/resume', { method: 'POST' })).body.trading.state).toBe('running');
      expect((await run.api('/api/nope', { method: 'POST' })).status).toBe(404);
      expect((await run.api('/api/halt')).status).toBe(405);

      // stop: a clean exit with the run's summary
      expect((await run.api('/api/stop', { method: 'POST' })).status).toBe(202);
      expect(await run.proc.exit, run.proc.err().slice(-2000)).toBe(0);
      const summary = JSON.parse(run.proc.out().trim().split('\n').at(-1) ?? '{}') as { fills: number; denials: Record<string, number> };
      expect(summary.fills).toBeGreaterThan(0);
      expect(summary.denials.HALTED).toBeGreaterThan(0);
      expect(run.proc.err()).toMatch(/stopping: stop requested through the control API/);
      expect(run.proc.err()).not.toMatch(/operations server: request failed/);
    },
  );

  it(
    'makes a token when TRADELOOP_UI_TOKEN is unset and prints it once with the URL, never in the logs',
    { timeout: 180_000 },
    async () => {
      const run = await startUiRun(start, {});
      const lines = run.proc.err().split('\n');
      const printed = lines.filter((l) => /#token=/.test(l));
      expect(printed).toHaveLength(1);
      const token = /#token=(\S+)/.exec(printed[0] as string)?.[1] as string;
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect((await run.api('/api/status')).status).toBe(200);
      expect((await run.api('/api/status', { token: 'x'.repeat(token.length) })).status).toBe(401);
      await run.api('/api/stop', { method: 'POST' });
      expect(await run.proc.exit).toBe(0);
      expect(lines.filter((l) => l.includes(token) && !l.startsWith('dashboard: '))).toEqual([]);
      expect(run.proc.err().split(token).length - 1).toBe(1);
    },
  );

  it('refuses a short TRADELOOP_UI_TOKEN before starting, naming the variable', { timeout: 120_000 }, async () => {
    const { cwd, config } = uiConfig();
    const proc = start(['run', '--config', config, '--ui', '--duration', '5s'], cwd, { TRADELOOP_UI_TOKEN: 'short' });
    expect(await proc.exit).toBe(2);
    expect(proc.err()).toMatch(/TRADELOOP_UI_TOKEN: must be at least 16 characters/);
    expect(proc.err()).not.toMatch(/short/);
  });
});
