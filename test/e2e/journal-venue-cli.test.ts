import { copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  sandboxOrders,
  startSandboxProcess,
  tempDir,
  tradeloop,
  waitFor,
  writeBotConfig,
  type Proc,
} from '../support/reliability-procs.js';

/**
 * A journal and the venue it trades with, through the real command against a sandbox process:
 * one ref_id namespace per prefix at the venue (an empty or copied journal whose next ids the venue
 * already holds is refused) and one writer per journal (a second bot is refused while the first
 * runs, `tradeloop orders` still reads, and a SIGKILL frees the journal).
 */
const procs: Proc[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

let sandbox: Proc | undefined;
let url = '';

beforeAll(async () => {
  ({ proc: sandbox, url } = await startSandboxProcess(tempDir('journal-venue-sbx'), 13));
}, 120_000);

afterAll(async () => {
  sandbox?.child.kill('SIGTERM');
  await sandbox?.exit;
});

function run(dir: string, args: readonly string[] = []): Proc {
  const p = tradeloop(['run', '--config', join(dir, 'bot.yaml'), '--json', ...args], dir);
  procs.push(p);
  return p;
}

async function refsAtVenue(prefix: string): Promise<string[]> {
  return (await sandboxOrders<{ ref_id: string }>(url)).map((o) => o.ref_id).filter((r) => r.startsWith(`${prefix}-`));
}

/** Runs a bot in `dir` until the venue holds `atLeast` orders of `prefix`, then stops it with SIGINT. */
async function tradeUntil(dir: string, prefix: string, atLeast: number): Promise<void> {
  const p = run(dir);
  await waitFor(
    async () => (await refsAtVenue(prefix)).length >= atLeast || p.child.exitCode !== null,
    `${atLeast} orders of ${prefix}`,
    60_000,
  );
  expect(p.child.exitCode, p.err().slice(-2000)).toBeNull();
  p.child.kill('SIGINT');
  expect(await p.exit).toBe(0);
}

/** A bot that traded until the venue holds `atLeast` orders of `prefix`, and a copy of its journal (database and WAL) in a folder of its own. */
async function tradedCopy(name: string, prefix: string, atLeast: number): Promise<{ original: string; copy: string }> {
  const original = tempDir(name);
  writeBotConfig(original, url, prefix);
  await tradeUntil(original, prefix, atLeast);
  const copy = tempDir(`${name}-copy`);
  writeBotConfig(copy, url, prefix);
  for (const suffix of ['', '-wal'])
    if (existsSync(join(original, `journal.sqlite${suffix}`)))
      copyFileSync(join(original, `journal.sqlite${suffix}`), join(copy, `journal.sqlite${suffix}`));
  return { original, copy };
}

describe('one ref_id namespace per prefix at the venue', () => {
  it(
    'an empty journal given a prefix the venue already holds is refused with the fix, and sends nothing',
    { timeout: 300_000 },
    async () => {
      const first = tempDir('jv-first');
      writeBotConfig(first, url, 'shared');
      await tradeUntil(first, 'shared', 2);
      const before = (await refsAtVenue('shared')).length;
      const second = tempDir('jv-second');
      writeBotConfig(second, url, 'shared');
      const p = run(second, ['--duration', '60s']);
      expect(await p.exit).toBe(2);
      expect(p.err()).toMatch(
        /run\.ref_prefix: this journal is empty, but the venue already holds order \S+ shared-1: another journal used prefix shared.*set a new run\.ref_prefix/,
      );
      expect((await refsAtVenue('shared')).length).toBe(before);
    },
  );

  it(
    'a copy of a journal is refused at once, before either copy has sent anything (another file on disk)',
    { timeout: 300_000 },
    async () => {
      const { copy } = await tradedCopy('jv-orig-now', 'twin', 1);
      const before = (await refsAtVenue('twin')).length;
      const p = run(copy, ['--duration', '60s']);
      expect(await p.exit).toBe(2);
      expect(p.err()).toMatch(
        /journal\.path: \S+ is a copy of the journal made in \S+jv-orig-now\S* \(another file on disk\): two copies of one journal issue the same ref_ids.*--journal-moved/,
      );
      expect((await refsAtVenue('twin')).length).toBe(before);
    },
  );

  it('a copy said to be a move is still refused once the original has moved on', { timeout: 360_000 }, async () => {
    const { original, copy } = await tradedCopy('jv-original', 'copied', 2);
    const had = (await refsAtVenue('copied')).length;
    await tradeUntil(original, 'copied', had + 2);
    const after = (await refsAtVenue('copied')).length;
    const p = run(copy, ['--duration', '60s', '--journal-moved']);
    expect(await p.exit).toBe(2);
    expect(p.err()).toMatch(
      /run\.ref_prefix: this journal issued ids up to copied-\d+, but the venue already holds \S+ \S+ copied-\d+: another journal with this prefix \(a copy of this one\?\) has moved on/,
    );
    expect((await refsAtVenue('copied')).length).toBe(after);
  });
});

describe('the journal knows its venue', () => {
  it(
    "a journal kept while the embedded sandbox's world was started afresh is refused, naming both worlds and the fix",
    { timeout: 300_000 },
    async () => {
      const dir = tempDir('jv-world');
      const config = join(dir, 'c.yaml');
      writeFileSync(
        config,
        [
          'environment: local',
          'local: { seed: 42 }',
          'strategies:',
          '  - plugin: sma-cross',
          '    params: { market: BTCUSD }',
          'streams: { warmup_points: 0 }',
          'log: { level: info }',
          '',
        ].join('\n'),
      );
      const once = (): Proc => {
        const p = tradeloop(['run', '--config', config, '--duration', '2s', '--json'], dir);
        procs.push(p);
        return p;
      };
      const first = once();
      expect(await first.exit, first.err().slice(-2000)).toBe(0);
      const state = join(dir, '.tradeloop');
      for (const f of readdirSync(state)) if (f.startsWith('sandbox-state')) rmSync(join(state, f));
      const second = once();
      expect(await second.exit).toBe(2);
      expect(second.err()).toMatch(
        /journal\.path: this journal belongs to another venue \(sandbox instance \S+, not \S+: the sandbox's world was started afresh .*tradeloop run --fresh/,
      );
    },
  );
});

describe('one writer per journal', () => {
  it(
    "a second bot on a running bot's journal is refused, orders --json reads meanwhile, and a SIGKILL frees it",
    { timeout: 360_000 },
    async () => {
      const dir = tempDir('jv-lock');
      writeBotConfig(dir, url, 'locked');
      const first = run(dir);
      await waitFor(
        async () => (await refsAtVenue('locked')).length >= 1 || first.child.exitCode !== null,
        'the first bot trading',
        60_000,
      );
      expect(first.child.exitCode, first.err().slice(-2000)).toBeNull();

      const second = run(dir, ['--duration', '60s']);
      expect(await second.exit).toBe(2);
      expect(second.err()).toMatch(
        /journal\.path: \S+journal\.sqlite is in use by another running bot .*stop that bot first, or give this one its own journal\.path/,
      );

      const view = tradeloop(['orders', '--journal', join(dir, 'journal.sqlite'), '--json'], dir);
      expect(await view.exit).toBe(0);
      expect((JSON.parse(view.out()) as unknown[]).length).toBeGreaterThan(0);

      first.child.kill('SIGKILL');
      expect(await first.exit).toBe('SIGKILL');
      const third = run(dir);
      const placed = (await refsAtVenue('locked')).length;
      await waitFor(
        async () => (await refsAtVenue('locked')).length > placed || third.child.exitCode !== null,
        'the bot after the kill trading',
        60_000,
      );
      expect(third.child.exitCode, third.err().slice(-2000)).toBeNull();
      third.child.kill('SIGINT');
      expect(await third.exit).toBe(0);
    },
  );
});
