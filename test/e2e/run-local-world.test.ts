import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type SimSnapshot } from '../../src/sim/snapshot.js';
import { savedWorld as world } from '../support/saved-world.js';
import { journalReady, type Proc, tempDir, useTradeloop, waitFor } from '../support/reliability-procs.js';

/** `tradeloop <args>` in `cwd`, killed after the test if still running. */
const start = useTradeloop();

/** A quick-trading local config in `dir`, journal and sandbox world in `.tradeloop/` as in `npm start`. */
function writeConfig(dir: string): string {
  const file = join(dir, 'c.yaml');
  writeFileSync(
    file,
    [
      'environment: local',
      'local: { seed: 42, speed: 4 }',
      'strategies:',
      '  - plugin: sma-cross',
      '    params: { market: BTCUSD, fast: 2, slow: 4, size_pct: 5 }',
      'streams: { warmup_points: 10 }',
      'log: { level: info }',
      '',
    ].join('\n'),
  );
  return file;
}

interface Summary {
  readonly intents: number;
  readonly fills: number;
  readonly ordersPlaced: number;
  readonly unresolved: number;
}

async function runFor(
  cwd: string,
  config: string,
  duration: string,
  extra: string[] = [],
): Promise<{ code: Awaited<Proc['exit']>; summary: Summary; err: string }> {
  const run = start(['run', '--config', config, '--duration', duration, '--json', ...extra], cwd);
  const code = await run.exit;
  return { code, summary: JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as Summary, err: run.err() };
}

interface JournalRows {
  readonly intents: Array<{ ref_id: string; venue_id: string | null }>;
  readonly fills: Array<{ fill_id: string; ref_id: string; order_id: string }>;
}

function journalRows(file: string): JournalRows {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      intents: db
        .prepare("SELECT ref_id, venue_id FROM intents WHERE kind = 'place-order' AND venue_id IS NOT NULL")
        .all() as JournalRows['intents'],
      fills: db.prepare('SELECT fill_id, ref_id, order_id FROM fills').all() as JournalRows['fills'],
    };
  } finally {
    db.close();
  }
}

/** Every journaled order and fill is the sandbox's, under the same ref_id and order: nothing misattributed, nothing missing. */
function misattributed(j: JournalRows, w: SimSnapshot): string[] {
  const orders = new Map(w.orders.map((o) => [String(o.id), String(o.refId)]));
  const execs = new Map(w.executions.map((x) => [String(x.executionId), x]));
  const out: string[] = [];
  for (const r of j.intents)
    if (orders.get(r.venue_id!) !== r.ref_id)
      out.push(`order ${r.venue_id} journaled for ${r.ref_id}, the sandbox has it for ${orders.get(r.venue_id!) ?? 'nothing'}`);
  for (const f of j.fills) {
    const x = execs.get(f.fill_id);
    if (x === undefined || x.orderId !== f.order_id || x.refId !== f.ref_id)
      out.push(
        `fill ${f.fill_id} journaled under ${f.ref_id}/${f.order_id}, the sandbox has ${x === undefined ? 'nothing' : `${String(x.refId)}/${String(x.orderId)}`}`,
      );
  }
  return out;
}

describe('tradeloop run on the embedded sandbox continues its world', () => {
  it("three runs in one folder each trade, and no fill is journaled under another run's order", { timeout: 300_000 }, async () => {
    const cwd = tempDir('world-3runs');
    const config = writeConfig(cwd);
    const instances = new Set<string>();
    for (let i = 1; i <= 3; i++) {
      const { code, summary, err } = await runFor(cwd, config, '80s');
      expect(code, err.slice(-2000)).toBe(0);
      expect(summary.intents, `run ${i}`).toBeGreaterThan(0);
      expect(summary.fills, `run ${i}`).toBeGreaterThan(0);
      instances.add(/world (sbx-[0-9a-f]+), (continued from|new in)/.exec(err)?.[1] ?? 'none');
      expect(err).toMatch(i === 1 ? /new in \.tradeloop\/sandbox-state\.sqlite/ : /continued from \.tradeloop\/sandbox-state\.sqlite/);
    }
    expect(instances.size).toBe(1);
    const j = journalRows(join(cwd, '.tradeloop/journal.sqlite'));
    expect(j.fills.length).toBeGreaterThanOrEqual(3);
    expect(j.intents.length).toBeGreaterThanOrEqual(3);
    expect(misattributed(j, world(join(cwd, '.tradeloop/sandbox-state.sqlite')))).toEqual([]);
  });

  it(
    'killed with SIGKILL mid-run, the world holds every order and fill the journal has, and a restart trades on',
    { timeout: 240_000 },
    async () => {
      const cwd = tempDir('world-kill');
      const config = writeConfig(cwd);
      const journal = join(cwd, '.tradeloop/journal.sqlite');
      const first = start(['run', '--config', config], cwd);
      await waitFor(() => journalReady(journal) && journalRows(journal).fills.length >= 2, 'two fills in the journal', 150_000);
      first.child.kill('SIGKILL');
      await first.exit;
      const atKill = journalRows(journal);
      expect(misattributed(atKill, world(join(cwd, '.tradeloop/sandbox-state.sqlite')))).toEqual([]);
      const { code, summary, err } = await runFor(cwd, config, '60s');
      expect(code, err.slice(-2000)).toBe(0);
      expect(summary.fills).toBeGreaterThan(0);
      const after = journalRows(journal);
      expect(misattributed(after, world(join(cwd, '.tradeloop/sandbox-state.sqlite')))).toEqual([]);
      expect(after.fills.length).toBeGreaterThan(atKill.fills.length);
    },
  );

  it(
    '--fresh moves the journal and the world to .tradeloop/archive/<time>/, and is refused outside local',
    { timeout: 120_000 },
    async () => {
      const cwd = tempDir('world-fresh');
      const config = writeConfig(cwd);
      expect((await runFor(cwd, config, '8s')).code).toBe(0);
      const before = world(join(cwd, '.tradeloop/sandbox-state.sqlite')).instanceId;
      const fresh = await runFor(cwd, config, '8s', ['--fresh']);
      expect(fresh.code, fresh.err.slice(-2000)).toBe(0);
      const archived = readdirSync(join(cwd, '.tradeloop/archive'));
      expect(archived).toHaveLength(1);
      expect(archived[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$/);
      const folder = join(cwd, '.tradeloop/archive', archived[0]!);
      expect(readdirSync(folder)).toEqual(expect.arrayContaining(['journal.sqlite', 'sandbox-state.sqlite']));
      expect(world(join(folder, 'sandbox-state.sqlite')).instanceId).toBe(before);
      expect(world(join(cwd, '.tradeloop/sandbox-state.sqlite')).instanceId).not.toBe(before);
      expect(fresh.err).toMatch(/new in \.tradeloop\/sandbox-state\.sqlite/);

      const remote = join(cwd, 'remote.yaml');
      writeFileSync(remote, 'environment: sandbox\nstrategies:\n  - plugin: sma-cross\n');
      const refused = start(['run', '--config', remote, '--fresh'], cwd, { TRADELOOP_CLIENT_ID: 'x', TRADELOOP_CLIENT_SECRET: 'y' });
      expect(await refused.exit).toBe(2);
      expect(refused.err()).toMatch(
        /--fresh: --fresh archives the journal and the embedded sandbox's world, which exist only in environment local/,
      );
    },
  );
});
