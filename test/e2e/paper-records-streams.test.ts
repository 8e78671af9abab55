/**
 * A stream the config turns on is polled and recorded whatever the strategies ask for: a paper run of
 * a strategy that needs prices only, with `streams.book_ms` set, records BTCUSD's books (so a later
 * `tradeloop divergence` replays it on the book model); without the key, it records none.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tradeloop } from '../support/reliability-procs.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-paper-streams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The streams a paper run of sma-cross recorded, with `streams` as given. */
async function recordedStreams(name: string, streams: string): Promise<Set<string>> {
  const recording = join(dir, `${name}.jsonl`);
  const config = join(dir, `${name}.yaml`);
  writeFileSync(
    config,
    [
      'environment: local',
      'strategies:',
      '  - plugin: sma-cross',
      '    params: { fast: 2, slow: 4 }',
      `streams: { ${streams}record: ${recording}, warmup_points: 3 }`,
      `journal: { path: ${join(dir, `${name}.sqlite`)} }`,
    ].join('\n'),
  );
  const run = tradeloop(['run', '--paper', '--config', config, '--duration', '4s', '--json'], dir);
  expect(await run.exit, run.err().slice(-2000)).toBe(0);
  const lines = readFileSync(recording, 'utf8').trim().split('\n').slice(1);
  return new Set(lines.map((l) => (JSON.parse(l) as { stream?: string }).stream ?? ''));
}

describe('tradeloop run --paper records the streams the config turns on', () => {
  it(
    'polls and records books with streams.book_ms set although the strategy needs prices only, and none without it',
    { timeout: 120_000 },
    async () => {
      const withBooks = await recordedStreams('books', 'book_ms: 1000, ');
      expect([...withBooks]).toContain('book:BTCUSD');
      expect([...withBooks]).toContain('prices');
      const without = await recordedStreams('plain', '');
      expect([...without].filter((s) => s.startsWith('book:'))).toEqual([]);
      expect([...without]).toContain('prices');
    },
  );
});
