import type { JournalStore } from '../exec/index.js';
import type { JournalWrite } from './metrics.js';

const WRITES: ReadonlySet<string> = new Set<JournalWrite>(['recordDecision', 'markSent', 'update', 'recordFill', 'setMeta', 'checkpoint']);

/**
 * The journal with each write timed (for `tradeloop_journal_write_duration_seconds`): the same object
 * behind a proxy, so every reader and writer of the run keeps using one journal. Timing uses the
 * process's monotonic clock: it measures work done, not the run's (possibly simulated) time.
 */
export function instrumentJournal<J extends JournalStore>(journal: J, observe: (operation: JournalWrite, seconds: number) => void): J {
  const wrapped = new Map<string, unknown>();
  return new Proxy(journal, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof key !== 'string' || typeof value !== 'function') return value;
      let fn = wrapped.get(key);
      if (fn === undefined) {
        const method = value as (...a: unknown[]) => unknown;
        fn = !WRITES.has(key)
          ? method.bind(target)
          : (...args: unknown[]): unknown => {
              const t0 = process.hrtime.bigint();
              try {
                return method.apply(target, args);
              } finally {
                observe(key as JournalWrite, Number(process.hrtime.bigint() - t0) / 1e9);
              }
            };
        wrapped.set(key, fn);
      }
      return fn;
    },
  });
}
