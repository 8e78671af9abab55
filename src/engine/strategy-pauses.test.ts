import { describe, expect, it } from 'vitest';
import { MemoryJournal } from '../exec/index.js';
import { createLogger } from '../log/index.js';
import { StrategyPauses } from '../risk/index.js';
import { TestClock } from '../clock/index.js';
import { journalPauses, pauseStrategy, PAUSES_META_KEY, restorePauses, resumeStrategy } from './strategy-pauses.js';

function logLines(): { log: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(s) } }), lines };
}

describe('paused strategies in the journal', () => {
  it('come back after a restart, and the start names each running one still paused', () => {
    const journal = new MemoryJournal();
    const before = new StrategyPauses();
    before.pause({ strategy: 'grid-b', since: Date.UTC(2026, 0, 2, 3, 4, 5), reason: 'paused by an operator: news' });
    before.pause({ strategy: 'gone', since: 1, reason: 'paused by an operator' });
    journalPauses(journal, before);

    const after = new StrategyPauses();
    const { log, lines } = logLines();
    restorePauses(journal, after, ['trend-a', 'grid-b'], log);
    expect(after.list().map((p) => p.strategy)).toEqual(['grid-b', 'gone']);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).msg).toBe(
      'grid-b starts paused (paused by an operator: news, since 2026-01-02T03:04:05.000Z): its new intents are denied until resumed (tradeloop ctl resume grid-b, or POST /api/resume {"strategy": "grid-b"})',
    );

    after.resume('grid-b');
    journalPauses(journal, after);
    const third = new StrategyPauses();
    restorePauses(journal, third, ['grid-b'], log);
    expect(third.get('grid-b')).toBeUndefined();
  });

  it('names a record that does not read and starts nothing paused', () => {
    const journal = new MemoryJournal();
    journal.setMeta(PAUSES_META_KEY, '{oops');
    const pauses = new StrategyPauses();
    const { log, lines } = logLines();
    restorePauses(journal, pauses, ['a'], log);
    expect(pauses.list()).toEqual([]);
    expect(lines.join('')).toContain('does not read as a list of paused strategies');
  });

  it('journals each pause and resume as it is made, keeping the first pause of a strategy', () => {
    const journal = new MemoryJournal();
    const { log, lines } = logLines();
    const ports = { journal, clock: new TestClock(1_000), log };
    const pauses = new StrategyPauses();
    expect(pauseStrategy(ports, pauses, 'a', 'paused by an operator: first')).toBe(true);
    expect(pauseStrategy(ports, pauses, 'a', 'paused by an operator: second')).toBe(false);
    expect(JSON.parse(journal.getMeta(PAUSES_META_KEY)!)).toEqual([
      { strategy: 'a', since: 1_000, reason: 'paused by an operator: first' },
    ]);
    expect(resumeStrategy(ports, pauses, 'a')).toMatchObject({ reason: 'paused by an operator: first' });
    expect(resumeStrategy(ports, pauses, 'a')).toBeUndefined();
    expect(JSON.parse(journal.getMeta(PAUSES_META_KEY)!)).toEqual([]);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
      'a paused: paused by an operator: first; its open orders and position stay',
      'a resumed: its new intents pass the gate again',
    ]);
  });
});
