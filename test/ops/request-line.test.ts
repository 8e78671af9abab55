/**
 * The operations server against request lines and headers a browser never sends, written on a raw
 * TCP socket: each gets a 4xx answer (never a 500), before any token is looked at, and nothing is
 * logged at error level; the server keeps serving.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { OpsState, RunMetrics, startOpsServer, type OpsServer } from '../../src/ops/index.js';
import { memoryLogger } from '../api/helpers.js';
import { stubRun } from './stub-run.js';

const TOKEN = 'line-token-0123456789abcdef';
let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Sends `request` as it stands and returns the whole answer (the server closes after it). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.end(request);
  });
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

describe('the operations server and malformed requests', () => {
  it('answers bad request targets and hostile Host headers with 4xx, logs nothing at error level, and goes on serving', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const stub = stubRun(clock);
    const state = new OpsState(stub.run);
    const metrics = new RunMetrics({ processMetrics: false });
    metrics.attach(stub.run, state);
    const { logger, lines } = memoryLogger();
    server = await startOpsServer({ host: '127.0.0.1', port: 0, token: TOKEN, run: stub.run, state, metrics, log: logger, timers: clock });
    const port = server.port;
    const here = `127.0.0.1:${port}`;
    const req = (line: string, headers: readonly string[] = [`Host: ${here}`]): string =>
      [line, ...headers, 'Connection: close', '', ''].join('\r\n');

    const cases: Array<[string, string, number]> = [
      ['an absolute-form target that does not parse', req('GET http://[ HTTP/1.1'), 400],
      ['an absolute-form target with a broken IPv6 host', req('GET http://[::1/api/status HTTP/1.1'), 400],
      ['an absolute-form target with a bad port', req(`GET http://127.0.0.1:99999/api/status HTTP/1.1`), 400],
      ['an https absolute-form target that does not parse', req('GET https://[zz]/ HTTP/1.1'), 400],
      ['the asterisk form', req('OPTIONS * HTTP/1.1'), 400],
      ['a target that is neither a path nor an http URL', req('GET x HTTP/1.1'), 400],
      ['a target of another scheme', req('GET ftp://127.0.0.1/ HTTP/1.1'), 400],
      ['an absolute-form target naming another host', req(`GET http://evil.example:${port}/api/status HTTP/1.1`), 403],
      ['a network-path target (a path, not a host: no page there)', req('GET //x HTTP/1.1'), 404],
      ['a network-path target under /api', req('GET //x/api/status HTTP/1.1'), 404],
      ['a garbage Host header', req('GET /api/status HTTP/1.1', ['Host: [::garbage']), 403],
      ['a Host header of percent signs and brackets', req('GET / HTTP/1.1', ['Host: %%[]:::']), 403],
      ['no Host header', req('GET /api/status HTTP/1.1', []), 400],
      ['an Origin that does not parse', req('GET /api/status HTTP/1.1', [`Host: ${here}`, 'Origin: http://[']), 403],
      [
        'a body cut short',
        req('POST /api/halt HTTP/1.1', [
          `Host: ${here}`,
          `Authorization: Bearer ${TOKEN}`,
          'Content-Type: application/json',
          'Content-Length: 100',
        ]).concat('{"reason"'),
        0,
      ],
    ];
    for (const [what, request, want] of cases) {
      const answer = await raw(port, request);
      const status = statusOf(answer);
      if (want === 0) expect(status === 0 || (status >= 400 && status < 500), `${what}: ${answer.slice(0, 200)}`).toBe(true);
      else expect(status, `${what}: ${answer.slice(0, 300)}`).toBe(want);
      expect(answer, what).not.toMatch(/internal error/);
    }
    // the well-formed absolute form is served as its path (a data request still needs the token)
    expect(statusOf(await raw(port, req(`GET http://${here}/api/status HTTP/1.1`)))).toBe(401);
    expect(
      statusOf(await raw(port, req(`GET http://${here}/api/status HTTP/1.1`, [`Host: ${here}`, `Authorization: Bearer ${TOKEN}`]))),
    ).toBe(200);
    expect(statusOf(await raw(port, req('GET /api/status HTTP/1.1', [`Host: ${here}`, `Authorization: Bearer ${TOKEN}`])))).toBe(200);
    expect(statusOf(await raw(port, req('GET / HTTP/1.1')))).toBe(200);
    const logged = lines()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
  });
});
