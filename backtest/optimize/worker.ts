/**
 * An optimizer worker thread: loads the strategy once, then runs the jobs the pool sends, one at a
 * time, answering each with its metrics. Started by `optimize.ts` through a tiny bootstrap that
 * registers tsx first, so this TypeScript module (and users' `.ts` strategies) load in the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadStrategy } from '../../src/strategy/loader.js';
import { runJob, type FromWorker, type JobContext, type ToWorker } from './job.js';

async function main(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('optimize-worker runs only as a worker thread');
  const ctx = workerData as JobContext;
  const send = (m: FromWorker): void => port.postMessage(m);
  let definition;
  try {
    definition = await loadStrategy(ctx.strategy);
  } catch (e) {
    send({ type: 'fatal', error: e instanceof Error ? e.message : String(e) });
    return;
  }
  const def = definition;
  let chain = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.type === 'stop') {
      port.close();
      return;
    }
    chain = chain.then(async () => {
      try {
        send({ type: 'result', result: await runJob(def, ctx, m.job) });
      } catch (e) {
        send({ type: 'fatal', error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    });
  });
  send({ type: 'ready' });
}

await main();
