import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { useTradeloop } from '../support/reliability-procs.js';
import { runCli } from './cli-helpers.js';

/** A bot folder: a config whose journal (and so run.log) lives in its own temp folder. */
function bot(extra = ''): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-logs-'));
  const config = join(dir, 'bot.yaml');
  writeFileSync(config, `strategies:\n  - plugin: sma-cross\njournal:\n  path: ${join(dir, 'state', 'journal.sqlite')}\n${extra}`);
  return { dir, config };
}

/** Runs the CLI in-process with stdout reporting a terminal, as `tradeloop run` sees one. */
async function runOnTerminal(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let out = '';
  let err = '';
  const stdout = Object.assign(new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) }), { isTTY: true });
  const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
  const code = await main(argv, { stdout, stderr, env: {} });
  return { code, stdout: out, stderr: err };
}

/** Pino's file transport writes from a worker: wait (bounded) until the file holds `text`. */
async function fileContaining(file: string, text: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const body = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (body.includes(text)) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

describe('where tradeloop run logs', () => {
  const tradeloop = useTradeloop();

  it('with the live panel on a terminal: to run.log beside the journal, human-readable, and says so', async () => {
    const { dir, config } = bot();
    const r = await runOnTerminal(['run', '--config', config, '--duration', '2s']);
    expect(r.code, r.stderr).toBe(0);
    const file = join(dir, 'state', 'run.log');
    expect(r.stderr).toContain(`logs: ${file} (the live panel owns the terminal; set log.file to choose another file)`);
    expect(r.stderr).toContain(`logs of this run: ${file}`);
    expect(r.stdout).toContain(`logs in ${file}`);
    // no log line reached the terminal
    expect(r.stderr).not.toMatch(/"level":|INFO/);
    const text = await fileContaining(file, 'trading sma-cross');
    expect(text).toMatch(/^\[\d{4}-\d{2}-\d{2} [\d:.]+\] INFO \(\d+\): trading sma-cross on BTCUSD in local$/m);
  }, 120_000);

  it('without a terminal: to stderr (JSON lines when stderr is no terminal either); log.file sends them to a file', async () => {
    const plain = bot();
    // a real process: its stderr is a pipe
    const proc = tradeloop(['run', '--config', plain.config, '--duration', '1s', '--json'], plain.dir);
    expect(await proc.exit, proc.err()).toBe(0);
    expect(proc.err()).toMatch(/^\{"level":30,.*"msg":"trading sma-cross on BTCUSD in local"\}$/m);
    expect(existsSync(join(plain.dir, 'state', 'run.log'))).toBe(false);

    const chosen = bot('log:\n  file: LOGFILE\n  pretty: false\n');
    const file = join(chosen.dir, 'bot.log');
    writeFileSync(chosen.config, readFileSync(chosen.config, 'utf8').replace('LOGFILE', file));
    const f = await runCli(['run', '--config', chosen.config, '--duration', '1s', '--json']);
    expect(f.code, f.stderr).toBe(0);
    expect(f.stderr).toContain(`logs: ${file}`);
    expect(f.stderr).not.toMatch(/"level":/);
    expect(await fileContaining(file, 'trading sma-cross')).toMatch(/^\{"level":30,.*"msg":"trading sma-cross on BTCUSD in local"\}$/m);
  }, 120_000);
});
