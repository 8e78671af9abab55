import type { Writable } from 'node:stream';
import { LiveClock } from '../clock/index.js';
import type { OptimizeConfig } from '../../backtest/optimize/optimize.js';
import type { FleetProgress } from './study.js';
import { runJobsOnQueue } from './study.js';
import type { RedisTarget } from '../config/redis-url.js';

/**
 * `optimize --queue`: the runner runOptimize calls instead of its threads, printing fleet progress
 * to stderr (done, running, failed, workers seen; refusals once each) as it changes, at most every
 * 2 s, and a hint when no worker has shown up.
 */
export function queuedRunner(
  target: RedisTarget,
  io: { readonly stderr: Writable; readonly env: NodeJS.ProcessEnv },
): NonNullable<OptimizeConfig['runJobs']> {
  return async (ctx, jobs, onProgress) => {
    let last = 0;
    const clock = new LiveClock();
    let hinted = false;
    const started = clock.now();
    const refusals = new Set<string>();
    const line = (s: string): void => void io.stderr.write(`${s}\n`);
    const onFleet = (p: FleetProgress): void => {
      for (const r of Object.values(p.refusals)) {
        if (!refusals.has(r)) line(r);
        refusals.add(r);
      }
      if (p.workers === 0 && !hinted && clock.now() - started > 3_000) {
        hinted = true;
        line(`no worker has taken trials yet: start one with \`tradeloop worker --queue ${target.label}\``);
      }
      const now = clock.now();
      if (now - last < 2_000 && p.done < p.total) return;
      last = now;
      line(
        `fleet: ${p.done}/${p.total} done${p.reused > 0 ? ` (${p.reused} from earlier runs)` : ''}, ${p.running} running, ${p.failed} failed, ${p.workers} worker${p.workers === 1 ? '' : 's'} seen`,
      );
    };
    const r = await runJobsOnQueue(ctx, jobs, { target, env: io.env, onFleet }, onProgress);
    line(
      `queue ${target.label}: study ${r.studyKey}, ${jobs.length} trials, ${r.reused} already done, ${r.workers} worker${r.workers === 1 ? '' : 's'} seen`,
    );
    return { results: r.results, workers: r.workers };
  };
}
