/**
 * `tradeloop ctl` against a bot behind TLS: an https:// URL is taken; a certificate the client does
 * not trust is refused saying so (and how to trust it) before the token is sent; with its authority
 * in NODE_EXTRA_CA_CERTS the call goes through; an https URL nobody answers is a clear message;
 * other schemes are refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import { tempDir, useTradeloop } from '../support/reliability-procs.js';

const TOKEN = 'tls-token-0123456789abcdef';
const start = useTradeloop();
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('tradeloop ctl over https', () => {
  it('refuses schemes other than http and https, and words an https address nobody answers', async () => {
    const env = { TRADELOOP_UI_TOKEN: TOKEN };
    for (const url of ['ftp://127.0.0.1:8787', 'ws://127.0.0.1:8787', 'file:///etc/passwd', 'not a url']) {
      const r = await runCli(['ctl', 'status', '--url', url], env);
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toMatch(/is not an http:\/\/ or https:\/\/ address/);
    }
    const port = await closedPort();
    const gone = await runCli(['ctl', 'status', '--url', `https://127.0.0.1:${port}`], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(
      new RegExp(`^error: no bot answers at https://127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED.*\\): is it running with --ui`),
    );
    expect(gone.stderr).not.toMatch(/\n\s+at |unexpected error/);
  });

  it.skipIf(!existsSync('/usr/bin/openssl'))(
    'calls a TLS server: an untrusted self-signed certificate is refused naming NODE_EXTRA_CA_CERTS, and trusted through it',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir('ctl-tls');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'k.pem'),
          '-out',
          join(dir, 'c.pem'),
          '-days',
          '2',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const seen: string[] = [];
      server = createHttpsServer({ key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) }, (req, res) => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization === `Bearer ${TOKEN}` ? 'token' : 'no token'}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ trading: { state: 'running' } }));
      });
      await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
      const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;

      const untrusted = await runCli(['ctl', 'status', '--url', url], { TRADELOOP_UI_TOKEN: TOKEN });
      expect(untrusted.code).toBe(1);
      expect(untrusted.stderr).toMatch(
        new RegExp(
          `^error: the TLS certificate of ${url.replace(/\./g, '\\.')} is not trusted \\(self[- ]signed certificate\\): give ctl the certificate .* NODE_EXTRA_CA_CERTS=`,
        ),
      );
      expect(untrusted.stderr).not.toMatch(/\n\s+at |unexpected error/);
      expect(seen).toEqual([]);

      // Node reads NODE_EXTRA_CA_CERTS when it starts: a real ctl process
      const trusted = start(['ctl', 'status', '--json', '--url', url], dir, {
        TRADELOOP_UI_TOKEN: TOKEN,
        NODE_EXTRA_CA_CERTS: join(dir, 'c.pem'),
      });
      expect(await trusted.exit, trusted.err()).toBe(0);
      expect(JSON.parse(trusted.out())).toEqual({ trading: { state: 'running' } });
      expect(seen).toEqual(['GET /api/status token']);
    },
  );
});
