/**
 * `tradeloop optimize --search random|tpe`: seeded and repeatable, the study saved as trials finish,
 * and a child process stopped with SIGINT mid-study exits 130 saying how many trials are kept; the
 * same command again continues from them (running only the new trials) and ends with exactly the
 * rows of an uninterrupted study of the same seed, so TPE's state came back from the saved trials;
 * likewise after SIGKILL, which gets no chance to clean up.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSearch, type TrialRecord } from '../../backtest/search/run.js';
import { searchSpace } from '../../backtest/search/space.js';
import { loadStrategy } from '../../src/strategy/loader.js';
import { runCli } from '../cli/cli-helpers.js';
import { randomWalk } from '../support/walk.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-optimize-study-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const csv = join(dir, 'prices.csv');
const walk = randomWalk(800, 11);
writeFileSync(csv, `timestamp,price\n${Array.from(walk.prices, (p, i) => `${walk.times[i]},${p}`).join('\n')}\n`);
const smaCross = await loadStrategy('sma-cross');
const BIN = resolve(import.meta.dirname, '../../bin/tradeloop.js');

const args = (trials: number, studyDir: string, method = 'tpe'): string[] => [
  'optimize',
  '--strategy',
  'sma-cross',
  '--data',
  csv,
  '--search',
  method,
  '--trials',
  String(trials),
  '--seed',
  '7',
  '--grid',
  'fast=2..30,slow=10..120',
  '--metric',
  'return',
  '--workers',
  '1',
  '--study-dir',
  studyDir,
];
type Row = { trial: number; params: Record<string, number>; score: number | null };
const byTrial = (rows: Row[]): Array<[number, Record<string, number>, number | null]> =>
  [...rows].sort((a, b) => a.trial - b.trial).map((r) => [r.trial, r.params, r.score]);

function savedTrials(studyDir: string): number {
  if (!existsSync(studyDir)) return 0;
  const file = readdirSync(studyDir).find((f) => f.endsWith('.sqlite'));
  if (file === undefined) return 0;
  const db = new Database(join(studyDir, file), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'trials'").get() as { n: number }).n === 0
      ? 0
      : (db.prepare('SELECT count(*) AS n FROM trials').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('tradeloop optimize --search', () => {
  it('draws the same trials for a seed, random or TPE, and refuses bad flags naming them', { timeout: 120_000 }, async () => {
    for (const method of ['random', 'tpe']) {
      const a = await runCli([...args(12, join(dir, `a-${method}`), method), '--json']);
      const b = await runCli([...args(12, join(dir, `b-${method}`), method), '--json']);
      expect(a.code, a.stderr).toBe(0);
      const ja = JSON.parse(a.stdout);
      expect(ja.search).toMatchObject({ method, seed: 7, trials: 12, resumed: 0, ran: 12 });
      expect(ja.rows).toHaveLength(12);
      expect(byTrial(ja.rows)).toEqual(byTrial(JSON.parse(b.stdout).rows));
      for (const r of ja.rows as Row[]) expect(Number.isInteger(r.params.fast) && r.params.fast! >= 2 && r.params.fast! <= 30).toBe(true);
    }
    const bad = await runCli(['optimize', '--strategy', 'sma-cross', '--data', csv, '--search', 'annealing']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--search: unknown method "annealing"; use grid, random or tpe/);
    const resume = await runCli([...args(8, join(dir, 'empty')), '--resume']);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/--resume: no saved trials for these settings/);
  });

  it(
    'stops on SIGINT with exit 130 and the count kept, then continues without running a finished trial again',
    { timeout: 300_000 },
    async () => {
      const studyDir = join(dir, 'interrupted');
      const child = spawn(process.execPath, [BIN, ...args(400, studyDir)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      // poll the study file for finished trials (no sleeps standing in for progress)
      const deadline = Date.now() + 120_000;
      while (savedTrials(studyDir) < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(savedTrials(studyDir)).toBeGreaterThanOrEqual(8);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      const m =
        /interrupted: (\d+) of 400 trials finished and kept in (.+\.sqlite); run the same command again \(or add --resume\) to continue the study/.exec(
          stderr,
        );
      expect(m, stderr).not.toBeNull();
      const kept = Number(m![1]);
      expect(savedTrials(studyDir)).toBe(kept);

      const total = kept + 8;
      const again = await runCli([...args(total, studyDir), '--resume', '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`${kept} trials already finished`);
      const resumed = JSON.parse(again.stdout);
      expect(resumed.search).toMatchObject({ resumed: kept, ran: 8, trials: total });
      const fresh = JSON.parse((await runCli([...args(total, join(dir, 'uninterrupted')), '--json'])).stdout);
      expect(byTrial(resumed.rows)).toEqual(byTrial(fresh.rows));
    },
  );

  it(
    'stops the running batch at once when aborted: the trials finished are kept, each saved as it ended, and a resumed search runs only the others',
    { timeout: 120_000 },
    async () => {
      const base = {
        strategy: 'sma-cross',
        series: { source: 'walk', length: walk.times.length, times: walk.times, prices: walk.prices },
        metric: 'return' as const,
        workers: 1,
        space: searchSpace(smaCross.params, 'fast=2..30,slow=10..120'),
        method: 'tpe' as const,
        trials: 16,
        seed: 7,
      };
      const stop = new AbortController();
      const saved: TrialRecord[] = [];
      // the third trial of the first batch of 8 stops the search: five trials of that batch were still to run
      const cut = await runSearch({
        ...base,
        signal: stop.signal,
        onTrials: (t) => (saved.push(...t), saved.length === 3 && stop.abort()),
      });
      expect(cut.search).toMatchObject({ stopped: true, trials: 3, ran: 3 });
      expect(saved.map((t) => t.number)).toEqual([0, 1, 2]);
      const resumed = await runSearch({ ...base, previous: saved });
      expect(resumed.search).toMatchObject({ stopped: false, resumed: 3, ran: 13, trials: 16 });
      const whole = await runSearch(base);
      expect(byTrial(resumed.rows as unknown as Row[])).toEqual(byTrial(whole.rows as unknown as Row[]));
    },
  );

  it('keeps every saved trial when killed with SIGKILL, and the same command continues from them', { timeout: 300_000 }, async () => {
    const studyDir = join(dir, 'killed');
    const child = spawn(process.execPath, [BIN, ...args(400, studyDir)], { stdio: 'ignore' });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const deadline = Date.now() + 120_000;
    while (savedTrials(studyDir) < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await exited;
    const kept = savedTrials(studyDir);
    expect(kept).toBeGreaterThanOrEqual(8);
    const again = await runCli([...args(kept + 8, studyDir), '--json']);
    expect(again.code, again.stderr).toBe(0);
    const resumed = JSON.parse(again.stdout);
    expect(resumed.search).toMatchObject({ resumed: kept, ran: 8, trials: kept + 8 });
    const fresh = JSON.parse((await runCli([...args(kept + 8, join(dir, 'unkilled')), '--json'])).stdout);
    expect(byTrial(resumed.rows)).toEqual(byTrial(fresh.rows));
  });
});
