import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

function file(text: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'tradeloop-fail-')), 'c.yaml');
  writeFileSync(f, text);
  return f;
}

/** A port that something else holds, on 127.0.0.1. */
async function occupiedPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
async function closedPort(): Promise<number> {
  const { server, port } = await occupiedPort();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const SECRETS = { TRADELOOP_CLIENT_ID: 'id-1', TRADELOOP_CLIENT_SECRET: 'canary-fail-s3cret' };

describe('a port in use or a host that cannot be reached', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });

  it('run: a port in use names the port and the config key, exit 2, no stack trace', async () => {
    const { server, port } = await occupiedPort();
    servers.push(server);
    const config = file(
      `local:\n  port: ${port}\nstrategies:\n  - plugin: sma-cross\njournal:\n  path: ${join(mkdtempSync(join(tmpdir(), 'tradeloop-j-')), 'j.sqlite')}\n`,
    );
    const r = await runCli(['run', '--config', config, '--duration', '1s', '--json']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `port ${port} on 127\\.0\\.0\\.1 is already in use by another program .*: stop it, or choose another port with local\\.port in .*c\\.yaml \\(0 picks a free one\\)`,
      ),
    );
    expect(r.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
  });

  it('sandbox: a port in use names the port and the flag, exit 2', async () => {
    const { server, port } = await occupiedPort();
    servers.push(server);
    const r = await runCli(['sandbox', '--port', String(port)]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use.*--port`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown API host names the host and the config key that set it, exit 2', async () => {
    const config = file(
      'environment: sandbox\napi:\n  base_url: https://no-such-host.invalid/v2\n  token_url: https://no-such-auth.invalid/oauth2/token\n  max_retries: 0\nstrategies:\n  - plugin: sma-cross\n',
    );
    const r = await runCli(['run', '--config', config, '--duration', '1s', '--json'], SECRETS);
    expect(r.code, r.stderr).toBe(2);
    // the run asks for a token first
    expect(r.stderr).toMatch(
      /cannot reach no-such-auth\.invalid: no such host \(ENOTFOUND\); the token URL https:\/\/no-such-auth\.invalid\/oauth2\/token is set by api\.token_url in .*c\.yaml: correct the host name there/,
    );
    // a public operation needs no token: the API host is the one named
    const api = await runCli(['api', 'GetOrderBook', '--market', 'BTCUSD', '--config', config], SECRETS);
    expect(api.code, api.stderr).toBe(2);
    expect(api.stderr).toMatch(
      /cannot reach no-such-host\.invalid: no such host \(ENOTFOUND\); the API URL https:\/\/no-such-host\.invalid\/v2 is set by api\.base_url in .*c\.yaml: correct the host name there/,
    );
    expect(r.stderr + api.stderr).not.toContain('canary-fail-s3cret');
  });

  it('a refused API host names the host and the setting, exit 1', async () => {
    const port = await closedPort();
    const config = file(`api:\n  base_url: http://127.0.0.1:${port}/v2\n  max_retries: 0\nstrategies:\n  - plugin: sma-cross\n`);
    const r = await runCli(['run', '--config', config, '--duration', '1s', '--json']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `127\\.0\\.0\\.1:${port} refused the connection \\(ECONNREFUSED\\): nothing listens there; the token URL http://127\\.0\\.0\\.1:${port}/oauth2/token is set by api\\.base_url in .*c\\.yaml \\(the token URL follows the API URL's host\\)`,
      ),
    );
    const api = await runCli(['api', 'GetTicker', '--market', 'BTCUSD', '--config', config, '--base-url', `http://127.0.0.1:${port}/v2`]);
    expect(api.code, api.stderr).toBe(1);
    expect(api.stderr).toMatch(
      new RegExp(`127\\.0\\.0\\.1:${port} refused the connection .*the API URL http://127\\.0\\.0\\.1:${port}/v2 is set by --base-url`),
    );
  });
});
