import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { better, OptimizeProgress, progressText, PROGRESS_EVERY_MS } from './progress.js';

/** A stream that keeps what is written; a terminal when `tty`. */
function sink(tty: boolean): Writable & { text: string } {
  const s = new Writable({
    write(chunk, _enc, cb) {
      s.text += String(chunk);
      cb();
    },
  }) as Writable & { text: string; isTTY?: boolean };
  s.text = '';
  if (tty) s.isTTY = true;
  return s;
}

describe('the optimize progress line', () => {
  it('shows the bar, the trials done and the best score so far with its parameters', () => {
    expect(progressText('optimize', 30, 100, 'return', { score: 12.345678, params: { fast: 5, slow: 40 } })).toBe(
      `optimize [${'█'.repeat(6)}${'░'.repeat(14)}] 30% 30/100 · best return 12.3457 (fast=5, slow=40)`,
    );
    expect(progressText('optimize', 0, 8, 'sharpe', undefined)).toBe(`optimize [${'░'.repeat(20)}] 0% 0/8 · no result yet`);
  });

  it('keeps the better result: higher, or lower for max_drawdown', () => {
    const a = { score: 10, params: { k: 1 } };
    const b = { score: 20, params: { k: 2 } };
    expect(better('return', a, b)).toBe(b);
    expect(better('max_drawdown', a, b)).toBe(a);
    expect(better('return', undefined, a)).toBe(a);
  });

  it('writes nothing when stderr is not a terminal, or with --json', () => {
    const piped = sink(false);
    expect(OptimizeProgress.shownOn(piped, false)).toBe(false);
    expect(OptimizeProgress.shownOn(sink(true), true)).toBe(false);
    const p = new OptimizeProgress(piped, {
      label: 'optimize',
      metric: 'return',
      now: () => 0,
      enabled: OptimizeProgress.shownOn(piped, false),
    });
    p.offer(5, { k: 1 });
    p.update(1, 2);
    p.update(2, 2);
    p.stop();
    expect(piped.text).toBe('');
  });

  it('on a terminal redraws in place at most every 250 ms (and at the end), then clears the line', () => {
    const tty = sink(true);
    let now = 0;
    const p = new OptimizeProgress(tty, {
      label: 'optimize',
      metric: 'return',
      now: () => now,
      enabled: OptimizeProgress.shownOn(tty, false),
    });
    p.offer(3, { k: 1 });
    p.update(1, 10);
    now += PROGRESS_EVERY_MS - 1;
    p.offer(7, { k: 2 });
    p.offer(null, { k: 3 });
    p.update(2, 10); // too soon: not drawn
    now += 1;
    p.update(3, 10);
    p.update(10, 10); // the end is always drawn
    p.stop();
    const frames = tty.text.split('\r').filter((f) => f !== '');
    expect(frames).toEqual([
      `${progressText('optimize', 1, 10, 'return', { score: 3, params: { k: 1 } })}\x1b[K`,
      `${progressText('optimize', 3, 10, 'return', { score: 7, params: { k: 2 } })}\x1b[K`,
      `${progressText('optimize', 10, 10, 'return', { score: 7, params: { k: 2 } })}\x1b[K`,
      '\x1b[K',
    ]);
  });
});
