import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiClient, allScopes, createApiClient } from '../../src/api/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET } from '../../src/config/environment.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { tradeloop } from '../support/reliability-procs.js';
import { passthroughPerson, refusal } from '../support/sandbox-platform.js';
import { linesUntil } from '../support/child-lines.js';

describe('tradeloop sandbox: identity documents behind --documents or config local.documents', () => {
  let child: ChildProcess | undefined;
  let api: ApiClient | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    child = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Starts `tradeloop sandbox` with these arguments and a typed client against it; returns its stdout lines. */
  async function start(args: readonly string[], last = /^identity documents: on$/): Promise<string[]> {
    child = tradeloop(['sandbox', '--port', '0', ...args], tmpdir(), { NO_COLOR: '1' }).child;
    const lines = await linesUntil(child, last);
    const url = lines[0]!.slice('sandbox listening on '.length);
    api = createApiClient({
      apiUrl: `${url}/v2`,
      tokenUrl: `${url}/oauth2/token`,
      clientId: LOCAL_CLIENT_ID,
      clientSecret: LOCAL_CLIENT_SECRET,
      scopes: allScopes(),
      maxRetries: 0,
    });
    return lines;
  }

  /** Requests an upload address for a new person and uploads a small pdf to it; returns the listed documents. */
  async function uploadFlow(client: ApiClient): Promise<ReadonlyArray<{ name?: string }>> {
    const p = await client.createIdentity(passthroughPerson({}, 'doc-cli'));
    const slot = (await client.documentUpload(p.id, { name: 'passport.pdf', document_types: ['IDENTITY_VERIFICATION'] })) as {
      upload_url: string;
    };
    expect(slot.upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/identity\/document-uploads\//);
    expect((await fetch(slot.upload_url, { method: 'PUT', body: Buffer.from('%PDF-1.7 small') })).status).toBe(200);
    return (await client.listIdentityDocuments(p.id)).documents ?? [];
  }

  it('answers 403 without the switch', async () => {
    await start([], /^rate limits: /);
    const p = await api!.createIdentity(passthroughPerson({}, 'doc-off'));
    const r = await refusal(api!.documentUpload(p.id, { name: 'passport.pdf', document_types: ['IDENTITY_VERIFICATION'] }));
    expect([r.status, r.detail]).toEqual([
      403,
      expect.stringMatching(/document storage not enabled.*--documents \(config local.documents: true; /),
    ]);
    expect((await refusal(api!.listIdentityDocuments(p.id))).status).toBe(403);
  });

  it('serves the upload-URL flow with --documents', async () => {
    expect((await start(['--documents'])).slice(1)).toEqual(['faults: none', 'rate limits: off', 'identity documents: on']);
    expect((await uploadFlow(api!)).map((d) => d.name)).toEqual(['passport.pdf']);
  });

  it('serves the upload-URL flow with local.documents: true in the config file, and --documents is off by default', async () => {
    expect(ConfigSchema.parse({}).local.documents).toBe(false);
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-docs-'));
    const file = join(dir, 'sandbox.yaml');
    writeFileSync(file, 'local:\n  seed: 7\n  documents: true\n');
    await start(['--config', file]);
    expect((await uploadFlow(api!)).map((d) => d.name)).toEqual(['passport.pdf']);
  });

  it('refuses a config whose local.documents is not a boolean, naming the key', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-docs-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'local:\n  documents: sometimes\n');
    const run = tradeloop(['sandbox', '--port', '0', '--config', file], tmpdir());
    child = run.child;
    const code = await run.exit;
    expect(code).toBe(2);
    expect(run.err()).toContain('local.documents');
  });
});
