import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { SecretSet } from './redact.js';

const CANARY = 'canary-7f3e9a1b-secret';
const TOKEN = 'tok-canary-55aa66bb';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, stream };
}

describe('logger redaction', () => {
  it('never writes Authorization headers, client secrets or tokens', () => {
    const { lines, stream } = capture();
    const secrets = new SecretSet();
    secrets.add(CANARY);
    secrets.add(TOKEN);
    const log = createLogger({ destination: stream, secrets, pretty: false });
    log.info({ headers: { authorization: `Bearer ${TOKEN}` } }, 'request');
    log.info({ deep: { deeper: { client_secret: CANARY, note: `secret is ${CANARY}` } } }, 'nested');
    log.warn(`body grant_type=client_credentials&client_secret=${CANARY}`);
    log.error({ err: new Error(`failed with token ${TOKEN}`) }, 'boom');
    log.info({ list: [{ access_token: TOKEN }] }, `Authorization: Bearer ${TOKEN}`);
    const all = lines.join('');
    expect(lines.length).toBe(5);
    expect(all).not.toContain(CANARY);
    expect(all).not.toContain(TOKEN);
    expect(all).toContain('[REDACTED]');
  });
});
