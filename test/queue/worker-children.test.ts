/**
 * `tradeloop worker --concurrency N` leaves no worker behind: its extra worker processes stop when the
 * parent ends, even when the parent is SIGKILLed (they hold an IPC channel to it, which closes).
 */
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/reliability-procs.js';
import { redisSkipReason, startRedis, type RedisServer } from '../support/redis-server.js';

const BIN = resolve(import.meta.dirname, '../../bin/tradeloop.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Worker processes started by `pid` (not tsx's esbuild service, also its child). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => / worker --queue /.test(l))
      .map((l) => Number(l.trim().split(/\s+/)[0]))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

describe.skipIf(redisSkipReason !== undefined)('tradeloop worker --concurrency', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('stops its extra worker processes when the parent is SIGKILLed', { timeout: 60_000 }, async () => {
    let err = '';
    const parent = spawn(process.execPath, [BIN, 'worker', '--queue', server.url, '--concurrency', '3'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    parent.stderr.on('data', (b: Buffer) => (err += String(b)));
    try {
      // the parent and both children each say they take trials
      await waitFor(() => (err.match(/takes trials from/g) ?? []).length >= 3, 'three workers', 40_000);
      const kids = childrenOf(parent.pid!);
      expect(kids).toHaveLength(2);
      parent.kill('SIGKILL');
      await waitFor(() => kids.every((k) => !alive(k)), 'the children to stop', 20_000);
      expect(kids.filter(alive)).toEqual([]);
    } finally {
      for (const k of childrenOf(parent.pid!)) process.kill(k, 'SIGKILL');
      parent.kill('SIGKILL');
    }
  });
  it(
    'exits within seconds of SIGTERM when Redis went away, saying so (a reconnecting client cannot keep it alive)',
    { timeout: 60_000 },
    async () => {
      const gone = await startRedis();
      let err = '';
      const worker = spawn(process.execPath, [BIN, 'worker', '--queue', gone.url], { stdio: ['ignore', 'ignore', 'pipe'] });
      worker.stderr.on('data', (b: Buffer) => (err += String(b)));
      const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
      try {
        await waitFor(() => /takes trials from/.test(err), 'the worker to start', 40_000);
        await gone.stop();
        worker.kill('SIGTERM');
        const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 30_000))]);
        expect(code).toBe(1);
        expect(err).toMatch(/stopped without closing its Redis connection/);
      } finally {
        worker.kill('SIGKILL');
      }
    },
  );
});
