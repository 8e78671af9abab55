import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxHttp } from '../support/sandbox-http.js';
import { firstLine, firstLines } from '../support/child-lines.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.js', import.meta.url));

describe('tradeloop sandbox (command)', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints its address when ready, serves the API and stops cleanly on SIGINT', async () => {
    child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--seed', '5'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    const line = await firstLine(child);
    expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    const http = new SandboxHttp(line.slice('sandbox listening on '.length));
    const token = await http.token(['funding:read_profile']);
    const grant = await http.send('POST', '/oauth2/token', {
      body: 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=tradeloop-local-secret',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(grant.body.expires_in).toBe(3599);
    const balances = await http.get('/v2/profiles/default/balances?assets=USD', token);
    expect(balances.body.items).toEqual([{ asset: 'USD', available: '100000', trading: '0' }]);
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('prints the active faults and keeps its state across a restart with --state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-cli-state-'));
    const file = join(dir, 'sandbox.json');
    try {
      const args = [BIN, 'sandbox', '--port', '0', '--state', file, '--faults', 'error5xx@/v2/markets=0.5,seed=3', '--truth'];
      child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const lines = await firstLines(child, 4);
      expect(lines.slice(1)).toEqual(['faults: error5xx@/v2/markets=50%', 'rate limits: off', `state: ${file} (new)`]);
      const http = new SandboxHttp(lines[0]!.slice('sandbox listening on '.length));
      const token = await http.token();
      await http.post('/v2/profiles', { nickname: 'kept' }, token);
      const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--state', file, '--truth'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const again = await firstLines(child, 4);
      expect(again[3]).toBe(`state: ${file} (restored)`);
      const truth = await new SandboxHttp(again[0]!.slice('sandbox listening on '.length)).get('/__sandbox/truth');
      expect(truth.body.profiles.map((p: { nickname: string }) => p.nickname)).toEqual(['default', 'kept']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits with code 2 and names the flag on bad input', async () => {
    child = spawn(process.execPath, [BIN, 'sandbox', '--speed', 'fast'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child!.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--speed');
  });
});
