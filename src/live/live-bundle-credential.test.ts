import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { silentLogger } from '../log/index.js';
import { buildLiveBundle } from './live-bundle.js';

const config = () =>
  parseConfig({
    environment: 'local',
    local: { port: 0 },
    journal: { path: join(mkdtempSync(join(tmpdir(), 'tradeloop-bundle-')), 'journal.sqlite') },
  });

describe('the embedded local sandbox of tradeloop run', () => {
  it('accepts the credential exported for the run (it answered 401 to anything but the default)', async () => {
    const env = { TRADELOOP_CLIENT_ID: 'desk-7', TRADELOOP_CLIENT_SECRET: 'canary-secret-for-bundle-test' };
    const bundle = await buildLiveBundle(config(), env, { log: silentLogger() });
    try {
      expect(bundle.sandbox).toBeDefined();
      expect(bundle.profileId).toMatch(/\S/);
      const token = await fetch(bundle.sandbox!.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=tradeloop-local-secret',
      });
      expect(token.status).toBe(401); // the run's own credential replaces the default
    } finally {
      await bundle.close();
    }
  });

  it('accepts the default credential when none is exported', async () => {
    const bundle = await buildLiveBundle(config(), {}, { log: silentLogger() });
    try {
      expect(bundle.profileId).toMatch(/\S/);
    } finally {
      await bundle.close();
    }
  });

  it('closes the sandbox it started when the run fails after it (the lock on its world is free for the next run)', async () => {
    const c = config();
    // a store the schema would refuse, as a config built in code may still hold
    const bad = { ...c, api: { ...c.api, rate_limit_store: 'redis://127.0.0.1:1/notadb' } };
    await expect(buildLiveBundle(bad, {}, { log: silentLogger() })).rejects.toThrow(
      /api\.rate_limit_store: database "notadb" .* is not a whole number/,
    );
    const next = await buildLiveBundle(c, {}, { log: silentLogger() });
    await next.close();
  });
});
