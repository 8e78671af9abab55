import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthError, createApiClient, TRADING_BOT_SCOPES, TransportError, UnsafeTargetError } from '../../src/api/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import { checkEnvironmentTargets, checkGrantedScopes } from '../../src/live/credential-checks.js';
import { Journal } from '../../src/exec/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../cli/cli-helpers.js';
import { startReliabilityHarness } from '../support/reliability-harness.js';
import { tempDir } from '../support/reliability-procs.js';
import { churnStrategy } from '../support/reliability-strategies.js';

const CANARY = 'canary-c4n4ry-s3cr3t-7d1f';
const ROOT = resolve(import.meta.dirname, '../..');

/** Every file under `dir` (recursively), as bytes decoded leniently. */
function allBytes(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

describe('canary secrets never leave the process', () => {
  it(
    'not in logs, errors, the journal (with its WAL), run views and summaries, or recorded runs — under faults and a 401 burst',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir('canary');
      const h = await startReliabilityHarness({
        strategies: () => [{ definition: churnStrategy }],
        clientSecret: CANARY,
        journalPath: join(dir, 'journal.sqlite'),
        record: join(dir, 'recorded.jsonl'),
        sandbox: {
          faults: {
            seed: 3,
            rules: [
              { mode: 'error5xx', rate: 0.05 },
              { mode: 'commit-drop', target: 'CreateOrder', rate: 0.1 },
              { mode: 'malformed', rate: 0.02 },
            ],
          },
        },
      });
      await h.step(20_000, 1_000);
      h.sandbox.revokeTokens();
      await h.step(20_000, 1_000);
      const view = JSON.stringify(h.run.view());
      expect(h.journal.intents().length).toBeGreaterThan(10);
      expect(h.responses.some((r) => r.status === 401)).toBe(true);
      await h.close();
      const summary = JSON.stringify(await h.run.stop('again'));
      expect(existsSync(join(dir, 'recorded.jsonl'))).toBe(true);
      expect(h.logs().length).toBeGreaterThan(1_000);
      for (const [what, text] of [
        ['logs', h.logs()],
        ['view', view],
        ['summary', summary],
        ['journal and recording', allBytes(dir)],
      ] as const) {
        expect(text.includes(CANARY), what).toBe(false);
        expect(text.toLowerCase().includes('bearer '), what).toBe(false);
      }
    },
  );

  it('a refused credential: the error, its JSON and the CLI output name the fix, never the secret', async () => {
    const sandbox = await startSandbox({ seed: 1 });
    try {
      const api = createApiClient({
        apiUrl: sandbox.apiUrl,
        tokenUrl: sandbox.tokenUrl,
        clientId: 'bot-7',
        clientSecret: CANARY,
        maxRetries: 0,
      });
      const err = await api.listProfiles().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect(`${String(err)} ${JSON.stringify(err)} ${(err as Error).stack}`).not.toContain(CANARY);
      await api.close();
      const dir = tempDir('canary-cli');
      const config = join(dir, 'bot.yaml');
      writeFileSync(
        config,
        `environment: local\napi: { base_url: ${sandbox.apiUrl} }\nstrategies:\n  - plugin: sma-cross\njournal: { path: ${join(dir, 'j.sqlite')} }\n`,
      );
      const r = await runCli(['run', '--config', config, '--duration', '1s'], {
        TRADELOOP_CLIENT_ID: 'bot-7',
        TRADELOOP_CLIENT_SECRET: CANARY,
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/TRADELOOP_CLIENT_SECRET/);
      expect(`${r.stdout}${r.stderr}`).not.toContain(CANARY);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the client never sends a credential in clear or to an unverified host', () => {
  it.each(['http://api.example.com/v2', 'http://127.0.0.1.nip.io/v2', 'http://localhost.evil.test/v2', 'http://10.0.0.1/v2'])(
    'refuses plain http to %s',
    (url) => {
      expect(() => createApiClient({ apiUrl: url })).toThrow(UnsafeTargetError);
      expect(() =>
        createApiClient({
          apiUrl: 'https://api.example.com/v2',
          tokenUrl: url.replace('/v2', '/oauth2/token'),
          clientId: 'a',
          clientSecret: 'b',
        }),
      ).toThrow(UnsafeTargetError);
    },
  );

  it('allows plain http on loopback only, and the local credential nowhere else', () => {
    expect(() => createApiClient({ apiUrl: 'http://127.0.0.1:9/v2' })).not.toThrow();
    expect(() => createApiClient({ apiUrl: 'http://[::1]:9/v2' })).not.toThrow();
    expect(() =>
      createApiClient({
        apiUrl: 'https://api.example.com/v2',
        clientId: LOCAL_CLIENT_ID,
        clientSecret: LOCAL_CLIENT_SECRET,
        tokenUrl: 'https://api.example.com/oauth2/token',
      }),
    ).toThrow(/local development credential/);
  });

  it('no source file turns TLS verification off', () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && e.name.endsWith('.ts'),
    );
    for (const f of files) {
      const text = readFileSync(join(f.parentPath, f.name), 'utf8');
      expect(text, f.name).not.toMatch(/rejectUnauthorized|NODE_TLS_REJECT_UNAUTHORIZED|checkServerIdentity/);
    }
  });

  it.skipIf(!existsSync('/usr/bin/openssl'))(
    'refuses a self-signed certificate on an https server (the request never reaches it)',
    async () => {
      const dir = tempDir('tls');
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
          '1',
          '-subj',
          '/CN=127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      let reached = 0;
      const server = createServer({ key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) }, (_req, res) => {
        reached++;
        res.end('{}');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      const api = createApiClient({ apiUrl: `https://127.0.0.1:${port}/v2`, maxRetries: 0 });
      const err = await api.listMarkets().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TransportError);
      expect(reached).toBe(0);
      await api.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  );
});

describe('the runner checks what the credential may do and where it goes', () => {
  it('granted scopes must be exactly the needed ones', () => {
    expect(() => checkGrantedScopes(new Set(TRADING_BOT_SCOPES), TRADING_BOT_SCOPES)).not.toThrow();
    expect(() => checkGrantedScopes(undefined, TRADING_BOT_SCOPES)).not.toThrow();
    expect(() => checkGrantedScopes(new Set(TRADING_BOT_SCOPES.slice(1)), TRADING_BOT_SCOPES)).toThrow(
      /api\.scopes: the credential was not granted exchange:read_order/,
    );
    expect(() => checkGrantedScopes(new Set([...TRADING_BOT_SCOPES, 'transfer:write_crypto_withdrawal']), TRADING_BOT_SCOPES)).toThrow(
      /scopes the bot does not need \(transfer:write_crypto_withdrawal\)/,
    );
  });

  it('tradeloop run refuses a credential missing a scope before any order (real runner, local sandbox)', async () => {
    const sandbox = await startSandbox({
      seed: 1,
      clients: [
        {
          clientId: LOCAL_CLIENT_ID,
          clientSecret: LOCAL_CLIENT_SECRET,
          scopes: TRADING_BOT_SCOPES.filter((s) => s !== 'exchange:write_order'),
        },
      ],
    });
    try {
      const dir = tempDir('scopes');
      const config = join(dir, 'bot.yaml');
      writeFileSync(
        config,
        `environment: local\napi: { base_url: ${sandbox.apiUrl} }\nstrategies:\n  - plugin: sma-cross\njournal: { path: ${join(dir, 'j.sqlite')} }\n`,
      );
      const r = await runCli(['run', '--config', config, '--duration', '1s'], {});
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/api\.scopes: the credential was not granted exchange:write_order/);
      expect(sandbox.sim.orders()).toHaveLength(0);
    } finally {
      await sandbox.close();
    }
  });

  it('sandbox hosts under environment production and production hosts under sandbox are refused', () => {
    expect(() => checkEnvironmentTargets('production', { 'api.base_url': 'https://api.sandbox.paxos.com/v2' })).toThrow(
      /api\.base_url: api\.sandbox\.paxos\.com is a sandbox host but environment is production/,
    );
    expect(() => checkEnvironmentTargets('sandbox', { 'api.token_url': 'https://oauth.paxos.com/oauth2/token' })).toThrow(
      /api\.token_url: oauth\.paxos\.com is a production host but environment is sandbox/,
    );
    expect(() =>
      checkEnvironmentTargets('sandbox', {
        'api.base_url': 'https://api.sandbox.paxos.com/v2',
        'api.token_url': 'https://oauth.sandbox.paxos.com/oauth2/token',
      }),
    ).not.toThrow();
    expect(() => checkEnvironmentTargets('production', { 'api.base_url': 'https://api.paxos.com/v2' })).not.toThrow();
  });

  it('tradeloop run refuses production credentials toward a sandbox URL, naming the field', async () => {
    const dir = tempDir('env-mix');
    const config = join(dir, 'bot.yaml');
    writeFileSync(
      config,
      'environment: production\nconfirm_production: true\napi: { base_url: "https://api.sandbox.paxos.com/v2" }\nstrategies:\n  - plugin: sma-cross\n',
    );
    const r = await runCli(['run', '--config', config], { TRADELOOP_CLIENT_ID: 'id', TRADELOOP_CLIENT_SECRET: CANARY });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/api\.base_url: api\.sandbox\.paxos\.com is a sandbox host but environment is production/);
    expect(r.stderr).not.toContain(CANARY);
  });

  it('a journal stays bound to its environment', async () => {
    const dir = tempDir('journal-env');
    const file = join(dir, 'j.sqlite');
    const j = new Journal(file);
    j.setMeta('environment', 'sandbox');
    j.close();
    const config = join(dir, 'bot.yaml');
    writeFileSync(config, `environment: local\nstrategies:\n  - plugin: sma-cross\njournal: { path: ${file} }\n`);
    const r = await runCli(['run', '--config', config, '--duration', '1s'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/journal\.path: this journal belongs to environment sandbox, not local/);
  });
});
