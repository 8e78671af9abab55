import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/environment.js';
import { type Proc, tradeloop } from '../support/reliability-procs.js';
import { SandboxHttp } from '../support/sandbox-http.js';
import { linesUntil } from '../support/child-lines.js';

const SECRET_ENV = 'TRADELOOP_SANDBOX_CLIENT_SECRET';
/** A secret that must never show up in anything the command prints. */
const CANARY = 'canary-sandbox-secret-7f3e91';

interface Started extends Proc {
  /** Everything written to stdout and stderr so far. */
  output(): string;
}

async function tokenStatus(http: SandboxHttp, clientId: string, clientSecret: string): Promise<number> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  return (await http.send('POST', '/oauth2/token', { body: form.toString(), contentType: 'application/x-www-form-urlencoded' })).status;
}

describe('tradeloop sandbox: a credential of its own (--client-id / local.client_id, secret from the environment)', () => {
  let started: Started | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (started !== undefined && started.child.exitCode === null) {
      started.child.kill('SIGKILL');
      await started.exit;
    }
    started = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /**
   * `tradeloop sandbox --port 0 <args>` with the sandbox secret in its environment, or without the
   * variable at all (removed, not set empty) when `secret` is undefined.
   */
  const start = (args: readonly string[], secret: string | undefined): Started => {
    const proc = tradeloop(['sandbox', '--port', '0', ...args], tmpdir(), { NO_COLOR: '1', [SECRET_ENV]: secret });
    started = { ...proc, output: () => proc.out() + proc.err() };
    return started;
  };

  const configFile = (lines: readonly string[]): string => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-sandbox-credential-'));
    const file = join(dir, 'sandbox.yaml');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  it('accepts only --client-id with the secret from the environment; the default credential gets 401', async () => {
    const run = start(['--client-id', 'my-bot'], CANARY);
    const lines = await linesUntil(run.child, /^client id: /);
    expect(lines.slice(1)).toEqual(['faults: none', 'rate limits: off', 'client id: my-bot']);
    const url = lines[0]!.slice('sandbox listening on '.length);
    const http = new SandboxHttp(url);
    expect(await tokenStatus(http, 'my-bot', CANARY)).toBe(200);
    expect(await tokenStatus(http, LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET)).toBe(401);
    expect(await tokenStatus(http, 'my-bot', LOCAL_CLIENT_SECRET)).toBe(401);
    expect(await tokenStatus(http, LOCAL_CLIENT_ID, CANARY)).toBe(401);

    // the project's own client works end to end with the new credential
    const api = createApiClient({
      apiUrl: `${url}/v2`,
      tokenUrl: `${url}/oauth2/token`,
      clientId: 'my-bot',
      clientSecret: CANARY,
      maxRetries: 0,
    });
    try {
      const balances = await api.listProfileBalances('default', ['USD']);
      expect(balances.items).toEqual([{ asset: 'USD', available: '100000', trading: '0' }]);
    } finally {
      await api.close();
    }
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.output()).toContain('sandbox stopped');
    expect(run.output()).not.toContain(CANARY);
  });

  it('takes the id from local.client_id in the config file, logging at trace without ever printing the secret', async () => {
    const file = configFile(['local:', '  client_id: yaml-bot', 'log:', '  level: trace', '  pretty: false']);
    const run = start(['--config', file], CANARY);
    const lines = await linesUntil(run.child, /^client id: /);
    expect(lines.at(-1)).toBe('client id: yaml-bot');
    const http = new SandboxHttp(lines[0]!.slice('sandbox listening on '.length));
    expect(await tokenStatus(http, 'yaml-bot', CANARY)).toBe(200);
    expect(await tokenStatus(http, LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET)).toBe(401);
    const token = await http.token(['funding:read_profile'], 'yaml-bot', CANARY);
    expect((await http.get('/v2/profiles/default/balances?assets=USD', token)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.output()).not.toContain(CANARY);
  });

  // one process a case, each its own test: four starts of the CLI in one test took 14 s alone and 36 s on a busy machine
  it.each([
    ['--client-id', 'unset'],
    ['--client-id', 'blank'],
    ['local.client_id', 'unset'],
    ['local.client_id', 'blank'],
  ] as const)('exits 2 naming the variable when an id is given by %s with the secret %s in the environment', async (by, secret) => {
    const [args, source] =
      by === '--client-id'
        ? [['--client-id', 'my-bot'], '--client-id my-bot']
        : [['--config', configFile(['local:', '  client_id: yaml-bot'])], 'local.client_id in '];
    const run = start(args, secret === 'unset' ? undefined : '  ');
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain(source);
    expect(run.output()).toContain(`needs its secret in the environment variable ${SECRET_ENV}`);
    expect(run.output()).not.toContain('sandbox listening');
  });

  it('refuses a client_secret in the config file, pointing at the environment variable', async () => {
    const file = configFile(['local:', '  client_id: yaml-bot', `  client_secret: ${CANARY}`]);
    const run = start(['--config', file], CANARY);
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain('local.client_secret: secrets are never read from files');
    expect(run.output()).toContain(`export ${SECRET_ENV} instead`);
    expect(run.output()).not.toContain('sandbox listening');
    expect(run.output()).not.toContain(CANARY);
  });

  it('refuses a secret in the environment without an id rather than keep the default credential', async () => {
    const run = start([], CANARY);
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain(`${SECRET_ENV}: is set but no client id is given: pass --client-id ID`);
    expect(run.output()).not.toContain(CANARY);
  });

  it('refuses an id with spaces, naming the flag', async () => {
    const run = start(['--client-id', 'my bot'], CANARY);
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain('--client-id: expected a client id without spaces');
  });
});
