/**
 * A real `redis-server` for tests: started on 127.0.0.1 on a free port with persistence off
 * (`--save '' --appendonly no`), its own temporary folder, and stopped afterwards. When the binary
 * is not installed (Debian: apt-get install redis-server; .ci/run does it), `redisSkipReason` says so
 * in one line and the tests skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

function findBinary(): string | undefined {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? 'redis-server' : undefined;
}

const binary = findBinary();

/** Why Redis tests cannot run here (undefined when they can). */
export const redisSkipReason: string | undefined =
  binary === undefined ? 'redis-server is not installed (apt-get install redis-server): Redis tests skipped' : undefined;
if (redisSkipReason !== undefined) console.warn(redisSkipReason);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts redis-server; `extraArgs` e.g. ['--requirepass', 'x']. Resolves once it accepts connections. */
export async function startRedis(extraArgs: readonly string[] = []): Promise<RedisServer> {
  if (binary === undefined) throw new Error(redisSkipReason);
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-redis-'));
  for (let tries = 0; ; tries++) {
    const port = await freePort();
    const proc = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--protected-mode',
        'no',
        ...extraArgs,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    proc.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    proc.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    const up = await waitForPort(port, proc, 5_000);
    if (up) {
      return {
        port,
        url: `redis://127.0.0.1:${port}`,
        process: proc,
        stop: async () => {
          if (proc.exitCode === null) {
            const exited = new Promise((r) => proc.once('exit', r));
            proc.kill('SIGKILL');
            await exited;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    proc.kill('SIGKILL');
    if (tries >= 2) throw new Error(`redis-server did not start on 127.0.0.1:${port}: ${log.slice(-500)}`);
  }
}

function waitForPort(port: number, proc: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const attempt = (): void => {
      if (proc.exitCode !== null) return resolve(false);
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.end();
        resolve(true);
      });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > deadline) resolve(false);
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}
