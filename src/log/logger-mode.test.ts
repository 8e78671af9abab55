import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const CANARY = 'canary-5c1d-secret-77';
const TOKEN = 'tok-canary-0b9e2f';
const LOGGER = pathToFileURL(fileURLToPath(new URL('./logger.ts', import.meta.url))).href;
const REDACT = pathToFileURL(fileURLToPath(new URL('./redact.ts', import.meta.url))).href;

/**
 * Runs a child process that builds the root logger the way commands do (no destination: it writes
 * to stderr) and logs secrets in several places. `tty` makes the child's stderr report isTTY, as a
 * terminal does; `pretty` is the logger's explicit setting, when given.
 */
function logInChild(tty: boolean, pretty?: boolean): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const script = `
    if (${tty}) Object.defineProperty(process.stderr, 'isTTY', { value: true });
    const { createLogger } = await import(${JSON.stringify(LOGGER)});
    const { SecretSet } = await import(${JSON.stringify(REDACT)});
    const secrets = new SecretSet();
    secrets.add(${JSON.stringify(CANARY)});
    const log = createLogger({ secrets${pretty === undefined ? '' : `, pretty: ${pretty}`} });
    log.info({ headers: { authorization: 'Bearer ${TOKEN}' }, client_secret: ${JSON.stringify(CANARY)}, orders: 3 }, 'request sent');
    log.warn('grant_type=client_credentials&client_secret=${CANARY}');
    log.error({ err: new Error('failed with ${CANARY}'), deep: { access_token: '${TOKEN}' } }, 'call failed');
  `;
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-log-mode-'));
  const file = join(dir, 'child.mjs');
  writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    // A script file, not -e: pino's transport worker inherits the exec arguments.
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

// eslint-disable-next-line no-control-regex -- pino-pretty colours its output
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

function expectNoSecrets(text: string): void {
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain(TOKEN);
  expect(text).toContain('[REDACTED]');
}

function expectJsonLines(stderr: string): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(3);
  const records = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
  expect(records.map((r) => [r.level, r.msg])).toEqual([
    [30, 'request sent'],
    [40, 'grant_type=client_credentials&client_secret=[REDACTED]'],
    [50, 'call failed'],
  ]);
}

function expectPretty(stderr: string): void {
  const text = plain(stderr);
  expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO \(\d+\): request sent$/m);
  expect(text).toMatch(/^\[[\d:.]+\] WARN \(\d+\): grant_type=client_credentials&client_secret=\[REDACTED\]$/m);
  expect(text).toMatch(/^\[[\d:.]+\] ERROR \(\d+\): call failed$/m);
  expect(text).toMatch(/^ {4}orders: 3$/m);
  // Not JSON lines: the first line is not an object.
  expect(() => JSON.parse(text.split('\n')[0]!) as unknown).toThrow();
}

describe('log output mode', () => {
  it('is human-readable on a TTY and JSON lines otherwise, with secrets redacted in both', async () => {
    const [tty, pipe] = await Promise.all([logInChild(true), logInChild(false)]);
    expect(tty.code, tty.stderr).toBe(0);
    expect(pipe.code, pipe.stderr).toBe(0);
    expectPretty(tty.stderr);
    expectNoSecrets(plain(tty.stderr));
    expectJsonLines(pipe.stderr);
    expectNoSecrets(pipe.stderr);
    // Logs never go to stdout: it carries command results only.
    expect(tty.stdout + pipe.stdout).toBe('');
  });

  it('follows an explicit setting over the TTY check', async () => {
    const [jsonOnTty, prettyOnPipe] = await Promise.all([logInChild(true, false), logInChild(false, true)]);
    expect(jsonOnTty.code, jsonOnTty.stderr).toBe(0);
    expect(prettyOnPipe.code, prettyOnPipe.stderr).toBe(0);
    expectJsonLines(jsonOnTty.stderr);
    expectPretty(prettyOnPipe.stderr);
    expectNoSecrets(plain(prettyOnPipe.stderr));
  });
});
