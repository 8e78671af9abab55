import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfig } from './load.js';
import { LOCAL_CLIENT_ID, MissingSecretError, resolveEnvironment } from './environment.js';

function yamlFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-cfg-'));
  const file = join(dir, 'c.yaml');
  writeFileSync(file, text);
  return file;
}

describe('config', () => {
  it('applies defaults to an empty file', () => {
    const cfg = parseConfig({});
    expect(cfg.environment).toBe('local');
    expect(cfg.api.rate_limit_penalty_ms).toBe(300_000);
    expect(Object.isFrozen(cfg.api)).toBe(true);
  });

  it('reports every problem at once with its path', () => {
    const file = yamlFile('environment: moon\napi:\n  connect_timeout_ms: -1\n  colour: red\n');
    try {
      loadConfigFile(file);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const paths = (e as ConfigError).problems.map((p) => p.path).sort();
      expect(paths).toEqual(['api', 'api.connect_timeout_ms', 'environment']);
      expect((e as ConfigError).message).toContain('unknown key(s) "colour"');
      expect((e as ConfigError).message).toContain('"local", "sandbox", "production"');
    }
  });

  it('refuses production without confirmation', () => {
    expect(() => parseConfig({ environment: 'production' })).toThrow(/confirm_production/);
    expect(parseConfig({ environment: 'production', confirm_production: true }).environment).toBe('production');
  });

  it('reports YAML syntax errors with the line', () => {
    expect(() => loadConfigFile(yamlFile('a: [1,\nb: 2\n'))).toThrow(/not valid YAML/);
  });

  it('takes secrets only from the environment, with the local fallback', () => {
    const local = resolveEnvironment(parseConfig({}), {});
    expect(local.clientId).toBe(LOCAL_CLIENT_ID);
    expect(local.localCredential).toBe(true);
    expect(() => resolveEnvironment(parseConfig({ environment: 'sandbox' }), {})).toThrow(MissingSecretError);
    const sb = resolveEnvironment(parseConfig({ environment: 'sandbox' }), {
      TRADELOOP_CLIENT_ID: 'id',
      TRADELOOP_CLIENT_SECRET: 'canary-secret-123',
    });
    expect(sb.apiUrl).toBe('https://api.sandbox.paxos.com/v2');
    expect(sb.tokenUrl).toBe('https://oauth.sandbox.paxos.com/oauth2/token');
  });
});
