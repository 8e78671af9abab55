import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/exec/index.js';
import { tradeloop, useSandboxProcess, waitFor, writeLocalConfig, type Proc, type WireOrder } from '../support/reliability-procs.js';

const sb = useSandboxProcess('orphans', 11);

async function restingOf(prefix: string): Promise<WireOrder[]> {
  return (await sb.ordersOf(prefix)).filter((o) => o.status === 'OPEN');
}

/** `tradeloop run` with grid-maker: three post-only bids 1 %, 2 % and 3 % under mid, not re-centred in the test. */
function startGrid(prefix: string, journalPath: string, run: string): Proc {
  const config = writeLocalConfig(join(sb.cwd, `${prefix}.yaml`), sb.url, [
    'strategies:',
    '  - plugin: grid-maker',
    '    params: { market: BTCUSD, levels: 3, spacing_bps: 100, recenter_bps: 2000 }',
    'streams: { warmup_points: 0, orders_ms: 500 }',
    `run: { ref_prefix: ${prefix}${run} }`,
    `journal: { path: ${journalPath} }`,
  ]);
  const proc = tradeloop(['run', '--config', config, '--json'], sb.cwd);
  sb.runs.push(proc);
  return proc;
}

/** Waits until the run has laid its grid: three bids of its own rest (after any orphans were settled). */
async function gridLaid(run: Proc, prefix: string, placedBefore: number): Promise<void> {
  await waitFor(async () => (await sb.ordersOf(prefix)).length >= placedBefore + 3 || run.child.exitCode !== null, 'the grid laid', 60_000);
  await waitFor(async () => (await restingOf(prefix)).length >= 3 || run.child.exitCode !== null, 'three resting bids', 30_000);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(run.child.exitCode, run.err().slice(-2000)).toBeNull();
}

/** Drops one order's rows from the journal file (an edited journal): the venue then holds a record of ours it lacks. */
function seq(refId: string): number {
  return Number(refId.slice(refId.lastIndexOf('-') + 1));
}

function forgetOne(journalPath: string, refId: string): void {
  const db = new Database(journalPath);
  db.prepare('DELETE FROM events WHERE ref_id = ?').run(refId);
  db.prepare('DELETE FROM intents WHERE ref_id = ?').run(refId);
  db.close();
}

describe('orders of a crashed run (orphans), through the real command against a sandbox process', () => {
  it(
    "after two SIGKILLs and restarts only the strategy's own bids rest, and every venue order of ours is journaled",
    { timeout: 240_000 },
    async () => {
      const prefix = 'ork';
      const journalPath = join(sb.cwd, `${prefix}.sqlite`);
      let run = startGrid(prefix, journalPath, '');
      await gridLaid(run, prefix, 0);
      run.child.kill('SIGKILL');
      await run.exit;
      const first = (await restingOf(prefix)).sort((a, b) => seq(a.ref_id) - seq(b.ref_id));
      expect(first).toHaveLength(3);
      // one resting bid the journal no longer holds (not the newest: a journal behind the venue's ids is refused)
      forgetOne(journalPath, first[0]!.ref_id);

      run = startGrid(prefix, journalPath, '');
      await gridLaid(run, prefix, 3);
      expect((await restingOf(prefix)).length).toBe(3); // the first run's three were cancelled, not left beside the new grid
      expect(run.err()).toMatch(new RegExp(`orphan ${first[0]!.ref_id} .*at the venue with our prefix but not in the journal: cancel`));
      expect(run.err()).toMatch(/left open by an earlier run: cancel/);
      run.child.kill('SIGKILL');
      await run.exit;

      run = startGrid(prefix, journalPath, '');
      await gridLaid(run, prefix, 6);
      const resting = await restingOf(prefix);
      expect(resting).toHaveLength(3);
      run.child.kill('SIGINT');
      expect(await run.exit, run.err().slice(-2000)).toBe(0);
      const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as {
        orphans?: Record<string, number>;
        openOrdersLeft: number;
      };
      expect(summary).toMatchObject({ orphans: { cancel: 3 }, openOrdersLeft: 0 });
      const venue = await sb.ordersOf(prefix);
      expect(venue.filter((o) => o.status === 'OPEN')).toEqual([]);
      const journal = new Journal(journalPath);
      for (const o of venue)
        expect(journal.get(o.ref_id), `venue order ${o.ref_id} in the journal`).toMatchObject({ venueId: o.id, status: o.status });
      expect(journal.intents({ kind: 'place-order' })).toHaveLength(venue.length);
      journal.close();
    },
  );

  it('without cancel_on_exit a restart adopts the bids left open on purpose and follows them', { timeout: 120_000 }, async () => {
    const prefix = 'ora';
    const journalPath = join(sb.cwd, `${prefix}.sqlite`);
    let run = startGrid(prefix, journalPath, ', cancel_on_exit: false');
    await gridLaid(run, prefix, 0);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    const left = await restingOf(prefix);
    expect(left).toHaveLength(3);
    run = startGrid(prefix, journalPath, ', cancel_on_exit: false');
    await waitFor(() => /orphan .*: adopt/.test(run.err()), 'the orphans adopted', 60_000);
    await gridLaid(run, prefix, 3);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    // the adopted bids still rest, journaled open and followed beside the new run's grid (left open on purpose again)
    const resting = await restingOf(prefix);
    for (const o of left) expect(resting.map((x) => x.ref_id)).toContain(o.ref_id);
    const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as { orphans?: Record<string, number>; openOrdersLeft: number };
    expect(summary).toMatchObject({ orphans: { adopt: 3 }, openOrdersLeft: resting.length });
    const journal = new Journal(journalPath);
    for (const o of resting) expect(journal.get(o.ref_id)).toMatchObject({ venueId: o.id, state: 'open', strategy: 'grid-maker' });
    journal.close();
  });
});
