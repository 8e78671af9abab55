import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import type { JournalWriteFailureListener } from '../exec/index.js';
import { JournalWatch, type JournalFailure } from './journal-watch.js';

/** A watch over a file whose identity the test sets, and a journal whose write failure the test fires. */
function watched(intervalMs = 1_000): {
  clock: TestClock;
  watch: JournalWatch;
  found: JournalFailure[];
  at: { file: { dev: string; ino: string } | undefined };
  failWrite: JournalWriteFailureListener;
} {
  const clock = new TestClock(1_000);
  const found: JournalFailure[] = [];
  const at: { file: { dev: string; ino: string } | undefined } = { file: { dev: '1', ino: '42' } };
  let listener: JournalWriteFailureListener = () => undefined;
  const watch = new JournalWatch({
    clock,
    intervalMs,
    path: '/bots/a/.tradeloop/journal.sqlite',
    onFailure: (f) => found.push(f),
    journal: { onWriteFailure: (l) => (listener = l) },
    identityOf: (path) => (path.endsWith('journal.sqlite') ? at.file : undefined),
  });
  watch.listen();
  watch.start();
  return { clock, watch, found, at, failWrite: (f) => listener(f) };
}

describe('JournalWatch', () => {
  it('finds the journal deleted within one interval, naming the file and its folder', () => {
    const w = watched();
    w.clock.advance(3_000);
    expect(w.found).toEqual([]);
    w.at.file = undefined;
    w.clock.advance(1_000);
    expect(w.found).toEqual([
      {
        kind: 'deleted',
        at: 5_000,
        reason: expect.stringMatching(
          /^the journal \/bots\/a\/\.tradeloop\/journal\.sqlite was deleted during the run \(its folder \/bots\/a\/\.tradeloop too\)/,
        ),
      },
    ]);
  });

  it('finds the journal replaced by another file at its path (another inode)', () => {
    const w = watched();
    w.at.file = { dev: '1', ino: '43' };
    w.clock.advance(1_000);
    expect(w.found.map((f) => f.kind)).toEqual(['replaced']);
    expect(w.found[0]?.reason).toMatch(/was replaced during the run/);
  });

  it('hears a failed write at once, and reports only the first failure', () => {
    const w = watched();
    w.failWrite({ code: 'SQLITE_FULL', message: 'database or disk is full', operation: 'recordDecision' });
    expect(w.found).toEqual([
      {
        kind: 'write-failed',
        at: 1_000,
        reason: expect.stringMatching(
          /^a write to the journal \/bots\/a\/\.tradeloop\/journal\.sqlite failed \(SQLITE_FULL: database or disk is full, in recordDecision\)/,
        ),
      },
    ]);
    w.at.file = undefined;
    w.clock.advance(5_000);
    expect(w.found).toHaveLength(1);
    expect(w.clock.pending()).toBe(0);
  });

  it('finds a journal deleted before trading started when it listens, and sets no timer before start', () => {
    const clock = new TestClock(1_000);
    const found: JournalFailure[] = [];
    const watch = new JournalWatch({
      clock,
      intervalMs: 1_000,
      path: '/bots/a/journal.sqlite',
      onFailure: (f) => found.push(f),
      journal: {},
      identityOf: () => ({ dev: '1', ino: '1' }),
    });
    watch.listen();
    expect(clock.pending()).toBe(0);
    const gone = new JournalWatch({
      clock,
      intervalMs: 1_000,
      path: '/bots/a/journal.sqlite',
      onFailure: (f) => found.push(f),
      journal: {},
      identityOf: () => undefined,
    });
    gone.listen();
    expect(found.map((f) => f.kind)).toEqual(['deleted']);
  });

  it('stops looking once stopped', () => {
    const w = watched();
    w.watch.stop();
    w.at.file = undefined;
    w.clock.advance(5_000);
    expect(w.found).toEqual([]);
  });
});
