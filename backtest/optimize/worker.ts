/**
 * An optimizer worker thread: loads the strategy once, then runs the jobs the pool sends, one at a
 * time, answering each with its metrics. Started by `optimize.ts` through a tiny bootstrap that
 * registers tsx first, so this TypeScript module (and users' `.ts` strategies) load in the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadStrategy } from '../../src/strategy/loader.js';
import { runJob, type FromWorker, type Job, type JobContext, type JobResult, type ToWorker } from './job.js';

async function main(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('optimize-worker runs only as a worker thread');
  const ctx = workerData as JobContext;
  const send = (m: FromWorker): void => port.postMessage(m);
  let run: (job: Job) => Promise<JobResult>;
  try {
    // a trial inside a config loads every strategy of the config; else the one strategy
    if (ctx.portfolio) {
      // loaded only for it: a one-strategy thread keeps its lean module graph (backtest/module-graph.test.ts)
      const { loadPortfolioStrategies, runPortfolioJob } = await import('./portfolio-job.js');
      const strategies = await loadPortfolioStrategies(ctx.portfolio);
      run = (job) => runPortfolioJob(strategies, { ...ctx, portfolio: ctx.portfolio! }, job);
    } else {
      const def = await loadStrategy(ctx.strategy);
      run = (job) => runJob(def, ctx, job);
    }
  } catch (e) {
    send({ type: 'fatal', error: e instanceof Error ? e.message : String(e) });
    return;
  }
  let chain = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.type === 'stop') {
      port.close();
      return;
    }
    chain = chain.then(async () => {
      try {
        send({ type: 'result', result: await run(m.job) });
      } catch (e) {
        send({ type: 'fatal', error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    });
  });
  send({ type: 'ready' });
}

await main();
