import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { runCli } from '../cli/cli-helpers.js';

/** `tradeloop api --base-url … --token-url …` against the real local sandbox on a loopback port. */
describe('tradeloop api against the local sandbox', () => {
  let sb: SandboxHandle;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, seed: 3, funding: { USD: '4321.5' } });
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-cli-sandbox-'));
    config = join(dir, 'local.yaml');
    writeFileSync(config, 'environment: local\nlog:\n  level: error\n');
  });
  afterAll(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const target = (tokenUrl: string): string[] => ['--config', config, '--base-url', sb.apiUrl, '--token-url', tokenUrl];

  it('gets a token from --token-url and prints the response of an authenticated call', async () => {
    const r = await runCli(['api', 'GetProfileBalance', '--profile_id', 'default', '--asset', 'USD', ...target(sb.tokenUrl)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ asset: 'USD', available: '4321.5', trading: '0' });
  });

  it('creates a record through the sandbox and reads it back by id', async () => {
    const body = JSON.stringify({ side: 'BUY', market: 'ETHUSD', type: 'LIMIT', price: '100', base_amount: '1', ref_id: 'cli-sandbox-1' });
    const created = await runCli(['api', 'CreateOrder', '--profile_id', 'default', '--body', body, ...target(sb.tokenUrl)]);
    expect(created.code, created.stderr).toBe(0);
    const order = JSON.parse(created.stdout) as { id: string; status: string; ref_id: string };
    expect(order).toMatchObject({ status: 'OPEN', ref_id: 'cli-sandbox-1' });
    const listed = await runCli(['api', 'ListOrders', '--ref_ids', 'cli-sandbox-1', ...target(sb.tokenUrl)]);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { items: { id: string }[] }).items.map((o) => o.id)).toEqual([order.id]);
  });

  it('fails with exit 1, saying the token request failed and the token URL is likely wrong, when --token-url points at no token endpoint', async () => {
    const wrongPath = `${sb.url}/oauth2/nowhere`;
    const r = await runCli(['api', 'GetProfileBalance', '--profile_id', 'default', '--asset', 'USD', ...target(wrongPath)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines.at(-2)).toBe(
      `error [AUTH_FAILED]: the token request failed, no call was made: the token request to ${wrongPath} answered HTTP 404 Not Found: ` +
        "the token URL is likely wrong; set api.token_url in the config (or --token-url) to the platform's OAuth2 token endpoint, e.g. https://oauth.sandbox.paxos.com/oauth2/token",
    );
    expect(r.stderr).not.toContain('TRADELOOP_CLIENT_SECRET');
    const problem = JSON.parse(lines.at(-1)!) as { status: number; title: string; detail: string };
    expect(problem).toMatchObject({ status: 404, title: 'Not Found' });
    expect(problem.detail).toContain('/oauth2/nowhere');
    expect(r.stderr).not.toContain('tradeloop-local-secret');
  });

  it('fails with exit 1 naming the token request when nothing listens at --token-url', async () => {
    const port = await closedPort();
    const r = await runCli(['api', 'GetProfileBalance', '--profile_id', 'default', '--asset', 'USD', ...target(`http://127.0.0.1:${port}/oauth2/token`)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/refused the connection \(ECONNREFUSED\).*the token URL http:\/\/127\.0\.0\.1:\d+\/oauth2\/token is set by --token-url/);
    expect(r.stderr).not.toContain('tradeloop-local-secret');
  }, 30_000);
});

/** A loopback port with no listener (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
