/**
 * `tradeloop ctl` finding its bot and the strategy actions: a dashboard file whose pid is gone is
 * reported as no bot running for that journal; pause STRATEGY and resume STRATEGY post
 * `{"strategy": NAME}` to /api/pause and /api/resume (checked against a server on 127.0.0.1 that
 * records each request), an unknown strategy and a bot without the route are said in our words.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeDashboardFile } from '../../src/live/dashboard-file.js';
import { runCli } from '../cli/cli-helpers.js';
import { tempDir } from '../support/reliability-procs.js';

const TOKEN = 'find-token-0123456789abcdef';
const env = { TRADELOOP_UI_TOKEN: TOKEN };
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

/** A control API that records each request and answers with `answer`. */
async function recordingBot(answer: (s: Seen) => [number, unknown]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = { method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body };
      seen.push(s);
      const [status, json] = answer(s);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

describe('tradeloop ctl: finding the bot, pause and resume of a strategy', () => {
  it('reports a dashboard file whose pid is gone as no bot running for the journal', async () => {
    const journal = join(tempDir('ctl-stale'), 'journal.sqlite');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeDashboardFile({ url: 'http://127.0.0.1:1/', pid: gone, startedAt: '2026-01-02T03:04:05.000Z', journal });
    const r = await runCli(['ctl', 'status', '--journal', journal], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: no bot running for ${journal}: ${journal}.dashboard.json names pid ${gone} (started 2026-01-02T03:04:05.000Z), which is gone (the run was killed); start the bot again, or give --url\n`,
    );
    const both = await runCli(['ctl', 'status', '--journal', journal, '--url', 'http://127.0.0.1:1'], env);
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/--url names the bot itself/)]);
  });

  it('posts {"strategy": NAME} to /api/pause and /api/resume (and exit as before), and words an unknown strategy and a missing route', async () => {
    const bot = await recordingBot((s) => {
      const body = JSON.parse(s.body || '{}') as { strategy?: string };
      if (s.path === '/api/pause' && body.strategy === 'old') return [404, { error: 'no such endpoint: /api/pause (GET /api lists them)' }];
      if (body.strategy === 'zed') return [404, { error: 'no running strategy is named "zed": running: alpha' }];
      if (s.path === '/api/exit')
        return [200, { strategy: body.strategy, exits: [{ market: 'BTCUSD', amount: '0.001', refId: 'x-9', outcome: 'approved' }] }];
      return [200, { strategy: body.strategy, state: s.path === '/api/pause' ? 'paused' : 'running' }];
    });
    const journal = join(tempDir('ctl-pause'), 'journal.sqlite');
    writeDashboardFile({ url: bot.url, pid: process.pid, startedAt: new Date(0).toISOString(), journal });

    const paused = await runCli(['ctl', 'pause', 'alpha', '--journal', journal], env);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toBe('pause: done for alpha\n  state: paused\n');
    const resumed = await runCli(['ctl', 'resume', 'alpha', '--journal', journal, '--json'], env);
    expect(JSON.parse(resumed.stdout)).toEqual({ strategy: 'alpha', state: 'running' });
    expect(bot.seen).toEqual([
      { method: 'POST', path: '/api/pause', authorization: `Bearer ${TOKEN}`, body: '{"strategy":"alpha"}' },
      { method: 'POST', path: '/api/resume', authorization: `Bearer ${TOKEN}`, body: '{"strategy":"alpha"}' },
    ]);

    const unknown = await runCli(['ctl', 'pause', 'zed', '--journal', journal], env);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'error: unknown strategy "zed": no running strategy is named "zed": running: alpha\n',
    ]);
    const older = await runCli(['ctl', 'pause', 'old', '--journal', journal], env);
    expect([older.code, older.stderr]).toEqual([
      1,
      expect.stringMatching(
        /^error: the bot at http:\/\/127\.0\.0\.1:\d+ has no pause \(no such endpoint: \/api\/pause .*\): it runs an older tradeloop/,
      ),
    ]);
    const mixed = await runCli(['ctl', 'resume', 'alpha', '--kill-switch', '--journal', journal], env);
    expect([mixed.code, mixed.stderr]).toEqual([
      2,
      expect.stringMatching(/--kill-switch goes with resume \(of trading, without a strategy\) only/),
    ]);
    const exit = await runCli(['ctl', 'exit', 'alpha', '--market', 'BTCUSD', '--journal', journal], env);
    expect(exit.stdout).toBe('exit: done for alpha\n  BTCUSD: sell 0.001 (approved)\n');
    expect(bot.seen.at(-1)).toMatchObject({ path: '/api/exit', body: '{"strategy":"alpha","market":"BTCUSD"}' });
    expect(bot.seen).toHaveLength(5);
  });
});
