/**
 * With the live panel on a terminal, which redraws the whole screen each second, the dashboard's line
 * (with the run's own token) stays at the panel's foot, so the operator can still read it; the log
 * file beside the journal never holds the token.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

describe('tradeloop run --ui with the live panel', () => {
  it("keeps the dashboard line at the panel's foot and out of run.log", { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-ui-panel-'));
    const config = join(dir, 'bot.yaml');
    writeFileSync(
      config,
      [
        'strategies:',
        '  - plugin: grid-maker',
        'streams: { warmup_points: 3 }',
        'ui: { port: 0 }',
        `journal: { path: ${join(dir, 'journal.sqlite')} }`,
      ].join('\n'),
    );
    let out = '';
    let err = '';
    const stdout = Object.assign(new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) }), { isTTY: true });
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    const code = await main(['run', '--config', config, '--duration', '2s'], { stdout, stderr, env: { TRADELOOP_UI_TOKEN: '' } });
    expect(code, err).toBe(0);
    const line = /dashboard: http:\/\/127\.0\.0\.1:\d+\/#token=(\S+)/.exec(err);
    expect(line, err).not.toBeNull();
    const frames = out.split('\x1b[H\x1b[2J').filter((f) => f.trim() !== '');
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames.slice(0, -1)) expect(f.trimEnd().split('\n').at(-1)).toBe(line?.[0]);
    expect(frames.at(-1)).toContain(`\n${line?.[0]}\n`); // the last frame, followed by the summary
    const log = join(dir, 'run.log');
    if (existsSync(log)) expect(readFileSync(log, 'utf8')).not.toContain(line?.[1]);
  });
});
