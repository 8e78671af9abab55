import { spawn, type ChildProcess } from 'node:child_process';
import { type Command } from 'commander';
import { join } from 'node:path';
import { parsePositiveInt } from '../../../backtest/cli-input.js';
import { parseRedisUrl } from '../../config/redis-url.js';
import { tradeloopVersion } from '../../strategy/plugin-hash.js';
import { type CliContext, writeLine } from '../context.js';
import { untilStopped } from '../signals.js';
import { INSTALL_ROOT } from '../project/install.js';

interface WorkerFlags {
  readonly queue: string;
  readonly concurrency?: string;
  readonly strategies?: string;
  readonly lockMs?: string;
  readonly verbose?: boolean;
}

/**
 * `tradeloop worker --queue redis://HOST:PORT`: runs optimizer trials from the queue on this machine
 * until stopped (Ctrl-C, SIGTERM). `--concurrency N` runs N worker processes (a trial is CPU-bound,
 * so one process per core). Strategies load only from this installation or `--strategies DIR`.
 */
export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('run optimizer trials from a Redis queue (tradeloop optimize --queue) on this machine')
    .requiredOption('--queue <url>', 'Redis address: redis://HOST:PORT or rediss://HOST:PORT (password from TRADELOOP_REDIS_PASSWORD)')
    .option('--concurrency <n>', 'worker processes on this machine (default 1)')
    .option('--strategies <dir>', 'folder holding the plugin files the studies name (default ./strategies, then .)')
    .option('--lock-ms <ms>', 'a trial whose worker stops renewing its lock this long is given to another worker (default 30000)')
    .option('--verbose', 'print a line per trial')
    .action(async (flags: WorkerFlags) => {
      const target = parseRedisUrl(flags.queue, '--queue');
      const concurrency = parsePositiveInt(flags.concurrency, '--concurrency') ?? 1;
      const lockMs = parsePositiveInt(flags.lockMs, '--lock-ms');
      const children: ChildProcess[] = [];
      const bin = join(INSTALL_ROOT, 'bin', 'tradeloop.js');
      for (let k = 1; k < concurrency; k++) {
        const args = [
          bin,
          'worker',
          '--queue',
          target.label,
          ...(flags.strategies ? ['--strategies', flags.strategies] : []),
          ...(lockMs ? ['--lock-ms', String(lockMs)] : []),
          ...(flags.verbose ? ['--verbose'] : []),
        ];
        // an IPC channel to each child: when this process ends, however it ends (SIGKILL too), the
        // channel closes and the child stops as on Ctrl-C, so no worker is left behind
        children.push(spawn(process.execPath, args, { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: ctx.env }));
      }
      // bullmq and ioredis load only in this command (they slow string handling for the whole process)
      const { startQueueWorker } = await import('../../queue/trial-worker.js');
      const worker = await startQueueWorker({
        target,
        env: ctx.env,
        ...(flags.strategies !== undefined && { strategiesDir: flags.strategies }),
        ...(lockMs !== undefined && { lockMs }),
        onTrial: (e) => {
          if (e.outcome === 'refused' || e.outcome === 'error') writeLine(ctx.stderr, e.detail ?? e.outcome);
          else if (flags.verbose)
            writeLine(
              ctx.stderr,
              e.outcome === 'started'
                ? `trial ${e.trial.slice(0, 12)} started`
                : `trial ${e.trial.slice(0, 12)} ${e.outcome} in ${e.ms} ms`,
            );
        },
      });
      writeLine(
        ctx.stderr,
        `worker ${worker.id} (tradeloop ${tradeloopVersion()}) takes trials from ${target.label}${concurrency > 1 ? ` with ${concurrency} processes` : ''}; Ctrl-C stops it`,
      );
      // a child of `--concurrency N` stops too when its parent is gone (the channel closes)
      await untilStopped({ orDisconnect: true });
      for (const c of children) c.kill('SIGTERM');
      // a Redis that went away must not keep the worker from exiting: its trial, if any, is retried
      // elsewhere once its lock expires
      const closed = await Promise.race([
        worker.close().then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 10_000).unref()),
      ]);
      if (closed) {
        writeLine(ctx.stderr, `worker ${worker.id} stopped`);
        return;
      }
      writeLine(
        ctx.stderr,
        `worker ${worker.id} stopped without closing its Redis connection (no answer in 10 s); its trial, if any, goes to another worker when its lock expires`,
      );
      // the Redis client keeps reconnecting (its timers hold the process): end the process here
      process.exit(1);
    });
}
